import { type Selectable, sql } from 'kysely';
import { AcademyRepository } from '../../platform/db/repository.js';
import { containsText } from '../../platform/db/search.js';
import type { AcademyTenantId } from '../../platform/db/tenant.js';
import { barIndex, chunks, type Window } from './repository-common.js';
import type { AcademyCategoriesTable, AcademyContentTable, AcademyVenuesTable } from './tables.js';

export interface CategoryRecord {
  id: number;
  name: string;
}

function toCategory(row: Selectable<AcademyCategoriesTable>): CategoryRecord {
  return { id: row.id, name: row.name };
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

/** A content item (a web resource or a file), with the name of its category. */
export interface ContentRecord {
  id: number;
  title: string;
  description: string;
  typeId: number;
  subTypeId: number;
  categoryId: number | null;
  categoryName: string | null;
  tags: string[];
  url: string | null;
  timeAdded: number;
  timeModified: number;
}

function toContent(row: Selectable<AcademyContentTable> & { category_name: string | null }): ContentRecord {
  const tags: unknown = JSON.parse(row.tags);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    typeId: row.type_id,
    subTypeId: row.sub_type_id,
    categoryId: row.category_id,
    categoryName: row.category_name,
    tags: Array.isArray(tags) ? tags.map(String) : [],
    url: row.url,
    timeAdded: Number(row.time_added),
    timeModified: Number(row.time_modified),
  };
}

export type ContentValues = Omit<ContentRecord, 'categoryName'>;

export interface ContentFilter {
  orderBy: 'title' | 'time_added' | 'time_modified';
  direction: 'asc' | 'desc';
  categoryId?: number;
  typeId?: number;
  subTypeId?: number;
  /** Items with any of these tags (any case). */
  tags?: string[];
  search?: string;
}

/** The directory's categories, venues and content items. Lists are in id order unless said otherwise. */
export class ContentRepository extends AcademyRepository {
  async listCategories(
    academyId: AcademyTenantId,
    search: string | undefined,
    window: Window,
  ): Promise<CategoryRecord[]> {
    let query = this.tenant(academyId).selectFrom('academy_categories as c').selectAll('c');
    if (search !== undefined) query = query.where(containsText(['c.name'], search));
    return (await query.orderBy('c.id').limit(window.limit).offset(window.start).execute()).map(toCategory);
  }

  /** The categories of these ids that exist in the academy, in id order. */
  async categoriesByIds(academyId: AcademyTenantId, ids: number[]): Promise<CategoryRecord[]> {
    const out: CategoryRecord[] = [];
    for (const part of chunks([...new Set(ids)])) {
      out.push(
        ...(
          await this.tenant(academyId).selectFrom('academy_categories').selectAll().where('id', 'in', part).execute()
        ).map(toCategory),
      );
    }
    return out.sort((a, b) => a.id - b.id);
  }

  async listVenues(academyId: AcademyTenantId, search: string | undefined, window: Window): Promise<VenueRecord[]> {
    let query = this.tenant(academyId).selectFrom('academy_venues as v').selectAll('v');
    if (search !== undefined) query = query.where(containsText(['v.name'], search));
    return (await query.orderBy('v.id').limit(window.limit).offset(window.start).execute()).map(toVenue);
  }

  /** Content items, in the filter's order (ties by id). */
  async listContent(academyId: AcademyTenantId, filter: ContentFilter, window: Window): Promise<ContentRecord[]> {
    let query = this.tenant(academyId)
      .selectFrom('academy_content as i')
      .leftJoin('academy_categories as c', (join) =>
        // tenant-by-hand: the category is joined to the item, read through `Tenant`, by the row's own academy.
        join.onRef('c.academy_id', '=', 'i.academy_id').onRef('c.id', '=', 'i.category_id'),
      )
      .selectAll('i')
      .select('c.name as category_name');
    if (filter.categoryId !== undefined) query = query.where('i.category_id', '=', filter.categoryId);
    if (filter.typeId !== undefined) query = query.where('i.type_id', '=', filter.typeId);
    if (filter.subTypeId !== undefined) query = query.where('i.sub_type_id', '=', filter.subTypeId);
    const search = filter.search;
    if (search !== undefined) query = query.where(containsText(['i.title', 'i.description'], search));
    const tags = filter.tags;
    if (tags !== undefined && tags.length > 0) {
      query = query.where((eb) => eb.or(tags.map((tag) => containsText(['i.tag_index'], `|${tag}|`))));
    }
    return (
      await query
        .orderBy(sql.ref(`i.${filter.orderBy}`), filter.direction)
        .orderBy('i.id')
        .limit(window.limit)
        .offset(window.start)
        .execute()
    ).map(toContent);
  }

  async upsertCategories(academyId: AcademyTenantId, categories: CategoryRecord[]): Promise<void> {
    for (const part of chunks(categories)) {
      await this.db
        .insertInto('academy_categories')
        .values(part.map((c) => ({ academy_id: academyId, id: c.id, name: c.name })))
        .onConflict((oc) => oc.columns(['academy_id', 'id']).doUpdateSet((eb) => ({ name: eb.ref('excluded.name') })))
        .execute();
    }
  }

  async upsertVenues(academyId: AcademyTenantId, venues: VenueRecord[]): Promise<void> {
    for (const part of chunks(venues)) {
      await this.db
        .insertInto('academy_venues')
        .values(part.map((v) => ({ academy_id: academyId, ...v })))
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

  async upsertContent(academyId: AcademyTenantId, items: ContentValues[]): Promise<void> {
    for (const part of chunks(items)) {
      await this.db
        .insertInto('academy_content')
        .values(
          part.map((i) => ({
            academy_id: academyId,
            id: i.id,
            title: i.title,
            description: i.description,
            type_id: i.typeId,
            sub_type_id: i.subTypeId,
            category_id: i.categoryId,
            tags: JSON.stringify(i.tags),
            tag_index: barIndex(i.tags),
            url: i.url,
            time_added: i.timeAdded,
            time_modified: i.timeModified,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['academy_id', 'id']).doUpdateSet((eb) => ({
            title: eb.ref('excluded.title'),
            description: eb.ref('excluded.description'),
            type_id: eb.ref('excluded.type_id'),
            sub_type_id: eb.ref('excluded.sub_type_id'),
            category_id: eb.ref('excluded.category_id'),
            tags: eb.ref('excluded.tags'),
            tag_index: eb.ref('excluded.tag_index'),
            url: eb.ref('excluded.url'),
            time_added: eb.ref('excluded.time_added'),
            time_modified: eb.ref('excluded.time_modified'),
          })),
        )
        .execute();
    }
  }
}
