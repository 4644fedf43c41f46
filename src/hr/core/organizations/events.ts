import { declareEvents } from '../../audit/catalogue.js';

/** The audit events organizations record (docs/hr-api.md, "Audit events"). */
export const organizationEvents = declareEvents('organization', ['created', 'updated']);
