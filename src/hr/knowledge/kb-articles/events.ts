import { declareEvents } from '../../audit/catalogue.js';

/**
 * The audit events knowledge-base articles record: PUT (`created` or `updated`, versions, tags and categories
 * included), PATCH (`published` when it makes the article published, `unpublished` when it takes a published
 * article back to draft, `updated` otherwise), DELETE.
 */
export const kbArticleEvents = declareEvents('kb_article', [
  'created',
  'updated',
  'published',
  'unpublished',
  'deleted',
]);
