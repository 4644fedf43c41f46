import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Db, DialectName } from '../../../platform/db/database.js';
import { existingIds } from '../../../platform/db/existing.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { Tables } from '../../../platform/db/schema.js';
import { containsText, fts5Query, pgTsquery, pgTsvector } from '../../../platform/db/search.js';
import type { HrTenantId, TenantRow } from '../../../platform/db/tenant.js';
import { PerimetersRepository } from '../../core/perimeters/repository.js';
import type { CustomFieldFilter, EmployeeFacts, EmployeesPerimeter } from '../../core/perimeters/rules.js';
import { filteredArticles, type KbArticleFilter } from './filter.js';
import type { ArticleStatus, SortField } from './schemas.js';
import type { PaKbArticlePerimetersTable, PaKbArticlesTable, PaKbArticleVersionsTable } from './tables.js';

export type { KbArticleFilter } from './filter.js';

type StoredArticle = Selectable<PaKbArticlesTable>;

export interface LocalizedKeywords {
  language_code: string;
  value: string;
}

/** An article as the domain sees it: flags as booleans, its role restrictions (role ids) and search keywords decoded. */
export interface KbArticleRecord {
  pk: number;
  id: string;
  slug: string;
  authorId: string | null;
  lastUpdaterId: string | null;
  lastHits: number;
  totalHits: number;
  featuredOnEmployeeHomepage: boolean;
  onceOnEmployeeHomepage: boolean;
  permanentOnEmployeeHomepage: boolean;
  /** YYYY-MM-DD. */
  expirationDate: string | null;
  /** YYYY-MM-DD. */
  scheduledPublicationDate: string | null;
  status: PaKbArticlesTable['status'];
  accessibleByHr: boolean;
  accessibleByEmployee: boolean;
  roleRestrictions: string[];
  localizedSearchKeywords: LocalizedKeywords[];
  /** The first version's title in lower case (the `title` sort). */
  sortTitle: string;
  createdAt: number;
  updatedAt: number;
}

export type KbArticleValues = Omit<KbArticleRecord, 'pk' | 'id' | 'createdAt' | 'updatedAt'>;

