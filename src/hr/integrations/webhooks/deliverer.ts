import type { Db } from '../../../platform/db/database.js';
import { send } from '../../../platform/http/outbound.js';
import { type Job, type JobContext, type JobHandler, RetryJobError } from '../../../platform/jobs/index.js';
import type { SecretBox } from '../../../platform/security/secret-box.js';
import type { DeliveryPayload } from './outbox.js';
import { WebhooksRepository } from './repository.js';
import { signatureHeader } from './sender.js';
import { SIGNATURE_KEY_PURPOSE } from './service.js';

export interface DelivererSettings {
  /** Any 2xx within this time is success (`ATRIUM_WEBHOOK_TIMEOUT_MS`). */
  timeoutMs: number;
  /** Whether loopback and private addresses may be called (`ATRIUM_WEBHOOK_ALLOW_PRIVATE`). */
  allowPrivate: boolean;
  /** `Atrium/<version>`. */
  userAgent: string;
}

/**
 * The job handler that sends one delivery: the stored body, signed now with the webhook's current key, to its
 * current URL. Every attempt is recorded; a failure is thrown so that the runner retries it with backoff until
 * the delivery's deadline (`ATRIUM_WEBHOOK_RETRY_FOR`), honouring a receiver's `Retry-After`. A delivery whose
 * webhook was deleted ends quietly; one whose webhook was made inactive ends `skipped`, unsent.
 */
export function deliveryHandler(deps: {
  db: Db;
  secrets: SecretBox;
  now: () => number;
  settings: DelivererSettings;
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
          createdAt: deps.now(),
        },
        result.ok ? 'succeeded' : 'pending',
      ),
    );
    if (result.ok) return;
    if (result.retryAfterSeconds !== undefined) {
      const wait = Math.min(result.retryAfterSeconds, 3600) * 1000;
      throw new RetryJobError(result.error ?? 'failed', deps.now() + wait);
    }
    throw new Error(result.error ?? 'failed');
  };
}
