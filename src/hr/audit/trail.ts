import { randomUUID } from 'node:crypto';
import { type RawBuilder, sql } from 'kysely';
import { type Db, dialectOf } from '../../platform/db/database.js';
import { asJsonText, jsonObject } from '../../platform/db/json-sql.js';
import { sqlBoolean } from '../../platform/db/repository.js';
import type { Tables } from '../../platform/db/schema.js';
import { Tenant } from '../../platform/db/tenant.js';
import type { Clock } from '../../platform/time.js';
import { type Caller, currentCaller } from './actor.js';
import type { EventDeclaration } from './catalogue.js';
import './tables.js';
import type { HrTenantId } from '../../platform/db/tenant.js';

/** The author of an event, as `GET /events` shows it (reference §4.4, `EventActor`). */
export interface EventActor {
  type: 'application' | 'user' | 'employee' | 'system';
  id: string | null;
  name: string | null;
  data: Record<string, unknown>;
}

/** An event as recorded: what the outlets (webhooks) receive, in the transaction of the write. */
export interface RecordedEvent {
  id: string;
  type: string;
  resourceType: string;
  action: string;
  resourceId: string;
  name: string | null;
  actor: EventActor;
  data: unknown;
  createdAt: number;
}

/**
 * What else happens, in the same transaction, when an event is recorded: the webhooks area queues a delivery
 * per matching webhook (its outbox). Outlets are added once, when the API is put together.
 */
export interface EventOutlet {
  /**
   * A condition on the outlet's own rows of this client, evaluated by the event's insert and returned beside it:
   * when it is false, `receive` is not called. So an outlet with nothing to do for a client (no active webhook)
   * costs the write no statement of its own (issue 23: each statement is a round trip on PostgreSQL).
   */
  wanted(clientId: HrTenantId): RawBuilder<unknown>;
  /** Called after the event's insert, in its transaction, when `wanted` held. */
  receive(db: Db, clientId: HrTenantId, event: RecordedEvent): Promise<void>;
}

/** What a write says about itself. */
export interface EventInput {
  /** The resource's id (its code, or its UUID). */
  id: string | number;
  /** Its name as people read it (an employee's full name, a request's title), if it has one. */
  name?: string | null | undefined;
  /** The resource as a GET presents it after the write (as it was, for a deletion). */
  data: unknown;
  /**
   * Fired by an operator rather than recorded by a write (docs/admin.md, "Event triggers"): marked so in the
   * trail; its deliveries are those of any event.
   */
  triggered?: boolean;
}

/**
 * The audit trail, bound to a unit of work's transaction: every write of the HR API records its event here, in
 * the same transaction, so a rolled-back write leaves no event and a committed one always has one. The author is
 * the caller of the request being served (`actor.ts`).
 */
export class AuditTrail {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly outlets: readonly EventOutlet[],
  ) {}

  async record<A extends string>(
    clientId: HrTenantId,
    kind: EventDeclaration<A>,
    action: A,
    input: EventInput,
  ): Promise<RecordedEvent> {
    const id = randomUUID();
    const createdAt = this.clock.now();
    const caller = currentCaller();
    const known = await this.knownActor(clientId, caller);
    const tenant = new Tenant<Tables>(this.db, clientId);
    const columns = {
      id,
      type: kind.type(action),
      resource_type: kind.resource,
      action,
      resource_id: String(input.id),
      name: input.name ?? null,
      data: JSON.stringify(input.data ?? null),
      created_at: createdAt,
      ...(input.triggered ? { triggered: 1 } : {}),
    };
    const wanted = this.outlets.map((outlet, i) => sql<unknown>`${outlet.wanted(clientId)}`.as(`outlet_${i}`));
    let actor: EventActor;
    let inserted: Record<string, unknown>;
    if (typeof known !== 'string') {
      actor = known;
      inserted = await tenant
        .insertInto('hr_events', {
          ...columns,
          actor_type: actor.type,
          actor_id: actor.id,
          actor_name: actor.name,
          actor_data: JSON.stringify(actor.data),
        })
        .returning(['id', ...wanted])
        .executeTakeFirstOrThrow();
    } else {
      // The application's name is read by the insert itself: one statement, not two (issue 23's writes).
      const applicationId = known;
      const dialect = dialectOf(this.db);
      // tenant-by-hand: a raw subquery of the insert, bound to the event's own client.
      const name = sql<
        string | null
      >`(select a.name from hr_applications a where a.client_id = ${clientId} and a.id = ${applicationId})`;
      const row = await tenant
        .insertInto('hr_events', {
          ...columns,
          actor_type: 'application',
          actor_id: applicationId,
          actor_name: name as never,
          actor_data: asJsonText(
            dialect,
            jsonObject(dialect, [
              ['id', sql`cast(${applicationId} as text)`],
              ['name', name],
            ]),
          ) as never,
        })
        .returning(['actor_name', ...wanted])
        .executeTakeFirstOrThrow();
      inserted = row;
      const actorName = row.actor_name ?? null;
      actor = { type: 'application', id: applicationId, name: actorName, data: { id: applicationId, name: actorName } };
    }
    const event: RecordedEvent = {
      id,
      type: columns.type,
      resourceType: kind.resource,
      action,
      resourceId: columns.resource_id,
      name: columns.name,
      actor,
      data: input.data,
      createdAt,
    };
    // Decoded once, as read: which outlets the insert found wanted.
    const held = this.outlets.map((_, i) => sqlBoolean(inserted[`outlet_${i}`]));
    for (const [i, outlet] of this.outlets.entries()) {
      if (held[i]) await outlet.receive(this.db, clientId, event);
    }
    return event;
  }

  /**
   * The author when it is the system or a known user; else the calling application's id (its name is read by the
   * event's insert).
   */
  private async knownActor(clientId: HrTenantId, caller: Caller): Promise<EventActor | string> {
    if (caller.type === 'system') return { type: 'system', id: null, name: caller.name, data: {} };
    const tenant = new Tenant<Tables>(this.db, clientId);
    if (caller.userId !== undefined) {
      const user = await tenant
        .selectFrom('hr_users')
        .select(['id', 'firstname', 'middlename', 'lastname'])
        .where('id', '=', caller.userId)
        .executeTakeFirst();
      if (user) {
        const name = [user.firstname, user.middlename, user.lastname].filter((p) => p).join(' ');
        return { type: 'user', id: user.id, name, data: { ...user } };
      }
    }
    return caller.applicationId;
  }
}
