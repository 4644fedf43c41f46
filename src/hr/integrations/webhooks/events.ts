import { declareEvents } from '../../audit/catalogue.js';

/**
 * The audit events webhooks record (their `data` never holds the signature key). `deactivated`: the server made it
 * inactive after `ATRIUM_WEBHOOK_DEACTIVATE_AFTER` deliveries refused in a row.
 */
export const webhookEvents = declareEvents('webhook', [
  'created',
  'updated',
  'deleted',
  'signature_key_refreshed',
  'deactivated',
]);
