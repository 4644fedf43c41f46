import { declareEvents } from '../../audit/catalogue.js';

/** The audit events imports record (docs/hr-api.md, "Audit events"); each row's write records its own. */
export const importEvents = declareEvents('import', ['created']);