function toRecord(row: StoredArticle): KbArticleRecord {
  return {
    pk: row.pk,
    id: row.id,
    slug: row.slug,
    authorId: row.author_id,
    lastUpdaterId: row.last_updater_id,
    lastHits: Number(row.last_hits),
    totalHits: Number(row.total_hits),
    featuredOnEmployeeHomepage: Boolean(row.featured_on_employee_homepage),
    onceOnEmployeeHomepage: Boolean(row.once_on_employee_homepage),
    permanentOnEmployeeHomepage: Boolean(row.permanent_on_employee_homepage),
    expirationDate: row.expiration_date,
    scheduledPublicationDate: row.scheduled_publication_date,
    status: row.status,
    accessibleByHr: Boolean(row.accessible_by_hr),
    accessibleByEmployee: Boolean(row.accessible_by_employee),
    roleRestrictions: JSON.parse(row.role_restrictions) as string[],
    localizedSearchKeywords: JSON.parse(row.localized_search_keywords) as LocalizedKeywords[],
    sortTitle: row.sort_title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toColumns(values: Partial<KbArticleValues>): Updateable<PaKbArticlesTable> {
  const columns: Updateable<PaKbArticlesTable> = {};
  if (values.slug !== undefined) columns.slug = values.slug;
  if (values.authorId !== undefined) columns.author_id = values.authorId;
  if (values.lastUpdaterId !== undefined) columns.last_updater_id = values.lastUpdaterId;
  if (values.lastHits !== undefined) columns.last_hits = values.lastHits;
  if (values.totalHits !== undefined) columns.total_hits = values.totalHits;
  if (values.featuredOnEmployeeHomepage !== undefined)
    columns.featured_on_employee_homepage = values.featuredOnEmployeeHomepage ? 1 : 0;
  if (values.onceOnEmployeeHomepage !== undefined)
    columns.once_on_employee_homepage = values.onceOnEmployeeHomepage ? 1 : 0;
  if (values.permanentOnEmployeeHomepage !== undefined)
    columns.permanent_on_employee_homepage = values.permanentOnEmployeeHomepage ? 1 : 0;
  if (values.expirationDate !== undefined) columns.expiration_date = values.expirationDate;
  if (values.scheduledPublicationDate !== undefined)
    columns.scheduled_publication_date = values.scheduledPublicationDate;
  if (values.status !== undefined) columns.status = values.status;
  if (values.accessibleByHr !== undefined) columns.accessible_by_hr = values.accessibleByHr ? 1 : 0;
  if (values.accessibleByEmployee !== undefined) columns.accessible_by_employee = values.accessibleByEmployee ? 1 : 0;
  if (values.roleRestrictions !== undefined) columns.role_restrictions = JSON.stringify(values.roleRestrictions);
  if (values.localizedSearchKeywords !== undefined)
    columns.localized_search_keywords = JSON.stringify(values.localizedSearchKeywords);
  if (values.sortTitle !== undefined) columns.sort_title = values.sortTitle;
  return columns;
}

/** One language version of an article. */
export interface KbVersionRecord {
  id: string;
  languageCode: string;
  position: number;
  title: string;
  /** HTML. */
  body: string;
  creatorId: string | null;
  updatorId: string | null;
  createdAt: number;
  updatedAt: number;
}

function versionRecord(row: Selectable<PaKbArticleVersionsTable>): KbVersionRecord {
  return {
    id: row.id,
    languageCode: row.language_code,
    position: row.position,
    title: row.title,
    body: row.body,
    creatorId: row.creator_id,
    updatorId: row.updator_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** One tag of an article (`labelKey`: the label in lower case). */
export interface KbTagRecord {
  languageCode: string;
  label: string;
  labelKey: string;
}

/** An article with everything that hangs off it. */
export interface KbArticleData {
  row: KbArticleRecord;
  versions: KbVersionRecord[];
  categoryIds: string[];
  tags: KbTagRecord[];
  perimeters: EmployeesPerimeter[];
  /** Role id → name, for the article's role restrictions. */
  roleNames: Map<string, string>;
}

/** An article as presented: its data and its status as of today (a scheduled article past its day is published). */
export interface KbArticleView extends KbArticleData {
  status: ArticleStatus;
}

/** What each sortable field orders by (a missing expiration date first), then the internal key. */
const ORDER: ListOrder<SortField> = {
  fields: {
    last_hits: 'a.last_hits',
    updated_at: 'a.updated_at',
    title: 'a.sort_title',
    created_at: 'a.created_at',
    expiration_date: {
      column: 'a.expiration_date',
      expression: sql`coalesce(${sql.ref('a.expiration_date')}, '')`,
      key: (row: StoredArticle) => row.expiration_date ?? '',
    },
  },
  tiebreak: 'a.pk',
};

/** Tags: one row per label (case folded) and language, alphabetical; the pair is unique by itself. */
const TAG_ORDER: ListOrder = {
  fixed: [
    { term: 't.label_key', direction: 'asc' },
    { term: 't.language_code', direction: 'asc' },
  ],
};

/** What a full-text index row holds, already cut into words (see platform/db/search.ts). */
export interface SearchDocument {
  titles: string[];
  keywords: string[];
  bodies: string[];
}

/** The tables of an article's own rows, keyed by its primary key (`article_pk`). */
type ArticleChildTable =
  | 'pa_kb_article_versions'
  | 'pa_kb_article_categories'
  | 'pa_kb_article_tags'
  | 'pa_kb_article_perimeters';

export class KbArticlesRepository extends HrRepository {
  /** What the articles' employee perimeters are checked and matched against, on the same handle. */
  readonly perimeters: PerimetersRepository;

  constructor(
    db: Db,
    private readonly dialect: DialectName,
  ) {
    super(db);
    this.perimeters = new PerimetersRepository(db);
  }

  // ------------------------------------------------------------ reads

  async page(
    clientId: HrTenantId,
    filter: KbArticleFilter,
    request: PageRequest<SortField>,
  ): Promise<Page<KbArticleRecord>> {
    const page = await listPage(filteredArticles(this.tenant(clientId), filter), ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  /** The internal keys of every article the filter keeps (to order full-text matches by relevance). */
  async matchingPks(clientId: HrTenantId, filter: KbArticleFilter): Promise<number[]> {
    const rows = await filteredArticles(this.tenant(clientId), filter).clearSelect().select('a.pk').execute();
    return rows.map((r) => Number(r.pk));
  }

  /** The oldest article the filter keeps (`once_on_employee_homepage`). */
  async oldest(clientId: HrTenantId, filter: KbArticleFilter): Promise<KbArticleRecord | undefined> {
    const row = await filteredArticles(this.tenant(clientId), filter)
      .orderBy('a.created_at')
      .orderBy('a.pk')
      .limit(1)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Every article's internal key, in order (a portable snapshot's import rebuilds their full-text rows). */
  async allPks(clientId: HrTenantId): Promise<number[]> {
    const rows = await this.tenant(clientId).selectFrom('pa_kb_articles').select('pk').orderBy('pk').execute();
    return rows.map((r) => Number(r.pk));
  }

  async rowsByPk(clientId: HrTenantId, pks: number[]): Promise<KbArticleRecord[]> {
    if (!pks.length) return [];
    const rows = await this.tenant(clientId).selectFrom('pa_kb_articles').selectAll().where('pk', 'in', pks).execute();
    const byPk = new Map(rows.map((r) => [Number(r.pk), toRecord(r)]));
    return pks.flatMap((pk) => byPk.get(pk) ?? []);
  }

  async find(clientId: HrTenantId, id: string): Promise<KbArticleRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('pa_kb_articles')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Versions, categories, tags, perimeters and role names of several articles, in a few queries. */
  async details(clientId: HrTenantId, rows: KbArticleRecord[]): Promise<KbArticleData[]> {
    if (!rows.length) return [];
    const pks = rows.map((r) => r.pk);
    const [versions, categories, tags, perimeters] = await Promise.all([
      this.tenant(clientId)
        .selectFrom('pa_kb_article_versions')
        .selectAll()
        .where('article_pk', 'in', pks)
        .orderBy('article_pk')
        .orderBy('position')
        .execute(),
      this.tenant(clientId)
        .selectFrom('pa_kb_article_categories')
        .selectAll()
        .where('article_pk', 'in', pks)
        .orderBy('article_pk')
        .orderBy('position')
        .execute(),
      this.tenant(clientId)
        .selectFrom('pa_kb_article_tags')
        .selectAll()
        .where('article_pk', 'in', pks)
        .orderBy('article_pk')
        .orderBy('position')
        .execute(),
      this.tenant(clientId)
        .selectFrom('pa_kb_article_perimeters')
        .selectAll()
        .where('article_pk', 'in', pks)
        .orderBy('article_pk')
        .orderBy('position')
        .execute(),
    ]);
    const roleIds = [...new Set(rows.flatMap((r) => r.roleRestrictions))];
    const roleNames = await this.roleNames(clientId, roleIds);
    const group = <T extends { article_pk: number }>(items: T[]) => {
      const out = new Map<number, T[]>();
      for (const item of items) {
        const pk = Number(item.article_pk);
        out.set(pk, [...(out.get(pk) ?? []), item]);
      }
      return out;
    };
    const [v, c, t, p] = [group(versions), group(categories), group(tags), group(perimeters)];
    return rows.map((row) => ({
      row,
      versions: (v.get(Number(row.pk)) ?? []).map(versionRecord),
      categoryIds: (c.get(Number(row.pk)) ?? []).map((x) => x.category_id),
      tags: (t.get(Number(row.pk)) ?? []).map((x) => ({
        languageCode: x.language_code,
        label: x.label,
        labelKey: x.label_key,
      })),
      perimeters: (p.get(Number(row.pk)) ?? []).map(perimeterOf),
      roleNames,
    }));
  }

  /** Distinct tags (one per lower-case label and language), alphabetical. */
  async tagPage(
    clientId: HrTenantId,
    filter: { languageCode?: string; q?: string },
    request: PageRequest,
  ): Promise<Page<KbTagRecord>> {
    let q = this.tenant(clientId)
      .selectFrom('pa_kb_article_tags as t')
      .select(['t.label_key', 't.language_code'])
      .select((eb) => eb.fn.min('t.label').as('label'))
      .groupBy(['t.label_key', 't.language_code']);
    if (filter.languageCode !== undefined) q = q.where('t.language_code', '=', filter.languageCode);
    if (filter.q !== undefined) q = q.where(containsText(['t.label_key'], filter.q));
    const page = await listPage(q, TAG_ORDER, request);
    return {
      ...page,
      items: page.items.map((t) => ({ languageCode: t.language_code, label: t.label, labelKey: t.label_key })),
    };
  }

  // ------------------------------------------------------------ lookups for the rules

  /**
   * The categories among `ids` that exist in the client, each locked until the transaction ends (a category
   * being deleted at the same time either waits for this write, and then sees its link, or is gone).
   */
  async lockCategories(clientId: HrTenantId, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.tenant(clientId)
      .updateTable('pa_kb_categories')
      .set((eb) => ({ sort_order: eb.ref('sort_order') }))
      .where('id', 'in', ids)
      .returning('id')
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  existingUsers(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_users', clientId, ids);
  }

  async roleNames(clientId: HrTenantId, ids: readonly string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await this.tenant(clientId)
      .selectFrom('hr_roles')
      .select(['id', 'name'])
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /**
   * The perimeters of the client's employee-accessible articles whose organization part may cover an employee
   * (everyone, one of their organizations, an ancestor with `<=`, a group of theirs); the custom field rules
   * are left to the caller.
   */
  async candidatePerimeters(
    clientId: HrTenantId,
    employee: EmployeeFacts,
  ): Promise<{ articlePk: number; perimeter: EmployeesPerimeter }[]> {
    const orgs = [...employee.organizationIds];
    const ancestors = [...employee.organizationsAndAncestors];
    const groups = [...employee.groupIds];
    const rows = await this.tenant(clientId)
      .selectFrom('pa_kb_article_perimeters as p')
      .innerJoin('pa_kb_articles as a', 'a.pk', 'p.article_pk')
      .selectAll('p')
      .where('a.accessible_by_employee', '=', 1)
      .where((eb) =>
        eb.or([
          eb.and([eb('p.organization_id', 'is', null), eb('p.organization_group_id', 'is', null)]),
          ...(orgs.length ? [eb.and([eb('p.operator', '=', '='), eb('p.organization_id', 'in', orgs)])] : []),
          ...(ancestors.length
            ? [eb.and([eb('p.operator', '=', '<='), eb('p.organization_id', 'in', ancestors)])]
            : []),
          ...(groups.length ? [eb('p.organization_group_id', 'in', groups)] : []),
        ]),
      )
      .execute();
    return rows.map((r) => ({ articlePk: Number(r.article_pk), perimeter: perimeterOf(r) }));
  }

  /** Relevance of the client's articles matching every word (higher is better); the formula is the dialect's. */
  async searchScores(clientId: HrTenantId, words: string[]): Promise<Map<number, number>> {
    // tenant-by-hand: raw full-text statements (an FTS5 table, a tsvector), which `Tenant` cannot write; the
    // articles they join are bound to the client.
    const rows =
      this.dialect === 'sqlite'
        ? await sql<{ pk: number; score: number }>`
            select a.pk as pk, -bm25(pa_kb_article_fts, 10.0, 5.0, 1.0) as score
            from pa_kb_article_fts join pa_kb_articles a on a.pk = pa_kb_article_fts.rowid
            where pa_kb_article_fts match ${fts5Query(words)} and a.client_id = ${clientId}`.execute(this.db)
        : await sql<{ pk: number; score: number }>`
            select a.pk as pk, ts_rank(f.document, ${pgTsquery(words)}::tsquery) as score
            from pa_kb_article_fts f join pa_kb_articles a on a.pk = f.article_pk
            where f.document @@ ${pgTsquery(words)}::tsquery and a.client_id = ${clientId}`.execute(this.db);
    return new Map(rows.rows.map((r) => [Number(r.pk), Number(r.score)]));
  }

  // ------------------------------------------------------------ writes

  /** Inserts unless the id exists; the new internal key, or undefined when another write created it first. */
  async insertIfAbsent(
    clientId: HrTenantId,
    id: string,
    values: KbArticleValues,
    at: number,
  ): Promise<number | undefined> {
    return this.tenant(clientId).insertIfAbsentPk('pa_kb_articles', {
      id,
      ...toColumns(values),
      created_at: at,
      updated_at: at,
    } as TenantRow<Tables, 'pa_kb_articles'>);
  }

  async update(clientId: HrTenantId, pk: number, values: Partial<KbArticleValues>, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('pa_kb_articles')
      .set({ ...toColumns(values), updated_at: at })
      .where('pk', '=', pk)
      .execute();
  }

  /** The article's rows of one child table, replaced by `rows` (in the caller's transaction). */
  private async replaceChildren<T extends ArticleChildTable>(
    table: T,
    pk: number,
    rows: Insertable<Tables[T]>[],
  ): Promise<void> {
    // The article's primary key is unique across clients: the rows it owns are its own client's.
    await this.db
      .deleteFrom(table as ArticleChildTable)
      .where('article_pk', '=', pk)
      .execute();
    if (rows.length)
      await this.db
        .insertInto(table)
        .values(rows as never)
        .execute();
  }

  replaceVersions(clientId: HrTenantId, pk: number, versions: KbVersionRecord[]): Promise<void> {
    return this.replaceChildren(
      'pa_kb_article_versions',
      pk,
      versions.map((v) => ({
        client_id: clientId,
        article_pk: pk,
        id: v.id,
        language_code: v.languageCode,
        position: v.position,
        title: v.title,
        body: v.body,
        creator_id: v.creatorId,
        updator_id: v.updatorId,
        created_at: v.createdAt,
        updated_at: v.updatedAt,
      })),
    );
  }

  replaceCategories(clientId: HrTenantId, pk: number, categoryIds: string[]): Promise<void> {
    return this.replaceChildren(
      'pa_kb_article_categories',
      pk,
      categoryIds.map((category_id, position) => ({ client_id: clientId, article_pk: pk, category_id, position })),
    );
  }

  replaceTags(clientId: HrTenantId, pk: number, tags: { languageCode: string; label: string }[]): Promise<void> {
    return this.replaceChildren(
      'pa_kb_article_tags',
      pk,
      tags.map((t, position) => ({
        client_id: clientId,
        article_pk: pk,
        language_code: t.languageCode,
        label: t.label,
        label_key: t.label.toLowerCase(),
        position,
      })),
    );
  }

  replacePerimeters(clientId: HrTenantId, pk: number, perimeters: EmployeesPerimeter[]): Promise<void> {
    return this.replaceChildren(
      'pa_kb_article_perimeters',
      pk,
      perimeters.map((p, position) => ({
        client_id: clientId,
        article_pk: pk,
        position,
        operator: p.operator,
        organization_id: p.organization_id,
        organization_group_id: p.organization_group_id,
        custom_field_filters: JSON.stringify(p.custom_field_filters),
      })),
    );
  }

  /** Writes the article's full-text row (run in the transaction of the write that changed the article). */
  async writeSearch(pk: number, doc: SearchDocument): Promise<void> {
    if (this.dialect === 'sqlite') {
      await sql`delete from pa_kb_article_fts where rowid = ${pk}`.execute(this.db);
      await sql`insert into pa_kb_article_fts (rowid, title, keywords, body)
        values (${pk}, ${doc.titles.join(' ')}, ${doc.keywords.join(' ')}, ${doc.bodies.join(' ')})`.execute(this.db);
      return;
    }
    const vector = pgTsvector([
      [doc.titles, 'A'],
      [doc.keywords, 'B'],
      [doc.bodies, 'D'],
    ]);
    await sql`insert into pa_kb_article_fts (article_pk, document) values (${pk}, ${vector}::tsvector)
      on conflict (article_pk) do update set document = excluded.document`.execute(this.db);
  }

  /** Deletes the article, its versions, links and full-text row. */
  async delete(clientId: HrTenantId, pk: number): Promise<void> {
    if (this.dialect === 'sqlite') await sql`delete from pa_kb_article_fts where rowid = ${pk}`.execute(this.db);
    await this.tenant(clientId).deleteFrom('pa_kb_articles').where('pk', '=', pk).execute();
  }
}

function perimeterOf(r: Selectable<PaKbArticlePerimetersTable>): EmployeesPerimeter {
  return {
    operator: r.operator,
    organization_id: r.organization_id,
    organization_group_id: r.organization_group_id,
    custom_field_filters: JSON.parse(r.custom_field_filters) as CustomFieldFilter[],
  };
}
