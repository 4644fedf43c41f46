import { declareEvents } from '../../audit/catalogue.js';

/**
 * The audit events of document-type prediction runs (docs/hr-api.md, "Audit events"): `created` by the POST,
 * `status_changed` each time the job moves the run on (`IN_PROGRESS`, then `DONE` or `FAILED`; its `data.status`).
 */
export const predictionRunEvents = declareEvents('document_type_prediction_run', ['created', 'status_changed']);
