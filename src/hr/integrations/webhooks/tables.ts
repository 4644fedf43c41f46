import type { Generated } from 'kysely';

/** Column types of the webhooks' tables (instants in epoch ms, booleans as 0/1). */

export interface HrWebhooksTable {
  pk: Generated<number>;
  client_id: string;
  /** UUID v4. */
  id: string;
  name: string;
  callback_url: string;
  /** JSON: the event types and patterns it subscribes to. */
  events: string;
  is_active: number;
  /** The HMAC key, sealed with the master key (a reversible secret: platform/security/secret-box.ts). */
  signature_key: string;
  /** Deliveries refused in a row (a private address); at `ATRIUM_WEBHOOK_DEACTIVATE_AFTER` it is made inactive. */
  refused_in_row: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** One event to deliver to one webhook: queued in the event's transaction, sent by the job runner. */
export interface HrWebhookDeliveriesTable {
  pk: Generated<number>;
  client_id: string;
  /** UUID v4: the delivery's id (redeliver takes it). */
  id: string;
  webhook_id: string;
  /** The event's id, sent as `X-Event-Id` (shared by every attempt and redelivery). */
  event_id: string;
  event_type: string;
  /** The exact JSON body every attempt sends. */
  body: string;
  /**
   * `pending`, `succeeded`, `skipped` (its webhook was inactive when its turn came) or `dropped` (unsent: the oldest
   * waiting past `ATRIUM_MAX_PENDING_DELIVERIES`); a pending delivery whose job gave up is `failed` (its job says so).
   */
  status: string;
  attempts: number;
  /** The job that sends it (platform/jobs). */
  job_id: number | null;
  created_at: number;
  updated_at: number;
}

/** One attempt of a delivery, as `GET /webhooks/{id}/deliveries` shows it. */
export interface HrWebhookAttemptsTable {
  pk: Generated<number>;
  client_id: string;
  delivery_id: string;
  webhook_id: string;
  attempt: number;
  /** `succeeded` or `failed`; `dropped` for the entry of a dropped delivery (not a try). */
  status: string;
  response_code: number | null;
  duration_ms: number;
  error: string | null;
  /** The first bytes of the receiver's answer (capped). */
  response_excerpt: string | null;
  created_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_webhooks: HrWebhooksTable;
    hr_webhook_deliveries: HrWebhookDeliveriesTable;
    hr_webhook_attempts: HrWebhookAttemptsTable;
  }
}
