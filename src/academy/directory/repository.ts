import { type Insertable, type Selectable, sql } from 'kysely';
import { AcademyRepository } from '../../platform/db/repository.js';
import { containsText, likePattern } from '../../platform/db/search.js';
import type {
  AcademyCategoriesTable,
  AcademyCoursesTable,
  AcademyCurriculumsTable,
  AcademyUsersTable,
  AcademyVenuesTable,
} from './tables.js';

/** A unit of a user (`{id, name}`). */
export interface UserUnit {
  id: number;
  name: string;
}

/** A directory user as the domain sees it: its units decoded. */
export type UserRow = Omit<Selectable<AcademyUsersTable>, 'units'> & { units: UserUnit[] };

function toUser(row: Selectable<AcademyUsersTable>): UserRow {
  const value: unknown = JSON.parse(row.units);
  const units = Array.isArray(value)
    ? value
        .filter((u): u is { id: unknown; name: unknown } => typeof u === 'object' && u !== null)
        .map((u) => ({ id: Number(u.id), name: String(u.name) }))
    : [];
  return { ...row, units };
}
export type CategoryRow = Selectable<AcademyCategoriesTable>;
/** A course as the domain sees it: its category ids decoded. */
export type CourseRow = Omit<Selectable<AcademyCoursesTable>, 'category_ids'> & { category_ids: number[] };

function toCourse(row: Selectable<AcademyCoursesTable>): CourseRow {
  const value: unknown = JSON.parse(row.category_ids);
  const ids = Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : [];
  return { ...row, category_ids: ids };
}
export type VenueRow = Selectable<AcademyVenuesTable>;
export type CurriculumRow = Selectable<AcademyCurriculumsTable> & { category_name: string | null };

export type UserValues = Omit<Insertable<AcademyUsersTable>, 'academy_id' | 'created_at' | 'updated_at' | 'units'> & {
  units: UserUnit[];
};
export type CategoryValues = Omit<Insertable<AcademyCategoriesTable>, 'academy_id'>;
export type CourseValues = Omit<Insertable<AcademyCoursesTable>, 'academy_id' | 'category_ids'> & {
  category_ids: number[];
};
export type CurriculumValues = Omit<Insertable<AcademyCurriculumsTable>, 'academy_id'>;
export type VenueValues = Omit<Insertable<AcademyVenuesTable>, 'academy_id'>;

/** One window of a list: `start` rows skipped, at most `limit` returned. */
export interface Window {
  start: number;
  limit: number;
}

export interface UserFilter {
  search?: string;
  role?: string;
}

/** Rows per insert statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 200;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/**
 * The academy directory tables (users, categories, courses, curriculums,
 * venues). Every query takes the academy id first; lists are in id order.
 */
export class DirectoryRepository extends AcademyRepository {
  async academyExists(academyId: number): Promise<boolean> {
    const row = await this.db.selectFrom('academies').select('id').where('id', '=', academyId).executeTakeFirst();
    return row !== undefined;
  }

  // ------------------------------------------------------------ reads

