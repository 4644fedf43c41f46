import { declareEvents } from '../../audit/catalogue.js';

/** The audit events processes record (docs/hr-api.md, "Audit events"). */
export const processEvents = declareEvents('process', ['created', 'published', 'deleted']);
