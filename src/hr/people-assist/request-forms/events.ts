import { declareEvents } from '../../audit/catalogue.js';

/** The audit events request forms record (docs/hr-api.md, "Audit events"). */
export const requestFormEvents = declareEvents('request_form', ['created', 'updated']);