  async listUsers(academyId: number, filter: UserFilter, window: Window): Promise<UserRow[]> {
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

  async findUser(academyId: number, id: number): Promise<UserRow | undefined> {
    const row = await this.tenant(academyId)
      .selectFrom('academy_users')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toUser(row) : undefined;
  }

  listCategories(academyId: number, search: string | undefined, window: Window): Promise<CategoryRow[]> {
    let query = this.tenant(academyId).selectFrom('academy_categories as c').selectAll('c');
    if (search !== undefined) query = query.where(containsText(['c.name'], search));
    return query.orderBy('c.id').limit(window.limit).offset(window.start).execute();
  }

  /** The categories of these ids that exist in the academy. */
  async categoriesByIds(academyId: number, ids: number[]): Promise<CategoryRow[]> {
    const out: CategoryRow[] = [];
    for (const part of chunks([...new Set(ids)])) {
      out.push(
        ...(await this.tenant(academyId)
          .selectFrom('academy_categories')
          .selectAll()
          .where('id', 'in', part)
          .execute()),
      );
    }
    return out;
  }

  async listCourses(academyId: number, search: string | undefined, window: Window): Promise<CourseRow[]> {
    let query = this.tenant(academyId).selectFrom('academy_courses as c').selectAll('c');
    if (search !== undefined) query = query.where(containsText(['c.title'], search));
    return (await query.orderBy('c.id').limit(window.limit).offset(window.start).execute()).map(toCourse);
  }

  async findCourse(academyId: number, id: number): Promise<CourseRow | undefined> {
    const row = await this.tenant(academyId)
      .selectFrom('academy_courses')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toCourse(row) : undefined;
  }

  private curriculums(academyId: number) {
    return this.tenant(academyId)
      .selectFrom('academy_curriculums as k')
      .leftJoin('academy_categories as c', (join) =>
        // tenant-by-hand: the category is joined to the curriculum, read through `Tenant`, by the row's own academy.
        join.onRef('c.academy_id', '=', 'k.academy_id').onRef('c.id', '=', 'k.category_id'),
      )
      .selectAll('k')
      .select('c.name as category_name');
  }

  listCurriculums(academyId: number, search: string | undefined, window: Window): Promise<CurriculumRow[]> {
    let query = this.curriculums(academyId);
    if (search !== undefined) query = query.where(containsText(['k.title'], search));
    return query.orderBy('k.id').limit(window.limit).offset(window.start).execute();
  }

  findCurriculum(academyId: number, id: number): Promise<CurriculumRow | undefined> {
    return this.curriculums(academyId).where('k.id', '=', id).executeTakeFirst();
  }

  listVenues(academyId: number, search: string | undefined, window: Window): Promise<VenueRow[]> {
    let query = this.tenant(academyId).selectFrom('academy_venues as v').selectAll('v');
    if (search !== undefined) query = query.where(containsText(['v.name'], search));
    return query.orderBy('v.id').limit(window.limit).offset(window.start).execute();
  }

  // ------------------------------------------------------------ upserts (insert, or replace every field)

  async upsertUsers(academyId: number, users: UserValues[], at: number): Promise<void> {
    for (const part of chunks(users)) {
      await this.db
        .insertInto('academy_users')
        .values(
          part.map((u) => ({
            ...u,
            units: JSON.stringify(u.units),
            academy_id: academyId,
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
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    }
  }

  async upsertCategories(academyId: number, categories: CategoryValues[]): Promise<void> {
    for (const part of chunks(categories)) {
      await this.db
        .insertInto('academy_categories')
        .values(part.map((c) => ({ ...c, academy_id: academyId })))
        .onConflict((oc) => oc.columns(['academy_id', 'id']).doUpdateSet((eb) => ({ name: eb.ref('excluded.name') })))
        .execute();
    }
  }

  async upsertCourses(academyId: number, courses: CourseValues[]): Promise<void> {
    for (const part of chunks(courses)) {
      await this.db
        .insertInto('academy_courses')
        .values(part.map((c) => ({ ...c, category_ids: JSON.stringify(c.category_ids), academy_id: academyId })))
        .onConflict((oc) =>
          oc.columns(['academy_id', 'id']).doUpdateSet((eb) => ({
            title: eb.ref('excluded.title'),
            description: eb.ref('excluded.description'),
            category_ids: eb.ref('excluded.category_ids'),
            external_id: eb.ref('excluded.external_id'),
          })),
        )
        .execute();
    }
  }

  async upsertCurriculums(academyId: number, curriculums: CurriculumValues[]): Promise<void> {
    for (const part of chunks(curriculums)) {
      await this.db
        .insertInto('academy_curriculums')
        .values(part.map((c) => ({ ...c, academy_id: academyId })))
        .onConflict((oc) =>
          oc.columns(['academy_id', 'id']).doUpdateSet((eb) => ({
            title: eb.ref('excluded.title'),
            description: eb.ref('excluded.description'),
            category_id: eb.ref('excluded.category_id'),
            external_id: eb.ref('excluded.external_id'),
          })),
        )
        .execute();
    }
  }

  async upsertVenues(academyId: number, venues: VenueValues[]): Promise<void> {
    for (const part of chunks(venues)) {
      await this.db
        .insertInto('academy_venues')
        .values(part.map((v) => ({ ...v, academy_id: academyId })))
        .onConflict((oc) =>
          oc.columns(['academy_id', 'id']).doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            seats: eb.ref('excluded.seats'),
            address: eb.ref('excluded.address'),
            city: eb.ref('excluded.city'),
            latitude: eb.ref('excluded.latitude'),
            longitude: eb.ref('excluded.longitude'),
          })),
        )
        .execute();
    }
  }
}
