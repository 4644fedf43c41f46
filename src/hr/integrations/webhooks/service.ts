import { randomUUID } from 'node:crypto';
import type { Db } from '../../../platform/db/database.js';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { lockTenantCap } from '../../../platform/db/tenant-cap.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, NotFoundError } from '../../../platform/errors.js';
import type { SecretBox } from '../../../platform/security/secret-box.js';
import { newSecret } from '../../../platform/security/secrets.js';
import type { Clock } from '../../../platform/time.js';
import type { EventCatalogue } from '../../audit/catalogue.js';
import type { Audited } from '../../module.js';
import { presentRecordedEvent } from '../events/present.js';
import { webhookEvents } from './events.js';
import { presentWebhookForAudit } from './present.js';
import type { AttemptRecord, WebhookAttributes, WebhookRecord, WebhooksRepository } from './repository.js';
import type { WebhookCreate } from './schemas.js';

/** The purpose a signature key is sealed under (the secret box binds it: a key cannot be opened as another secret). */
export const SIGNATURE_KEY_PURPOSE = 'webhook signature key';

export interface WebhooksWork {
  webhooks: WebhooksRepository;
}

/** Queues a delivery's job in the caller's transaction, and wakes the runner once it commits. */
export interface DeliveryQueue {
  /** Answers the job's id. */
  enqueue(
    db: Db,
    clientId: HrTenantId,
    delivery: { id: string; webhookId: string; explicit?: boolean },
  ): Promise<number>;
  wake(): void;
}

/** A webhook with its signature key opened, for its presenter. */
export interface WebhookView {
  webhook: WebhookRecord;
  signatureKey: string;
}

