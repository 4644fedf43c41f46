import { declareEvents } from '../../audit/catalogue.js';

/** The audit events knowledge-base categories record: PUT (`created` or `updated`), PATCH, DELETE. */
export const kbCategoryEvents = declareEvents('kb_category', ['created', 'updated', 'deleted']);
