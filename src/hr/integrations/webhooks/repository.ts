import { type RawBuilder, type Selectable, sql } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { prepared } from '../../../platform/db/prepared.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { Tenant } from '../../../platform/db/tenant.js';
import type { HrWebhookDeliveriesTable, HrWebhooksTable } from './tables.js';

type WebhookRow = Selectable<HrWebhooksTable>;

/** A webhook as the domain sees it: its subscriptions decoded, its key still sealed. */
export interface WebhookRecord {
  pk: number;
  id: string;
  name: string;
  callbackUrl: string;
  events: string[];
  isActive: boolean;
  /** Its deliveries refused in a row (a private address). */
  refusedInRow: number;
  /** Sealed with the master key; the service opens it. */
  sealedKey: string;
  createdAt: number;
  updatedAt: number;
}

export interface WebhookAttributes {
  name: string;
  callbackUrl: string;
  events: string[];
  isActive: boolean;
}

/** A delivery of an event to a webhook: the body it sends, its status and the number of its attempts. */
export interface DeliveryRecord {
  pk: number;
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  body: string;
  status: string;
  attempts: number;
  jobId: number | null;
  createdAt: number;
  updatedAt: number;
}

/** One attempt to send a delivery, as the deliverer records it. */
export type AttemptFields = {
  status: string;
  responseCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
  createdAt: number;
};

/** An attempt, with its delivery's event and status. */
export interface AttemptRecord {
  deliveryId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  status: string;
  responseCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
  deliveryStatus: string;
  createdAt: number;
}

// The outbox (every write with an active webhook) and the deliverer (every delivery) run these: built once.
const webhooksOf = (db: Db, clientId: HrTenantId) =>
  new Tenant<Tables>(db, clientId).selectFrom('hr_webhooks as w').selectAll('w');
/**
 * Whether the client has an active webhook, as an expression: the audit trail's insert of an event returns it, so a
 * write of a client without one reads no webhooks (`webhookOutlet`).
 */
