import { declareEvents } from '../../audit/catalogue.js';

/**
 * The audit events campaigns record: `created` (`POST`), and how one ends: `completed` (at least one row
 * generated), `failed` (none), `canceled` (`POST …/cancel`).
 */
export const campaignEvents = declareEvents('document_generation_campaign', [
  'created',
  'completed',
  'failed',
  'canceled',
]);
