import { declareEvents } from '../../audit/catalogue.js';

/** The audit events employees record (docs/hr-api.md, "Audit events"). */
export const employeeEvents = declareEvents('employee', ['created', 'updated']);
