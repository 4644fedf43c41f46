import { declareEvents } from '../../audit/catalogue.js';

/** The audit events inbox items record (docs/hr-api.md, "Audit events"). */
export const inboxItemEvents = declareEvents('inbox_item', ['created']);
