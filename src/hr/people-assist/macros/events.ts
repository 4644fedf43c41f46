import { declareEvents } from '../../audit/catalogue.js';

/** The audit events macros record (docs/hr-api.md, "Audit events"). Running one is the request's event. */
export const macroEvents = declareEvents('macro', ['created', 'updated']);
