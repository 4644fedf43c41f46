import { declareEvents } from '../../audit/catalogue.js';

/** The audit events of the knowledge base's media (docs/hr-api.md, "Audit events"). */
export const kbArticleImageEvents = declareEvents('kb_article_image', ['created']);
export const kbArticleDocumentEvents = declareEvents('kb_article_document', ['created', 'updated']);