// tenant-by-hand: the subquery is tied to the client by `client_id`.
export function anyActiveWebhook(clientId: HrTenantId): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from hr_webhooks w where w.client_id = ${clientId} and w.is_active = 1)`;
}

const activeOf = prepared((db: Db, p: { clientId: HrTenantId }) =>
  webhooksOf(db, p.clientId).where('w.is_active', '=', 1).orderBy('w.pk'),
);
const webhookById = prepared((db: Db, p: { clientId: HrTenantId; id: string }) =>
  webhooksOf(db, p.clientId).where('w.id', '=', p.id),
);
const deliveryById = prepared((db: Db, p: { clientId: HrTenantId; webhookId: string; id: string }) =>
  new Tenant<Tables>(db, p.clientId)
    .selectFrom('hr_webhook_deliveries as d')
    .selectAll('d')
    .where('d.webhook_id', '=', p.webhookId)
    .where('d.id', '=', p.id),
);
const insertDeliveryRow = prepared(
  (
    db: Db,
    p: {
      clientId: HrTenantId;
      id: string;
      webhookId: string;
      eventId: string;
      eventType: string;
      body: string;
      jobId: number;
      at: number;
    },
  ) =>
    new Tenant<Tables>(db, p.clientId).insertInto('hr_webhook_deliveries', {
      id: p.id,
      webhook_id: p.webhookId,
      event_id: p.eventId,
      event_type: p.eventType,
      body: p.body,
      status: 'pending',
      attempts: 0,
      job_id: p.jobId,
      created_at: p.at,
      updated_at: p.at,
    }),
);
const insertAttemptRow = prepared(
  (db: Db, p: AttemptFields & { clientId: HrTenantId; deliveryId: string; webhookId: string; attempt: number }) =>
    new Tenant<Tables>(db, p.clientId).insertInto('hr_webhook_attempts', {
      status: p.status,
      response_code: p.responseCode,
      duration_ms: p.durationMs,
      error: p.error,
      response_excerpt: p.responseExcerpt,
      created_at: p.createdAt,
      delivery_id: p.deliveryId,
      webhook_id: p.webhookId,
      attempt: p.attempt,
    }),
);
/** Counts an attempt on its delivery, and gives the count: the attempt's number. */
const countAttempt = prepared((db: Db, p: { clientId: HrTenantId; deliveryId: string; status: string; at: number }) =>
  new Tenant<Tables>(db, p.clientId)
    .updateTable('hr_webhook_deliveries')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), status: p.status, updated_at: p.at }))
    .where('id', '=', p.deliveryId)
    .returning('attempts'),
);

const ORDER: ListOrder = { tiebreak: 'w.pk' };
const ATTEMPT_ORDER: ListOrder = { fixed: [{ term: 'a.created_at', direction: 'desc' }], tiebreak: 'a.pk' };

function toRecord(row: WebhookRow): WebhookRecord {
  return {
    pk: Number(row.pk),
    id: row.id,
    name: row.name,
    callbackUrl: row.callback_url,
    events: JSON.parse(row.events) as string[],
    isActive: Boolean(row.is_active),
    refusedInRow: Number(row.refused_in_row),
    sealedKey: row.signature_key,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toDelivery(row: Selectable<HrWebhookDeliveriesTable>): DeliveryRecord {
  return {
    pk: Number(row.pk),
    id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    eventType: row.event_type,
    body: row.body,
    status: row.status,
    attempts: Number(row.attempts),
    jobId: row.job_id === null ? null : Number(row.job_id),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export class WebhooksRepository extends HrRepository {
  private all(clientId: HrTenantId) {
    return this.tenant(clientId).selectFrom('hr_webhooks as w').selectAll('w');
  }

  async page(clientId: HrTenantId, request: PageRequest): Promise<Page<WebhookRecord>> {
    const page = await listPage(this.all(clientId), ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  async find(clientId: HrTenantId, id: string): Promise<WebhookRecord | undefined> {
    const row = await webhookById.first(this.db, { clientId, id });
    return row ? toRecord(row) : undefined;
  }

  /** The client's active webhooks, for the outbox. */
  async active(clientId: HrTenantId): Promise<WebhookRecord[]> {
    return (await activeOf.all(this.db, { clientId })).map(toRecord);
  }

  /** How many deliveries an event was queued for (an operator's event trigger's answer). */
  async deliveriesOf(clientId: HrTenantId, eventId: string): Promise<number> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_webhook_deliveries as d')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('d.event_id', '=', eventId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** How many of the client's webhooks are active, but for `except` (the one being activated): the cap's count. */
  async activeCount(clientId: HrTenantId, except: string): Promise<number> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_webhooks as w')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('w.is_active', '=', 1)
      .where('w.id', '<>', except)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async insert(
    clientId: HrTenantId,
    id: string,
    attrs: WebhookAttributes,
    sealedKey: string,
    at: number,
  ): Promise<void> {
    await this.tenant(clientId)
      .insertInto('hr_webhooks', {
        id,
        name: attrs.name,
        callback_url: attrs.callbackUrl,
        events: JSON.stringify(attrs.events),
        is_active: attrs.isActive ? 1 : 0,
        signature_key: sealedKey,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }

  async update(clientId: HrTenantId, id: string, attrs: WebhookAttributes, at: number): Promise<boolean> {
    const result = await this.tenant(clientId)
      .updateTable('hr_webhooks')
      .set({
        name: attrs.name,
        callback_url: attrs.callbackUrl,
        events: JSON.stringify(attrs.events),
        is_active: attrs.isActive ? 1 : 0,
        // A webhook replaced (its URL fixed, or made active again) counts its refusals afresh.
        refused_in_row: 0,
        updated_at: at,
      })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Counts one more delivery refused in a row; gives the count (0 when the webhook is gone). */
  async countRefusal(clientId: HrTenantId, id: string): Promise<number> {
    const row = await this.tenant(clientId)
      .updateTable('hr_webhooks')
      .set((eb) => ({ refused_in_row: eb('refused_in_row', '+', 1) }))
      .where('id', '=', id)
      .returning('refused_in_row')
      .executeTakeFirst();
    return Number(row?.refused_in_row ?? 0);
  }

  /** A delivery went through: the refusals in a row start again from 0. */
  async clearRefusals(clientId: HrTenantId, id: string): Promise<void> {
    await this.tenant(clientId).updateTable('hr_webhooks').set({ refused_in_row: 0 }).where('id', '=', id).execute();
  }

  /** Makes an active webhook inactive; false when it was not active (nothing changed). */
  async deactivate(clientId: HrTenantId, id: string, at: number): Promise<boolean> {
    const result = await this.tenant(clientId)
      .updateTable('hr_webhooks')
      .set({ is_active: 0, updated_at: at })
      .where('id', '=', id)
      .where('is_active', '=', 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setKey(clientId: HrTenantId, id: string, sealedKey: string, at: number): Promise<boolean> {
    const result = await this.tenant(clientId)
      .updateTable('hr_webhooks')
      .set({ signature_key: sealedKey, updated_at: at })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes the webhook; its pending deliveries are dropped with it (their jobs find nothing and end). */
  async delete(clientId: HrTenantId, id: string): Promise<boolean> {
    const t = this.tenant(clientId);
    await t.deleteFrom('hr_webhook_attempts').where('webhook_id', '=', id).execute();
    await t.deleteFrom('hr_webhook_deliveries').where('webhook_id', '=', id).execute();
    const result = await t.deleteFrom('hr_webhooks').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async insertDelivery(
    clientId: HrTenantId,
    delivery: { id: string; webhookId: string; eventId: string; eventType: string; body: string; jobId: number },
    at: number,
  ): Promise<void> {
    await insertDeliveryRow.execute(this.db, { clientId, ...delivery, at });
  }

  /**
   * Marks these waiting deliveries of the webhook `dropped` (their jobs were cancelled by the cap on waiting
   * deliveries), each with one entry among its attempts saying why: `GET /webhooks/{id}/deliveries` shows it.
   */
  async dropDeliveries(clientId: HrTenantId, webhookId: string, ids: string[], reason: string, at: number) {
    const t = this.tenant(clientId);
    const dropped = await t
      .updateTable('hr_webhook_deliveries')
      .set({ status: 'dropped', updated_at: at })
      .where('webhook_id', '=', webhookId)
      .where('id', 'in', ids)
      .returning(['id', 'attempts'])
      .execute();
    if (dropped.length === 0) return;
    await t
      .insertInto(
        'hr_webhook_attempts',
        dropped.map((d) => ({
          delivery_id: d.id,
          webhook_id: webhookId,
          // The attempts it had made (0: never tried); the entry is not one more.
          attempt: Number(d.attempts),
          status: 'dropped',
          response_code: null,
          duration_ms: 0,
          error: reason,
          response_excerpt: null,
          created_at: at,
        })),
      )
      .execute();
  }

  async findDelivery(clientId: HrTenantId, webhookId: string, id: string): Promise<DeliveryRecord | undefined> {
    const row = await deliveryById.first(this.db, { clientId, webhookId, id });
    return row ? toDelivery(row) : undefined;
  }

  async setDeliveryStatus(clientId: HrTenantId, id: string, status: string, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_webhook_deliveries')
      .set({ status, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  /** Counts one attempt on its delivery and records it; returns its number. */
  async recordAttempt(
    clientId: HrTenantId,
    delivery: DeliveryRecord,
    attempt: AttemptFields,
    deliveryStatus: string,
  ): Promise<number> {
    const ids = { clientId, deliveryId: delivery.id };
    const row = await countAttempt.first(this.db, { ...ids, status: deliveryStatus, at: attempt.createdAt });
    const number = Number(row?.attempts ?? 0);
    await insertAttemptRow.execute(this.db, { ...ids, ...attempt, webhookId: delivery.webhookId, attempt: number });
    return number;
  }

  async attempts(clientId: HrTenantId, webhookId: string, request: PageRequest): Promise<Page<AttemptRecord>> {
    const query = this.tenant(clientId)
      .selectFrom('hr_webhook_attempts as a')
      .innerJoin('hr_webhook_deliveries as d', (j) =>
        // tenant-by-hand: the delivery is joined to the attempt, read through `Tenant`, by the row's own client.
        j.onRef('d.id', '=', 'a.delivery_id').onRef('d.client_id', '=', 'a.client_id'),
      )
      .leftJoin('jobs as j', 'j.id', 'd.job_id')
      .select([
        'a.pk',
        'a.created_at',
        'a.delivery_id',
        'a.attempt',
        'a.status',
        'a.response_code',
        'a.duration_ms',
        'a.error',
        'a.response_excerpt',
        'd.event_id',
        'd.event_type',
        'd.status as delivery_status',
        'j.status as job_status',
      ])
      .where('a.webhook_id', '=', webhookId);
    const page = await listPage(query, ATTEMPT_ORDER, request);
    return {
      ...page,
      items: page.items.map((r) => ({
        deliveryId: r.delivery_id,
        eventId: r.event_id,
        eventType: r.event_type,
        attempt: Number(r.attempt),
        status: r.status,
        responseCode: r.response_code === null ? null : Number(r.response_code),
        durationMs: Number(r.duration_ms),
        error: r.error,
        responseExcerpt: r.response_excerpt,
        // A delivery's job is pruned a day after it finished (app.ts): a delivery not succeeded without its job
        // has failed.
        deliveryStatus:
          r.delivery_status === 'succeeded' || r.delivery_status === 'skipped' || r.delivery_status === 'dropped'
            ? r.delivery_status
            : r.job_status === null || r.job_status === 'failed' || r.job_status === 'cancelled'
              ? 'failed'
              : 'pending',
        createdAt: Number(r.created_at),
      })),
    };
  }

  /** Deletes every client's attempts and ended deliveries made before `cutoff` (the retention sweep). */
  async sweep(cutoff: number, batch = 1000): Promise<void> {
    for (;;) {
      const result = await this.db
        .deleteFrom('hr_webhook_attempts')
        .where('pk', 'in', (eb) =>
          eb.selectFrom('hr_webhook_attempts').select('pk').where('created_at', '<', cutoff).limit(batch),
        )
        .executeTakeFirst();
      if (Number(result.numDeletedRows) < batch) break;
    }
    for (;;) {
      const result = await this.db
        .deleteFrom('hr_webhook_deliveries')
        .where('pk', 'in', (eb) =>
          eb
            .selectFrom('hr_webhook_deliveries')
            .select('pk')
            .where('created_at', '<', cutoff)
            .where('status', 'in', ['succeeded', 'skipped', 'dropped'])
            .limit(batch),
        )
        .executeTakeFirst();
      if (Number(result.numDeletedRows) < batch) break;
    }
  }
}
