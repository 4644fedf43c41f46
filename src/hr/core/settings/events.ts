import { declareEvents } from '../../audit/catalogue.js';

/** The audit events a client's settings record (docs/hr-api.md, "Audit events"). */
export const settingsEvents = declareEvents('settings', ['updated']);
