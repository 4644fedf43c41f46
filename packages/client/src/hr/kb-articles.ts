/** Knowledge-base articles (`/kb_articles`) and their tags (`/kb_tags`). */
import type {
  KbArticle,
  KbArticleListQuery,
  KbArticlePatch,
  KbArticlePut,
  KbTag,
  KbTagListQuery,
} from '../schemas/hr/knowledge/kb-articles.js';
import type { Verbs } from './core.js';

/** `hr.kbArticles`. */
export function kbArticles(v: Verbs) {
  const path = '/kb_articles';
  return {
    list: v.list<KbArticle, KbArticleListQuery>(path),
    retrieve: v.retrieve<KbArticle>(path),
    upsert: v.upsert<KbArticlePut, KbArticle>(path),
    update: v.update<KbArticlePatch, KbArticle>(path),
    del: v.del(path),
  };
}

/** `hr.kbTags`. */
export function kbTags(v: Verbs) {
  return { list: v.list<KbTag, KbTagListQuery>('/kb_tags') };
}
