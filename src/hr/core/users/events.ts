import { declareEvents } from '../../audit/catalogue.js';

/** The audit events users record (docs/hr-api.md, "Audit events"). */
export const userEvents = declareEvents('user', ['created', 'updated']);
