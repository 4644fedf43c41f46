import { declareEvents } from '../../audit/catalogue.js';

/** The audit events custom statuses record (docs/hr-api.md, "Audit events"). */
export const customStatusEvents = declareEvents('custom_status', ['created', 'updated']);
