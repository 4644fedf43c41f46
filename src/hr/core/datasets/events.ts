import { declareEvents } from '../../audit/catalogue.js';

/** The audit events datasets and their values record (docs/hr-api.md, "Audit events"). */
export const datasetEvents = declareEvents('dataset', ['created', 'updated']);
export const datasetValueEvents = declareEvents('dataset_value', ['created', 'updated', 'deleted']);
