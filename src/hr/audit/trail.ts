import { randomUUID } from 'node:crypto';
import type { Db } from '../../platform/db/database.js';
import type { Tables } from '../../platform/db/schema.js';
import { Tenant } from '../../platform/db/tenant.js';
import type { Clock } from '../../platform/time.js';
import { currentCaller } from './actor.js';
import type { EventDeclaration } from './catalogue.js';
import './tables.js';

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
export type EventOutlet = (db: Db, clientId: string, event: RecordedEvent) => Promise<void>;

/** What a write says about itself. */
export interface EventInput {
  /** The resource's id (its code, or its UUID). */
  id: string | number;
  /** Its name as people read it (an employee's full name, a request's title), if it has one. */
  name?: string | null | undefined;
  /** The resource as a GET presents it after the write (as it was, for a deletion). */
  data: unknown;
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
    clientId: string,
    kind: EventDeclaration<A>,
    action: A,
    input: EventInput,
  ): Promise<RecordedEvent> {
    const event: RecordedEvent = {
      id: randomUUID(),
      type: kind.type(action),
      resourceType: kind.resource,
      action,
      resourceId: String(input.id),
      name: input.name ?? null,
      actor: await this.actor(clientId),
      data: input.data,
      createdAt: this.clock.now(),
    };
    await new Tenant<Tables>(this.db, clientId)
      .insertInto('hr_events', {
        id: event.id,
        type: event.type,
        resource_type: event.resourceType,
        action: event.action,
        resource_id: event.resourceId,
        name: event.name,
        actor_type: event.actor.type,
        actor_id: event.actor.id,
        actor_name: event.actor.name,
        actor_data: JSON.stringify(event.actor.data),
        data: JSON.stringify(event.data ?? null),
        created_at: event.createdAt,
      })
      .execute();
    for (const outlet of this.outlets) await outlet(this.db, clientId, event);
    return event;
  }

  private async actor(clientId: string): Promise<EventActor> {
    const caller = currentCaller();
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
    const app = await tenant
      .selectFrom('hr_applications')
      .select(['id', 'name'])
      .where('id', '=', caller.applicationId)
      .executeTakeFirst();
    return {
      type: 'application',
      id: caller.applicationId,
      name: app?.name ?? null,
      data: { id: caller.applicationId, name: app?.name ?? null },
    };
  }
}
