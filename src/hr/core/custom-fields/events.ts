import { declareEvents } from '../../audit/catalogue.js';

/** The audit events custom fields record (docs/hr-api.md, "Audit events"). */
export const customFieldEvents = declareEvents('custom_field', ['created', 'updated']);
