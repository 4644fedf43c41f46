import { declareEvents } from '../../audit/catalogue.js';

/** The audit events dataset imports record (docs/hr-api.md, "Audit events"). */
export const datasetImportEvents = declareEvents('dataset_import', ['created']);
