import type { Selectable, SelectQueryBuilder } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import { Tenant } from '../../../platform/db/tenant.js';
import type { HrEventsTable } from '../../audit/tables.js';
import '../../audit/tables.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';

type EventRow = Selectable<HrEventsTable>;

/** An audit event as the domain sees it: its columns, with the actor's and the resource's JSON decoded. */
export interface EventRecord {
  pk: number;
  id: string;
  type: string;
  resourceType: string;
  action: string;
  resourceId: string;
  name: string | null;
  actor: { type: string; id: string | null; name: string | null; data: Record<string, unknown> };
  data: unknown;
  createdAt: number;
  /** Fired by an operator (docs/admin.md, "Event triggers"), not recorded by a write. */
  triggered: boolean;
}

export interface EventFilter {
  resourceType?: string;
  action?: string;
  resourceId?: string;
  actorType?: string;
  actorId?: string;
  since?: number;
  until?: number;
}

/** Newest first: by the instant recorded, then by insertion. */
const ORDER: ListOrder = { fixed: [{ term: 'e.created_at', direction: 'desc' }], tiebreak: 'e.pk' };

type EventQuery = SelectQueryBuilder<Tables & { e: HrEventsTable }, 'e', EventRow>;

function toRecord(row: EventRow): EventRecord {
  return {
    pk: Number(row.pk),
    id: row.id,
    type: row.type,
    resourceType: row.resource_type,
    action: row.action,
    resourceId: row.resource_id,
    name: row.name,
    actor: {
      type: row.actor_type,
      id: row.actor_id,
      name: row.actor_name,
      data: JSON.parse(row.actor_data) as Record<string, unknown>,
    },
    data: JSON.parse(row.data) as unknown,
    createdAt: Number(row.created_at),
    triggered: Number(row.triggered) === 1,
  };
}

export class EventsRepository {
  constructor(private readonly db: Db) {}

  private filtered(clientId: HrTenantId, filter: EventFilter): EventQuery {
    let query = new Tenant<Tables>(this.db, clientId).selectFrom('hr_events as e').selectAll('e') as EventQuery;
    if (filter.resourceType !== undefined) query = query.where('e.resource_type', '=', filter.resourceType);
    if (filter.action !== undefined) query = query.where('e.action', '=', filter.action);
    if (filter.resourceId !== undefined) query = query.where('e.resource_id', '=', filter.resourceId);
    if (filter.actorType !== undefined) query = query.where('e.actor_type', '=', filter.actorType);
    if (filter.actorId !== undefined) query = query.where('e.actor_id', '=', filter.actorId);
    if (filter.since !== undefined) query = query.where('e.created_at', '>=', filter.since);
    if (filter.until !== undefined) query = query.where('e.created_at', '<=', filter.until);
    return query;
  }

  async page(clientId: HrTenantId, filter: EventFilter, request: PageRequest): Promise<Page<EventRecord>> {
    const page = await listPage(this.filtered(clientId, filter), ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  async find(clientId: HrTenantId, id: string): Promise<EventRecord | undefined> {
    const row = await this.filtered(clientId, {}).where('e.id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /**
   * A resource's present state as the trail holds it: its newest event recorded by a write (never a triggered
   * one), unless that event is its deletion. Every write records the resource as a GET presents it, in its own
   * transaction, so that event's `data` and `name` are the resource now. Without `resourceId`, the same for the
   * resource of that type written last.
   */
  async stateOf(clientId: HrTenantId, resourceType: string, resourceId?: string): Promise<EventRecord | undefined> {
    let query = this.filtered(clientId, { resourceType })
      .where('e.triggered', '=', 0)
      .where('e.action', '<>', 'deleted')
      .where(({ eb, selectFrom }) =>
        eb(
          'e.pk',
          '=',
          selectFrom('hr_events as l')
            .select(({ fn }) => fn.max('l.pk').as('pk'))
            // tenant-by-hand: correlated with the outer query, which Tenant binds to the client.
            .whereRef('l.client_id', '=', 'e.client_id')
            .whereRef('l.resource_type', '=', 'e.resource_type')
            .whereRef('l.resource_id', '=', 'e.resource_id')
            .where('l.triggered', '=', 0),
        ),
      );
    if (resourceId !== undefined) query = query.where('e.resource_id', '=', resourceId);
    const row = await query.orderBy('e.pk', 'desc').limit(1).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Every matching event, newest first, read a batch at a time (an export holds one batch in memory). */
  async *all(clientId: HrTenantId, filter: EventFilter, batch = 500): AsyncGenerator<EventRecord[]> {
    let at: PageRequest['at'] = {};
    for (;;) {
      const page = await this.page(clientId, filter, { limit: batch, sort: [], at });
      if (page.items.length > 0) yield page.items;
      if (!page.next) return;
      at = { position: page.next };
    }
  }

  /** Deletes every client's events recorded before `cutoff`, a batch at a time (not one tenant's work). */
  async sweep(cutoff: number, batch = 1000): Promise<number> {
    let total = 0;
    for (;;) {
      const result = await this.db
        .deleteFrom('hr_events')
        .where('pk', 'in', (eb) =>
          eb.selectFrom('hr_events').select('pk').where('created_at', '<', cutoff).limit(batch),
        )
        .executeTakeFirst();
      const deleted = Number(result.numDeletedRows);
      total += deleted;
      if (deleted < batch) return total;
    }
  }
}
