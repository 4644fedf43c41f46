/**
 * Queries of an event's registrations: one user's, the active ones of some users, writes, the waiting list, and the
 * participants and attendance lists (joined with their users).
 */
import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { containsText } from '../../platform/db/search.js';
import type { AcademyTenantId } from '../../platform/db/tenant.js';
import { type PersonRecord, toPerson } from './repository.js';
import type { AcademyRegistrationsTable } from './tables.js';

/** A user's registration to an event. */
export interface RegistrationRecord {
  eventId: number;
  userId: number;
  approval: 'Yes' | 'Pending';
  state: 'registered' | 'waitlisted' | 'cancelled' | 'absent' | 'completed';
  attendanceMinutes: number;
  registeredAt: number;
  completedAt: number | null;
  updatedAt: number;
}

/** A registration with its user, as the participants and attendance lists show them. */
export type ParticipantRecord = RegistrationRecord & PersonRecord;

function toRecord(row: Selectable<AcademyRegistrationsTable>): RegistrationRecord {
  return {
    eventId: row.event_id,
    userId: row.user_id,
    approval: row.approval,
    state: row.state,
    attendanceMinutes: row.attendance_minutes,
    registeredAt: row.registered_at,
    completedAt: row.completed_at,
    updatedAt: row.updated_at,
  };
}

/** The columns a change sets (Kysely skips the undefined ones). */
function toColumns(changes: Partial<RegistrationRecord>): Updateable<AcademyRegistrationsTable> {
  return {
    event_id: changes.eventId,
    user_id: changes.userId,
    approval: changes.approval,
    state: changes.state,
    attendance_minutes: changes.attendanceMinutes,
    registered_at: changes.registeredAt,
    completed_at: changes.completedAt,
    updated_at: changes.updatedAt,
  };
}

/** Queries of the registrations of events already read through their academy. */
export class RegistrationsRepository {
  constructor(private readonly db: Db) {}

  async registration(eventId: number, userId: number): Promise<RegistrationRecord | undefined> {
    const row = await this.db
      .selectFrom('academy_registrations')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** The registrations of these users on one event that are not cancelled, by user id. */
  async activeRegistrationsOf(eventId: number, userIds: number[]): Promise<RegistrationRecord[]> {
    if (!userIds.length) return [];
    const rows = await this.db
      .selectFrom('academy_registrations')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('user_id', 'in', userIds)
      .where('state', '!=', 'cancelled')
      .orderBy('user_id')
      .execute();
    return rows.map(toRecord);
  }

  /** Active registrations of a user on any of these events (canMulti checks). */
  async activeRegistrationsOn(eventIds: number[], userId: number): Promise<RegistrationRecord[]> {
    if (!eventIds.length) return [];
    const rows = await this.db
      .selectFrom('academy_registrations')
      .selectAll()
      .where('event_id', 'in', eventIds)
      .where('user_id', '=', userId)
      .where('state', '!=', 'cancelled')
      .execute();
    return rows.map(toRecord);
  }

  async upsertRegistration(registration: RegistrationRecord): Promise<void> {
    await this.db
      .insertInto('academy_registrations')
      .values({
        event_id: registration.eventId,
        user_id: registration.userId,
        approval: registration.approval,
        state: registration.state,
        attendance_minutes: registration.attendanceMinutes,
        registered_at: registration.registeredAt,
        completed_at: registration.completedAt,
        updated_at: registration.updatedAt,
      })
      .onConflict((oc) =>
        oc.columns(['event_id', 'user_id']).doUpdateSet({
          approval: registration.approval,
          state: registration.state,
          registered_at: registration.registeredAt,
          completed_at: registration.completedAt,
          updated_at: registration.updatedAt,
        }),
      )
      .execute();
  }

  async updateRegistration(eventId: number, userId: number, changes: Partial<RegistrationRecord>): Promise<void> {
    await this.db
      .updateTable('academy_registrations')
      .set(toColumns(changes))
      .where('event_id', '=', eventId)
      .where('user_id', '=', userId)
      .execute();
  }

  async firstWaitlisted(eventId: number): Promise<RegistrationRecord | undefined> {
    const row = await this.db
      .selectFrom('academy_registrations')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('state', '=', 'waitlisted')
      .orderBy('registered_at')
      .orderBy('user_id')
      .limit(1)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Registrations joined with their users, for the participants and attendance lists. */
  async participants(
    academyId: AcademyTenantId,
    eventId: number,
    filter: { states: RegistrationRecord['state'][]; search?: string },
    start: number,
    limit: number,
  ): Promise<{ total: number; rows: ParticipantRecord[] }> {
    // tenant-by-hand: registrations have no academy column; the event's, checked by the caller, scopes them, and
    // the join keeps only this academy's users.
    let base = this.db
      .selectFrom('academy_registrations as r')
      .innerJoin('academy_users as u', (j) => j.onRef('u.id', '=', 'r.user_id').on('u.academy_id', '=', academyId))
      .where('r.event_id', '=', eventId)
      .where('r.state', 'in', filter.states);
    if (filter.search)
      base = base.where(containsText(['u.firstname', 'u.lastname', 'u.preferred_name'], filter.search));
    const [count, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
      limit === 0
        ? Promise.resolve([])
        : base
            .selectAll('r')
            .select(['u.id', 'u.firstname', 'u.preferred_name', 'u.lastname', 'u.email'])
            .orderBy('u.id')
            .offset(start)
            .limit(limit)
            .execute(),
    ]);
    return { total: Number(count?.n ?? 0), rows: rows.map((r) => ({ ...toRecord(r), ...toPerson(r) })) };
  }
}
