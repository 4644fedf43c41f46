import { randomUUID } from 'node:crypto';
import type { Db } from '../../../platform/db/database.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { enqueue, trimBacklog } from '../../../platform/jobs/index.js';
import { afterWork } from '../../audit/actor.js';
import { matchesPattern } from '../../audit/catalogue.js';
import type { EventOutlet } from '../../audit/trail.js';
import { presentRecordedEvent } from '../events/present.js';
import { anyActiveWebhook, WebhooksRepository } from './repository.js';
import type { DeliveryQueue } from './service.js';

/** The job queue webhook deliveries run on. */
export const DELIVERY_QUEUE = 'webhook.delivery';

/** What a delivery's job carries: where to find the delivery. The body and the key are read when it runs. */
export interface DeliveryPayload {
  clientId: HrTenantId;
  deliveryId: string;
  webhookId: string;
  /** Asked for by name (a test callback, a redelivery): sent even while the webhook is inactive. */
  explicit?: boolean;
}

/** What the delivery queue is set with. */
export interface DeliveryQueueSettings {
  /** How long a delivery is retried (`ATRIUM_WEBHOOK_RETRY_FOR`). */
  retryForMs: number;
  /** Deliveries one webhook may have waiting (`ATRIUM_MAX_PENDING_DELIVERIES`); the oldest beyond are dropped. */
  maxPending: number;
  /** The client's time, which a dropped delivery's entry is dated in (as the deliverer dates attempts). */
  clientNow: () => number;
}

/**
 * The webhooks' outbox on the job runner: one job per delivery, keyed by its webhook so that one webhook's
 * deliveries go out one at a time in event order, while other webhooks' go on (platform/jobs, ordering keys).
 * `now` is the enqueue's time (the job's creation, due time and deadline): the installation's (`clock.wall()`), as
 * for every queue, since jobs run in the installation's time (docs/admin.md, "Background jobs"); in a client's moved
 * time a delivery would wait for as long as the client's clock is ahead.
 *
 * Past `maxPending` deliveries waiting for one webhook, the oldest waiting are dropped in the same transaction: their
 * jobs cancelled, the deliveries `dropped`, each with an entry in `GET /webhooks/{id}/deliveries` saying so.
 */
export function deliveryQueue(settings: DeliveryQueueSettings, wake: () => void, now: () => number): DeliveryQueue {
  const reason = `dropped: more than ${settings.maxPending} deliveries were waiting for this webhook (ATRIUM_MAX_PENDING_DELIVERIES)`;
  return {
    async enqueue(db, clientId, delivery) {
      const payload: DeliveryPayload = {
        clientId,
        deliveryId: delivery.id,
        webhookId: delivery.webhookId,
        ...(delivery.explicit ? { explicit: true } : {}),
      };
      const at = now();
      const key = `webhook:${delivery.webhookId}`;
      const jobId = await enqueue(
        db,
        {
          queue: DELIVERY_QUEUE,
          tenant: clientId,
          orderingKey: key,
          payload,
          giveUpAfterMs: settings.retryForMs,
          maxAttempts: null,
        },
        at,
      );
      // After the enqueue, which holds the key's lock on PostgreSQL until commit: the new job is the newest, and
      // never among the dropped (the cap is at least 1).
      const dropped = await trimBacklog<DeliveryPayload>(db, key, settings.maxPending, reason, at);
      if (dropped.length > 0) {
        const ids = dropped.map((j) => j.payload.deliveryId);
        await new WebhooksRepository(db).dropDeliveries(
          clientId,
          delivery.webhookId,
          ids,
          reason,
          settings.clientNow(),
        );
      }
      return jobId;
    },
    wake,
  };
}

/**
 * The audit trail's outlet: each event matching an active webhook of its client is queued for it, in the
 * event's own transaction (a rolled-back write queues nothing; a committed one has its deliveries).
 */
export function webhookOutlet(queue: DeliveryQueue, now: () => number): EventOutlet {
  return {
    wanted: (clientId) => anyActiveWebhook(clientId),
    async receive(db: Db, clientId, event) {
      const repo = new WebhooksRepository(db);
      const targets = (await repo.active(clientId)).filter((w) => w.events.some((p) => matchesPattern(p, event.type)));
      if (targets.length === 0) return;
      const body = JSON.stringify(presentRecordedEvent(event));
      const at = now();
      for (const webhook of targets) {
        const delivery = { id: randomUUID(), webhookId: webhook.id, eventId: event.id, eventType: event.type, body };
        const jobId = await queue.enqueue(db, clientId, delivery);
        await repo.insertDelivery(clientId, { ...delivery, jobId }, at);
      }
      // The runner is woken once the write has committed (before, it would not see the jobs yet).
      afterWork(queue.wake);
    },
  };
}
