import { declareEvents } from '../../audit/catalogue.js';

/** The audit events signature processes record (docs/hr-api.md, "Audit events"; webhooks match `signature.*`). */
export const signatureEvents = declareEvents('signature', [
  'created',
  'updated',
  'deleted',
  'signing',
  'signed',
  'done',
  'rejected',
  'expired',
  'canceled',
  'error',
  'archived',
]);

/** The audit events signers record. */
export const signerEvents = declareEvents('signer', ['created', 'updated', 'deleted', 'signed', 'refused', 'locked']);
