import { type Selectable, sql } from 'kysely';
import { AcademyRepository } from '../../platform/db/repository.js';
import { containsText, likePattern } from '../../platform/db/search.js';
import type { AcademyTenantId } from '../../platform/db/tenant.js';
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

/** A directory user as the domain sees it: its units decoded, `active` a boolean. */
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
  createdAt: number;
  updatedAt: number;
}

function toUser(row: Selectable<AcademyUsersTable>): UserRecord {
  const value: unknown = JSON.parse(row.units);
  const units = Array.isArray(value)
    ? value
        .filter((u): u is { id: unknown; name: unknown } => typeof u === 'object' && u !== null)
        .map((u) => ({ id: Number(u.id), name: String(u.name) }))
    : [];
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
    units,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface CategoryRecord {
  id: number;
  name: string;
}

function toCategory(row: Selectable<AcademyCategoriesTable>): CategoryRecord {
  return { id: row.id, name: row.name };
}

/** A course as the domain sees it: its category ids decoded (the first is the main one). */
export interface CourseRecord {
  id: number;
  title: string;
  description: string;
  categoryIds: number[];
  externalId: string | null;
}

function toCourse(row: Selectable<AcademyCoursesTable>): CourseRecord {
  const value: unknown = JSON.parse(row.category_ids);
  const ids = Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : [];
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    categoryIds: ids,
    externalId: row.external_id,
  };
}

export interface VenueRecord {
  id: number;
  name: string;
  seats: number;
  address: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
}

function toVenue(row: Selectable<AcademyVenuesTable>): VenueRecord {
  return {
    id: row.id,
    name: row.name,
    seats: row.seats,
    address: row.address,
    city: row.city,
    latitude: row.latitude,
    longitude: row.longitude,
  };
}

/** A curriculum with the name of its category (null when it has none, or the category is gone). */
export interface CurriculumRecord {
  id: number;
  title: string;
  description: string;
  categoryId: number | null;
  externalId: string | null;
  categoryName: string | null;
}

function toCurriculum(row: Selectable<AcademyCurriculumsTable> & { category_name: string | null }): CurriculumRecord {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    categoryId: row.category_id,
    externalId: row.external_id,
    categoryName: row.category_name,
  };
}

export type UserValues = Omit<UserRecord, 'createdAt' | 'updatedAt'>;
export type CategoryValues = CategoryRecord;
export type CourseValues = CourseRecord;
export type CurriculumValues = Omit<CurriculumRecord, 'categoryName'>;
export type VenueValues = VenueRecord;

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
  async academyExists(academyId: AcademyTenantId): Promise<boolean> {
    const row = await this.db.selectFrom('academies').select('id').where('id', '=', academyId).executeTakeFirst();
    return row !== undefined;
  }

  // ------------------------------------------------------------ reads

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

  async listCategories(
    academyId: AcademyTenantId,
    search: string | undefined,
    window: Window,
  ): Promise<CategoryRecord[]> {
    let query = this.tenant(academyId).selectFrom('academy_categories as c').selectAll('c');
    if (search !== undefined) query = query.where(containsText(['c.name'], search));
    return (await query.orderBy('c.id').limit(window.limit).offset(window.start).execute()).map(toCategory);
  }

  /** The categories of these ids that exist in the academy. */
  async categoriesByIds(academyId: AcademyTenantId, ids: number[]): Promise<CategoryRecord[]> {
    const out: CategoryRecord[] = [];
    for (const part of chunks([...new Set(ids)])) {
      out.push(
        ...(
          await this.tenant(academyId).selectFrom('academy_categories').selectAll().where('id', 'in', part).execute()
        ).map(toCategory),
      );
    }
    return out;
  }

  async listCourses(academyId: AcademyTenantId, search: string | undefined, window: Window): Promise<CourseRecord[]> {
    let query = this.tenant(academyId).selectFrom('academy_courses as c').selectAll('c');
    if (search !== undefined) query = query.where(containsText(['c.title'], search));
    return (await query.orderBy('c.id').limit(window.limit).offset(window.start).execute()).map(toCourse);
  }

  async findCourse(academyId: AcademyTenantId, id: number): Promise<CourseRecord | undefined> {
    const row = await this.tenant(academyId)
      .selectFrom('academy_courses')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toCourse(row) : undefined;
  }

  private curriculums(academyId: AcademyTenantId) {
    return this.tenant(academyId)
      .selectFrom('academy_curriculums as k')
      .leftJoin('academy_categories as c', (join) =>
        // tenant-by-hand: the category is joined to the curriculum, read through `Tenant`, by the row's own academy.
        join.onRef('c.academy_id', '=', 'k.academy_id').onRef('c.id', '=', 'k.category_id'),
      )
      .selectAll('k')
      .select('c.name as category_name');
  }

  async listCurriculums(
    academyId: AcademyTenantId,
    search: string | undefined,
    window: Window,
  ): Promise<CurriculumRecord[]> {
    let query = this.curriculums(academyId);
    if (search !== undefined) query = query.where(containsText(['k.title'], search));
    return (await query.orderBy('k.id').limit(window.limit).offset(window.start).execute()).map(toCurriculum);
  }

  async findCurriculum(academyId: AcademyTenantId, id: number): Promise<CurriculumRecord | undefined> {
    const row = await this.curriculums(academyId).where('k.id', '=', id).executeTakeFirst();
    return row ? toCurriculum(row) : undefined;
  }

  async listVenues(academyId: AcademyTenantId, search: string | undefined, window: Window): Promise<VenueRecord[]> {
    let query = this.tenant(academyId).selectFrom('academy_venues as v').selectAll('v');
    if (search !== undefined) query = query.where(containsText(['v.name'], search));
    return (await query.orderBy('v.id').limit(window.limit).offset(window.start).execute()).map(toVenue);
  }

  // ------------------------------------------------------------ upserts (insert, or replace every field)

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

  async upsertCategories(academyId: AcademyTenantId, categories: CategoryValues[]): Promise<void> {
    for (const part of chunks(categories)) {
      await this.db
        .insertInto('academy_categories')
        .values(part.map((c) => ({ academy_id: academyId, id: c.id, name: c.name })))
        .onConflict((oc) => oc.columns(['academy_id', 'id']).doUpdateSet((eb) => ({ name: eb.ref('excluded.name') })))
        .execute();
    }
  }

  async upsertCourses(academyId: AcademyTenantId, courses: CourseValues[]): Promise<void> {
    for (const part of chunks(courses)) {
      await this.db
        .insertInto('academy_courses')
        .values(
          part.map((c) => ({
            academy_id: academyId,
            id: c.id,
            title: c.title,
            description: c.description,
            category_ids: JSON.stringify(c.categoryIds),
            external_id: c.externalId,
          })),
        )
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

  async upsertCurriculums(academyId: AcademyTenantId, curriculums: CurriculumValues[]): Promise<void> {
    for (const part of chunks(curriculums)) {
      await this.db
        .insertInto('academy_curriculums')
        .values(
          part.map((c) => ({
            academy_id: academyId,
            id: c.id,
            title: c.title,
            description: c.description,
            category_id: c.categoryId,
            external_id: c.externalId,
          })),
        )
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

  async upsertVenues(academyId: AcademyTenantId, venues: VenueValues[]): Promise<void> {
    for (const part of chunks(venues)) {
      await this.db
        .insertInto('academy_venues')
        .values(
          part.map((v) => ({
            academy_id: academyId,
            id: v.id,
            name: v.name,
            seats: v.seats,
            address: v.address,
            city: v.city,
            latitude: v.latitude,
            longitude: v.longitude,
          })),
        )
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