/** Webhooks (reference §3f.5): CRUD, key rotation, test callbacks, deliveries and redelivery. */
export class WebhooksService {
  private readonly repo: WebhooksRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<WebhooksWork>>,
    private readonly secrets: SecretBox,
    private readonly catalogue: () => EventCatalogue,
    private readonly clock: Clock,
    private readonly queue: DeliveryQueue,
    /** `ATRIUM_MAX_ACTIVE_WEBHOOKS`: creating or activating one more is 422, and writes nothing. */
    private readonly maxActive: number,
  ) {
    this.repo = work.read.webhooks;
  }

  /**
   * Refuses to make webhook `id` active when the client has `maxActive` others active already: 422 on `is_active`
   * (docs/webhooks.md, "Limits"). Called first in the write's transaction, under the cap's lock (PostgreSQL).
   */
  private async checkActiveCap(
    webhooks: WebhooksRepository,
    clientId: HrTenantId,
    id: string,
    attrs: WebhookAttributes,
  ) {
    if (!attrs.isActive) return;
    await lockTenantCap(webhooks.db, clientId, 'active webhooks');
    const others = await webhooks.activeCount(clientId, id);
    if (others < this.maxActive) return;
    throw new FieldValidationError([
      {
        field: 'is_active',
        code: 'too_many',
        message: `This client already has ${others} active webhooks, the most allowed (ATRIUM_MAX_ACTIVE_WEBHOOKS=${this.maxActive}): make this one inactive, or deactivate or delete another.`,
      },
    ]);
  }

  private view(webhook: WebhookRecord): WebhookView {
    return { webhook, signatureKey: this.secrets.open(SIGNATURE_KEY_PURPOSE, webhook.sealedKey) };
  }

  /** The webhook's signature key, opened (the deliverer signs with it). */
  signatureKey(webhook: WebhookRecord): string {
    return this.secrets.open(SIGNATURE_KEY_PURPOSE, webhook.sealedKey);
  }

  /** Checks a body's URL and subscriptions: every problem as a field error (422). */
  private attributes(input: WebhookCreate): WebhookAttributes {
    const errors: FieldError[] = [];
    let url: URL | undefined;
    try {
      url = new URL(input.callback_url);
    } catch {
      errors.push({ field: 'callback_url', code: 'invalid', message: 'Not an absolute URL.' });
    }
    if (url && url.protocol !== 'http:' && url.protocol !== 'https:') {
      errors.push({ field: 'callback_url', code: 'invalid', message: 'The URL must use http or https.' });
    } else if (url && (url.username !== '' || url.password !== '')) {
      errors.push({
        field: 'callback_url',
        code: 'invalid',
        message: 'The URL must not hold credentials: verify callbacks with their signature instead.',
      });
    }
    const catalogue = this.catalogue();
    input.events.forEach((pattern, i) => {
      if (!catalogue.knowsPattern(pattern)) {
        errors.push({
          field: `events.${i}`,
          code: 'invalid',
          message: `Unknown event type or pattern "${pattern}": use a type of GET /events/filters/actions, "<resource_type>.*" or "*".`,
        });
      }
    });
    if (errors.length) throw new FieldValidationError(errors);
    return {
      name: input.name,
      callbackUrl: input.callback_url,
      events: [...new Set(input.events)],
      isActive: input.is_active,
    };
  }

  async list(clientId: HrTenantId, request: PageRequest): Promise<Page<WebhookView>> {
    const page = await this.repo.page(clientId, request);
    return { ...page, items: page.items.map((w) => this.view(w)) };
  }

  async get(clientId: HrTenantId, id: string): Promise<WebhookView> {
    const webhook = await this.repo.find(clientId, id);
    if (!webhook) throw new NotFoundError('webhook', id);
    return this.view(webhook);
  }

  async create(clientId: HrTenantId, input: WebhookCreate): Promise<WebhookView> {
    const attrs = this.attributes(input);
    const id = randomUUID();
    const sealed = this.secrets.seal(SIGNATURE_KEY_PURPOSE, newSecret(32));
    const webhook = await this.work.run(async ({ webhooks, audit }) => {
      await this.checkActiveCap(webhooks, clientId, id, attrs);
      await webhooks.insert(clientId, id, attrs, sealed, this.clock.now());
      const created = (await webhooks.find(clientId, id)) as WebhookRecord;
      await audit.record(clientId, webhookEvents, 'created', {
        id,
        name: created.name,
        data: presentWebhookForAudit(created),
      });
      return created;
    });
    return this.view(webhook);
  }

  /** PUT: replaces every attribute of an existing webhook (it never creates one). */
  async update(clientId: HrTenantId, id: string, input: WebhookCreate): Promise<WebhookView> {
    const attrs = this.attributes(input);
    const webhook = await this.work.run(async ({ webhooks, audit }) => {
      const existing = await webhooks.find(clientId, id);
      if (!existing) throw new NotFoundError('webhook', id);
      // Only making an inactive webhook active counts: one active already keeps its place.
      if (!existing.isActive) await this.checkActiveCap(webhooks, clientId, id, attrs);
      if (!(await webhooks.update(clientId, id, attrs, this.clock.now()))) throw new NotFoundError('webhook', id);
      const updated = (await webhooks.find(clientId, id)) as WebhookRecord;
      await audit.record(clientId, webhookEvents, 'updated', {
        id,
        name: updated.name,
        data: presentWebhookForAudit(updated),
      });
      return updated;
    });
    return this.view(webhook);
  }

  async delete(clientId: HrTenantId, id: string): Promise<void> {
    await this.work.run(async ({ webhooks, audit }) => {
      const webhook = await webhooks.find(clientId, id);
      if (!webhook) throw new NotFoundError('webhook', id);
      await webhooks.delete(clientId, id);
      await audit.record(clientId, webhookEvents, 'deleted', {
        id,
        name: webhook.name,
        data: presentWebhookForAudit(webhook),
      });
    });
  }

  async refreshKey(clientId: HrTenantId, id: string): Promise<WebhookView> {
    const sealed = this.secrets.seal(SIGNATURE_KEY_PURPOSE, newSecret(32));
    const webhook = await this.work.run(async ({ webhooks, audit }) => {
      if (!(await webhooks.setKey(clientId, id, sealed, this.clock.now()))) throw new NotFoundError('webhook', id);
      const updated = (await webhooks.find(clientId, id)) as WebhookRecord;
      await audit.record(clientId, webhookEvents, 'signature_key_refreshed', {
        id,
        name: updated.name,
        data: presentWebhookForAudit(updated),
      });
      return updated;
    });
    return this.view(webhook);
  }

  /**
   * Queues a test callback to the webhook, active or not, whatever it subscribes to: an event of type
   * `webhook.test` whose data is the webhook (without its key). It goes out at once, through the same outbox.
   */
  async test(clientId: HrTenantId, id: string): Promise<void> {
    await this.work.run(async ({ webhooks }) => {
      const webhook = await webhooks.find(clientId, id);
      if (!webhook) throw new NotFoundError('webhook', id);
      const at = this.clock.now();
      // Shaped as every event a delivery sends (the body `GET /events/{id}` would give), though not recorded.
      const event = presentRecordedEvent({
        id: randomUUID(),
        type: 'webhook.test',
        resourceType: 'webhook',
        action: 'test',
        resourceId: id,
        name: webhook.name,
        actor: { type: 'system', id: null, name: 'atrium', data: {} },
        data: presentWebhookForAudit(webhook),
        createdAt: at,
      });
      const delivery = {
        id: randomUUID(),
        webhookId: id,
        eventId: event.id,
        eventType: event.type,
        body: JSON.stringify(event),
      };
      const jobId = await this.queue.enqueue(webhooks.db, clientId, { ...delivery, explicit: true });
      await webhooks.insertDelivery(clientId, { ...delivery, jobId }, at);
    });
    this.queue.wake();
  }

  /** Deletes the attempts and succeeded deliveries older than the retention (with the events'). */
  sweep(now: number, retentionDays: number): Promise<void> {
    return this.repo.sweep(now - retentionDays * 86_400_000);
  }

  async attempts(clientId: HrTenantId, id: string, request: PageRequest): Promise<Page<AttemptRecord>> {
    if (!(await this.repo.find(clientId, id))) throw new NotFoundError('webhook', id);
    return this.repo.attempts(clientId, id, request);
  }

  /** Sends a delivery again, as a new delivery of the same event (same body, same `X-Event-Id`). */
  async redeliver(clientId: HrTenantId, id: string, deliveryId: string): Promise<void> {
    await this.work.run(async ({ webhooks }) => {
      const previous = await webhooks.findDelivery(clientId, id, deliveryId);
      if (!previous) throw new NotFoundError('delivery', deliveryId);
      const delivery = {
        id: randomUUID(),
        webhookId: id,
        eventId: previous.eventId,
        eventType: previous.eventType,
        body: previous.body,
      };
      const jobId = await this.queue.enqueue(webhooks.db, clientId, { ...delivery, explicit: true });
      await webhooks.insertDelivery(clientId, { ...delivery, jobId }, this.clock.now());
    });
    this.queue.wake();
  }
}
