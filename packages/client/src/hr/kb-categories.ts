/** Knowledge-base categories (`/kb_categories`). */
import type {
  KbCategory,
  KbCategoryGetQuery,
  KbCategoryListQuery,
  KbCategoryPatch,
  KbCategoryPut,
  KbCategoryPutQuery,
} from '../schemas/hr/knowledge/kb-categories.js';
import type { Verbs } from './core.js';

/** `hr.kbCategories`. */
export function kbCategories(v: Verbs) {
  const path = '/kb_categories';
  return {
    list: v.list<KbCategory, KbCategoryListQuery>(path),
    retrieve: v.retrieve<KbCategory, KbCategoryGetQuery>(path),
    /** Creates or replaces a category; the answer is the category with its replicas (an array). */
    upsert: v.upsert<KbCategoryPut, KbCategory[], KbCategoryPutQuery>(path),
    update: v.update<KbCategoryPatch, KbCategory>(path),
    del: v.del(path),
  };
}
