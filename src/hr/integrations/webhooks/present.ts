import { formatDateTime } from '../../../platform/time.js';
import type { AttemptRecord, WebhookRecord } from './repository.js';
import type { Webhook, WebhookAttempt } from './schemas.js';

/** A webhook on the wire (reference §3f.5, `WebhookFull`), with its signature key opened. */
export function presentWebhook(webhook: WebhookRecord, signatureKey: string): Webhook {
  return {
    id: webhook.id,
    name: webhook.name,
    callback_url: webhook.callbackUrl,
    events: webhook.events,
    is_active: webhook.isActive,
    signature_key: signatureKey,
    created_at: formatDateTime(webhook.createdAt),
    updated_at: formatDateTime(webhook.updatedAt),
  };
}

/** A webhook in the audit trail: as the API shows it, without its signature key (a secret never leaves the GET). */
export function presentWebhookForAudit(webhook: WebhookRecord): Omit<Webhook, 'signature_key'> {
  const { signature_key: _key, ...rest } = presentWebhook(webhook, '');
  return rest;
}

export function presentAttempt(attempt: AttemptRecord): WebhookAttempt {
  return {
    delivery_id: attempt.deliveryId,
    event_id: attempt.eventId,
    event_type: attempt.eventType,
    attempt: attempt.attempt,
    status: attempt.status as WebhookAttempt['status'],
    response_code: attempt.responseCode,
    duration_ms: attempt.durationMs,
    error: attempt.error,
    response_excerpt: attempt.responseExcerpt,
    delivery_status: attempt.deliveryStatus as WebhookAttempt['delivery_status'],
    created_at: formatDateTime(attempt.createdAt),
  };
}
