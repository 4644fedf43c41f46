import { type Selectable, sql } from 'kysely';
import { AcademyRepository } from '../../platform/db/repository.js';
import { containsText, likePattern } from '../../platform/db/search.js';
import type { AcademyTenantId } from '../../platform/db/tenant.js';
import { chunks, jsonObjects, type Window } from './repository-common.js';
import type { AcademyUsersTable } from './tables.js';

/** A unit of a user (`{id, name}`). */
export interface UserUnit {
  id: number;
  name: string;
}

/** A badge awarded to a user. */
export interface BadgeRecord {
  id: number;
  name: string;
  description: string;
  image: string | null;
  awardedDate: string | null;
}

/** A directory user as the domain sees it: its units and badges decoded, `active` a boolean. */
export interface UserRecord {
  id: number;
  firstname: string;
  middlename: string | null;
  lastname: string;
  preferredName: string | null;
  email: string;
  role: string;
  active: boolean;
  externalId: string | null;
  hiredDate: string | null;
  joinedDate: string | null;
  image: string | null;
  units: UserUnit[];
  badges: BadgeRecord[];
  createdAt: number;
  updatedAt: number;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function toUser(row: Selectable<AcademyUsersTable>): UserRecord {
  return {
    id: row.id,
    firstname: row.firstname,
    middlename: row.middlename,
    lastname: row.lastname,
    preferredName: row.preferred_name,
    email: row.email,
    role: row.role,
    active: row.active === 1,
    externalId: row.external_id,
    hiredDate: row.hired_date,
    joinedDate: row.joined_date,
    image: row.image,
    units: jsonObjects(row.units).map((u) => ({ id: Number(u.id), name: String(u.name) })),
    badges: jsonObjects(row.badges).map((b) => ({
      id: Number(b.id),
      name: String(b.name),
      description: str(b.description) ?? '',
      image: str(b.image),
      awardedDate: str(b.awardedDate),
    })),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type UserValues = Omit<UserRecord, 'createdAt' | 'updatedAt'>;

export interface UserFilter {
  search?: string;
  role?: string;
}

/** The directory's users. Every query takes the academy id first; lists are in id order. */
export class UsersRepository extends AcademyRepository {
  async academyExists(academyId: AcademyTenantId): Promise<boolean> {
    const row = await this.db.selectFrom('academies').select('id').where('id', '=', academyId).executeTakeFirst();
    return row !== undefined;
  }

  async listUsers(academyId: AcademyTenantId, filter: UserFilter, window: Window): Promise<UserRecord[]> {
    let query = this.tenant(academyId).selectFrom('academy_users as u').selectAll('u');
    if (filter.search !== undefined) {
      const search = filter.search;
      query = query.where((eb) =>
        eb.or([
          containsText(['u.firstname', 'u.lastname', 'u.email'], search),
          sql<boolean>`lower(${sql.ref('u.firstname')} || ' ' || ${sql.ref('u.lastname')}) like ${likePattern(search)} escape '\\'`,
        ]),
      );
    }
    if (filter.role !== undefined) {
      query = query.where(sql<string>`lower(${sql.ref('u.role')})`, '=', filter.role.toLowerCase());
    }
    return (await query.orderBy('u.id').limit(window.limit).offset(window.start).execute()).map(toUser);
  }

  async findUser(academyId: AcademyTenantId, id: number): Promise<UserRecord | undefined> {
    const row = await this.tenant(academyId)
      .selectFrom('academy_users')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toUser(row) : undefined;
  }

  /** The user with this external id (the lowest id when several share it). */
  async findUserByExternalId(academyId: AcademyTenantId, externalId: string): Promise<UserRecord | undefined> {
    const row = await this.tenant(academyId)
      .selectFrom('academy_users')
      .selectAll()
      .where('external_id', '=', externalId)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    return row ? toUser(row) : undefined;
  }

  /** Which of these ids are users of the academy. */
  async existingUserIds(academyId: AcademyTenantId, ids: number[]): Promise<Set<number>> {
    const out = new Set<number>();
    for (const part of chunks([...new Set(ids)])) {
      const rows = await this.tenant(academyId)
        .selectFrom('academy_users')
        .select('id')
        .where('id', 'in', part)
        .execute();
      for (const row of rows) out.add(row.id);
    }
    return out;
  }

  /** The ids of the users with these external ids: external id → the lowest user id having it. */
  async idsByExternalIds(academyId: AcademyTenantId, externalIds: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const part of chunks([...new Set(externalIds)])) {
      const rows = await this.tenant(academyId)
        .selectFrom('academy_users')
        .select(['id', 'external_id'])
        .where('external_id', 'in', part)
        .orderBy('id')
        .execute();
      for (const row of rows)
        if (row.external_id !== null && !out.has(row.external_id)) out.set(row.external_id, row.id);
    }
    return out;
  }

  /** Inserts, or replaces every field of the user with that id. */
  async upsertUsers(academyId: AcademyTenantId, users: UserValues[], at: number): Promise<void> {
    for (const part of chunks(users)) {
      await this.db
        .insertInto('academy_users')
        .values(
          part.map((u) => ({
            academy_id: academyId,
            id: u.id,
            firstname: u.firstname,
            middlename: u.middlename,
            lastname: u.lastname,
            preferred_name: u.preferredName,
            email: u.email,
            role: u.role,
            active: u.active ? 1 : 0,
            external_id: u.externalId,
            hired_date: u.hiredDate,
            joined_date: u.joinedDate,
            image: u.image,
            units: JSON.stringify(u.units),
            badges: JSON.stringify(u.badges),
            created_at: at,
            updated_at: at,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['academy_id', 'id']).doUpdateSet((eb) => ({
            firstname: eb.ref('excluded.firstname'),
            middlename: eb.ref('excluded.middlename'),
            lastname: eb.ref('excluded.lastname'),
            preferred_name: eb.ref('excluded.preferred_name'),
            email: eb.ref('excluded.email'),
            role: eb.ref('excluded.role'),
            active: eb.ref('excluded.active'),
            external_id: eb.ref('excluded.external_id'),
            hired_date: eb.ref('excluded.hired_date'),
            joined_date: eb.ref('excluded.joined_date'),
            image: eb.ref('excluded.image'),
            units: eb.ref('excluded.units'),
            badges: eb.ref('excluded.badges'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    }
  }
}
