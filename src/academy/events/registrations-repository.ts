/**
 * Queries of an event's registrations: one user's, the active ones of some users, writes, the waiting list, and the
 * participants and attendance lists (joined with their users).
 */
import type { Db } from '../../platform/db/database.js';
import { containsText } from '../../platform/db/search.js';
import type { PersonRow, RegistrationRow } from './repository.js';

/** Queries of the registrations of events already read through their academy. */
export class RegistrationsRepository {
  constructor(private readonly db: Db) {}

  registration(eventId: number, userId: number): Promise<RegistrationRow | undefined> {
    return this.db
      .selectFrom('academy_registrations')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** The registrations of these users on one event that are not cancelled, by user id. */
  async activeRegistrationsOf(eventId: number, userIds: number[]): Promise<RegistrationRow[]> {
    if (!userIds.length) return [];
    return this.db
      .selectFrom('academy_registrations')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('user_id', 'in', userIds)
      .where('state', '!=', 'cancelled')
      .orderBy('user_id')
      .execute();
  }

  /** Active registrations of a user on any of these events (canMulti checks). */
  async activeRegistrationsOn(eventIds: number[], userId: number): Promise<RegistrationRow[]> {
    if (!eventIds.length) return [];
    return this.db
      .selectFrom('academy_registrations')
      .selectAll()
      .where('event_id', 'in', eventIds)
      .where('user_id', '=', userId)
      .where('state', '!=', 'cancelled')
      .execute();
  }

  async upsertRegistration(row: RegistrationRow): Promise<void> {
    await this.db
      .insertInto('academy_registrations')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['event_id', 'user_id']).doUpdateSet({
          approval: row.approval,
          state: row.state,
          registered_at: row.registered_at,
          completed_at: row.completed_at,
          updated_at: row.updated_at,
        }),
      )
      .execute();
  }

  async updateRegistration(eventId: number, userId: number, changes: Partial<RegistrationRow>): Promise<void> {
    await this.db
      .updateTable('academy_registrations')
      .set(changes)
      .where('event_id', '=', eventId)
      .where('user_id', '=', userId)
      .execute();
  }

  firstWaitlisted(eventId: number): Promise<RegistrationRow | undefined> {
    return this.db
      .selectFrom('academy_registrations')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('state', '=', 'waitlisted')
      .orderBy('registered_at')
      .orderBy('user_id')
      .limit(1)
      .executeTakeFirst();
  }

  /** Registrations joined with their users, for the participants and attendance lists. */
  async participants(
    academyId: number,
    eventId: number,
    filter: { states: RegistrationRow['state'][]; search?: string },
    start: number,
    limit: number,
  ): Promise<{ total: number; rows: (RegistrationRow & PersonRow)[] }> {
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
    return { total: Number(count?.n ?? 0), rows: rows as (RegistrationRow & PersonRow)[] };
  }
}
