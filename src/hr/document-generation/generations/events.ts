import { declareEvents } from '../../audit/catalogue.js';

/**
 * The audit events generated documents record: `created` (a sync generation, or an async one accepted),
 * `generated` and `failed` (an async one's end), `archived`, `vaulted`, `emailed`, `deleted`.
 */
export const generationEvents = declareEvents('document_generation', [
  'created',
  'generated',
  'failed',
  'archived',
  'vaulted',
  'emailed',
  'deleted',
]);
