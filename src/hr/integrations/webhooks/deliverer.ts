import type { Db } from '../../../platform/db/database.js';
import { send } from '../../../platform/http/outbound.js';
import {
  type Job,
  type JobContext,
  type JobHandler,
  PermanentJobError,
  RetryJobError,
} from '../../../platform/jobs/index.js';
import type { SecretBox } from '../../../platform/security/secret-box.js';
import type { AuditTrail } from '../../audit/trail.js';
import { webhookEvents } from './events.js';
import type { DeliveryPayload } from './outbox.js';
import { presentWebhookForAudit } from './present.js';
import { type WebhookRecord, WebhooksRepository } from './repository.js';
import { signatureHeader } from './sender.js';
import { SIGNATURE_KEY_PURPOSE } from './service.js';

export interface DelivererSettings {
  /** Any 2xx within this time is success (`ATRIUM_WEBHOOK_TIMEOUT_MS`). */
  timeoutMs: number;
  /** Whether loopback and private addresses may be called (`ATRIUM_WEBHOOK_ALLOW_PRIVATE`). */
  allowPrivate: boolean;
  /** `Atrium/<version>`. */
  userAgent: string;
  /** Deliveries refused in a row after which the webhook is made inactive (`ATRIUM_WEBHOOK_DEACTIVATE_AFTER`); 0: never. */
  deactivateAfter: number;
}

/**
 * The job handler that sends one delivery: the stored body, signed now with the webhook's current key, to its
 * current URL. Every attempt is recorded; a failure is thrown so that the runner retries it with backoff until
 * the delivery's deadline (`ATRIUM_WEBHOOK_RETRY_FOR`), honouring a receiver's `Retry-After`. A delivery whose
 * webhook was deleted ends quietly; one whose webhook was made inactive ends `skipped`, unsent.
 *
 * A delivery refused for its address (a private one) fails at once, unretried: no later attempt can go through,
 * and a retried head would hold the webhook's later deliveries back for the whole retry period. After
 * `deactivateAfter` refused in a row (no delivery through in between) the webhook is made inactive and
 * `webhook.deactivated` is recorded, in the transaction that ends the attempt.
 */
export function deliveryHandler(deps: {
  db: Db;
  secrets: SecretBox;
  now: () => number;
  settings: DelivererSettings;
  /** The audit trail on the attempt's transaction (for `webhook.deactivated`). */
  audit: (db: Db) => AuditTrail;
}): JobHandler<DeliveryPayload> {
  const repo = new WebhooksRepository(deps.db);
  return async (job: Job<DeliveryPayload>, context: JobContext) => {
    const { clientId, deliveryId, webhookId } = job.payload;
    const [delivery, webhook] = await Promise.all([
      repo.findDelivery(clientId, webhookId, deliveryId),
      repo.find(clientId, webhookId),
    ]);
    if (!delivery || !webhook) return;
    // A webhook made inactive stops its queued deliveries and their retries (only active webhooks send
    // callbacks); a test or a redelivery, asked for by name, still goes.
    if (!webhook.isActive && job.payload.explicit !== true) {
      const at = deps.now();
      context.record((trx) => new WebhooksRepository(trx).setDeliveryStatus(clientId, deliveryId, 'skipped', at));
      return;
    }
    const key = deps.secrets.open(SIGNATURE_KEY_PURPOSE, webhook.sealedKey);
    const result = await send({
      url: webhook.callbackUrl,
      body: delivery.body,
      headers: {
        'content-type': 'application/json',
        'user-agent': deps.settings.userAgent,
        'x-event-id': delivery.eventId,
        'x-event-type': delivery.eventType,
        'x-event-signature': signatureHeader(key, delivery.body, Math.floor(deps.now() / 1000)),
      },
      timeoutMs: deps.settings.timeoutMs,
      allowPrivate: deps.settings.allowPrivate,
      now: deps.now,
    });
    const at = deps.now();
    // The attempt, its count and the delivery's status commit with the job's outcome: one commit.
    context.record((trx) =>
      new WebhooksRepository(trx).recordAttempt(
        clientId,
        delivery,
        {
          status: result.ok ? 'succeeded' : 'failed',
          responseCode: result.status,
          durationMs: result.durationMs,
          error: result.error,
          responseExcerpt: result.excerpt,
          createdAt: at,
        },
        result.ok ? 'succeeded' : result.refused ? 'failed' : 'pending',
      ),
    );
    if (result.ok) {
      // Only a webhook that was refused costs its deliveries a write.
      if (webhook.refusedInRow > 0) {
        context.record((trx) => new WebhooksRepository(trx).clearRefusals(clientId, webhookId));
      }
      return;
    }
    if (result.refused) {
      context.record((trx) => refused(trx, deps, clientId, webhook, at));
      throw new PermanentJobError(result.error ?? 'refused');
    }
    if (result.retryAfterSeconds !== undefined) {
      const wait = Math.min(result.retryAfterSeconds, 3600) * 1000;
      throw new RetryJobError(result.error ?? 'failed', deps.now() + wait);
    }
    throw new Error(result.error ?? 'failed');
  };
}

/** Counts a refusal; at the setting's count, makes the webhook inactive and records `webhook.deactivated`. */
async function refused(
  trx: Db,
  deps: { settings: DelivererSettings; audit: (db: Db) => AuditTrail },
  clientId: DeliveryPayload['clientId'],
  webhook: WebhookRecord,
  at: number,
): Promise<void> {
  const repo = new WebhooksRepository(trx);
  const inRow = await repo.countRefusal(clientId, webhook.id);
  const limit = deps.settings.deactivateAfter;
  if (limit === 0 || inRow < limit || !(await repo.deactivate(clientId, webhook.id, at))) return;
  const updated = (await repo.find(clientId, webhook.id)) as WebhookRecord;
  await deps.audit(trx).record(clientId, webhookEvents, 'deactivated', {
    id: webhook.id,
    name: updated.name,
    data: presentWebhookForAudit(updated),
  });
}
