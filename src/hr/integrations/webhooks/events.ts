import { declareEvents } from '../../audit/catalogue.js';

/** The audit events webhooks record (their `data` never holds the signature key). */
export const webhookEvents = declareEvents('webhook', ['created', 'updated', 'deleted', 'signature_key_refreshed']);
