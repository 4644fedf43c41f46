/** Knowledge-base categories (`/kb_categories`). */
import type { Static } from '@sinclair/typebox';
import type {
  KbCategory,
  KbCategoryGetQuery,
  KbCategoryListQuery,
  KbCategoryPatch,
  KbCategoryPut,
  KbCategoryPutQuery,
} from '../../hr/knowledge/kb-categories/schemas.js';
import type { Verbs } from './core.js';

/** `hr.kbCategories`. */
export function kbCategories(v: Verbs) {
  const path = '/kb_categories';
  return {
    list: v.list<KbCategory, KbCategoryListQuery>(path),
    retrieve: v.retrieve<KbCategory, Static<typeof KbCategoryGetQuery>>(path),
    /** Creates or replaces a category; the answer is the category with its replicas (an array). */
    upsert: v.upsert<KbCategoryPut, KbCategory[], Static<typeof KbCategoryPutQuery>>(path),
    update: v.update<KbCategoryPatch, KbCategory>(path),
    del: v.del(path),
  };
}
