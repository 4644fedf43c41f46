import { type Insertable, type QueryCreator, type Selectable, sql, type Updateable } from 'kysely';
import { type Db, dialectOf } from '../../../platform/db/database.js';
import { existingIds } from '../../../platform/db/existing.js';
import { jsonRowsText } from '../../../platform/db/json-sql.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest, PreparedPages } from '../../../platform/db/listing.js';
import { type PreparedParams, prepared } from '../../../platform/db/prepared.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { hrTenantId, Tenant } from '../../../platform/db/tenant.js';
import type { FormAnswer } from '../../core/forms/schemas.js';
import { requestItemJson, requestViewColumns } from './present-sql.js';
import type {
  PaRequestCommentsTable,
  PaRequestFilesTable,
  PaRequestsTable,
  PersonKind,
  RequestStatus,
} from './tables.js';

type StoredRequest = Selectable<PaRequestsTable>;

/** A request as the domain sees it: its organizations and answers decoded, its flags booleans. */
export interface RequestRecord {
  pk: number;
  clientId: HrTenantId;
  id: string;
  requestNumber: number;
  name: string;
  status: RequestStatus;
  /** The status's place in the lifecycle (created 0 … archived 4). */
  statusRank: number;
  /** 1 low, 2 normal, 3 high. */
  priority: number;
  employeeId: string | null;
  creatorId: string | null;
  creatorKind: PersonKind | null;
  closedById: string | null;
  organizationIds: string[];
  formId: string;
  categoryId: string;
  formData: FormAnswer[];
  dueDate: string | null;
  customStatusId: string | null;
  origin: string;
  readByEmployee: boolean;
  visibleByEmployee: boolean;
  publicCommentCount: number;
  internalCommentCount: number;
  attachmentCount: number;
  /** Lower-case text `q` searches: the number, name, answers, employee numbers. */
  searchText: string;
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
  archivedAt: number | null;
}

/** A new request: its number and searchable text are given out by `insertNext`. */
export type NewRequest = Omit<RequestRecord, 'pk' | 'requestNumber' | 'searchText'>;

/** What a request's update may change. */
export type RequestChanges = Partial<Omit<RequestRecord, 'pk' | 'clientId' | 'id' | 'requestNumber'>>;

function toRecord(row: StoredRequest): RequestRecord {
  return {
    pk: row.pk,
    clientId: hrTenantId(row.client_id),
    id: row.id,
    requestNumber: row.request_number,
    name: row.name,
    status: row.status,
    statusRank: row.status_rank,
    priority: row.priority,
    employeeId: row.employee_id,
    creatorId: row.creator_id,
    creatorKind: row.creator_kind,
    closedById: row.closed_by_id,
    organizationIds: JSON.parse(row.organization_ids) as string[],
    formId: row.form_id,
    categoryId: row.category_id,
    formData: JSON.parse(row.form_data) as FormAnswer[],
    dueDate: row.due_date,
    customStatusId: row.custom_status_id,
    origin: row.origin,
    readByEmployee: row.read_by_employee === 1,
    visibleByEmployee: row.visible_by_employee === 1,
    publicCommentCount: row.public_comment_count,
    internalCommentCount: row.internal_comment_count,
    attachmentCount: row.attachment_count,
    searchText: row.search_text,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    closedAt: row.closed_at,
    archivedAt: row.archived_at,
  };
}

/** The columns of a request's changes: only those `v` has. */
function toColumns(v: RequestChanges): Updateable<PaRequestsTable> {
  const columns: Updateable<PaRequestsTable> = {};
  if (v.name !== undefined) columns.name = v.name;
  if (v.status !== undefined) columns.status = v.status;
  if (v.statusRank !== undefined) columns.status_rank = v.statusRank;
  if (v.priority !== undefined) columns.priority = v.priority;
  if (v.employeeId !== undefined) columns.employee_id = v.employeeId;
  if (v.creatorId !== undefined) columns.creator_id = v.creatorId;
  if (v.creatorKind !== undefined) columns.creator_kind = v.creatorKind;
  if (v.closedById !== undefined) columns.closed_by_id = v.closedById;
  if (v.organizationIds !== undefined) columns.organization_ids = JSON.stringify(v.organizationIds);
  if (v.formId !== undefined) columns.form_id = v.formId;
  if (v.categoryId !== undefined) columns.category_id = v.categoryId;
  if (v.formData !== undefined) columns.form_data = JSON.stringify(v.formData);
  if (v.dueDate !== undefined) columns.due_date = v.dueDate;
  if (v.customStatusId !== undefined) columns.custom_status_id = v.customStatusId;
  if (v.origin !== undefined) columns.origin = v.origin;
  if (v.readByEmployee !== undefined) columns.read_by_employee = v.readByEmployee ? 1 : 0;
  if (v.visibleByEmployee !== undefined) columns.visible_by_employee = v.visibleByEmployee ? 1 : 0;
  if (v.publicCommentCount !== undefined) columns.public_comment_count = v.publicCommentCount;
  if (v.internalCommentCount !== undefined) columns.internal_comment_count = v.internalCommentCount;
  if (v.attachmentCount !== undefined) columns.attachment_count = v.attachmentCount;
  if (v.searchText !== undefined) columns.search_text = v.searchText;
  if (v.createdAt !== undefined) columns.created_at = v.createdAt;
  if (v.updatedAt !== undefined) columns.updated_at = v.updatedAt;
  if (v.closedAt !== undefined) columns.closed_at = v.closedAt;
  if (v.archivedAt !== undefined) columns.archived_at = v.archivedAt;
  return columns;
}

/** A file of a request: an attachment (maybe added with a comment) or a form-field file. */
export interface RequestFileRecord {
  pk: number;
  clientId: HrTenantId;
  id: string;
  requestId: string;
  kind: 'attachment' | 'form_file';
  commentId: string | null;
  fieldId: string | null;
  filename: string;
  sha256: string;
  size: number;
  contentType: string;
  createdAt: number;
}

export type NewRequestFile = Omit<RequestFileRecord, 'pk'>;

function toFileRecord(row: Selectable<PaRequestFilesTable>): RequestFileRecord {
  return {
    pk: row.pk,
    clientId: hrTenantId(row.client_id),
    id: row.id,
    requestId: row.request_id,
    kind: row.kind,
    commentId: row.comment_id,
    fieldId: row.field_id,
    filename: row.filename,
    sha256: row.sha256,
    size: row.size,
    contentType: row.content_type,
    createdAt: row.created_at,
  };
}

function toFileColumns(file: NewRequestFile): Insertable<PaRequestFilesTable> {
  return {
    client_id: file.clientId,
    id: file.id,
    request_id: file.requestId,
    kind: file.kind,
    comment_id: file.commentId,
    field_id: file.fieldId,
    filename: file.filename,
    sha256: file.sha256,
    size: file.size,
    content_type: file.contentType,
    created_at: file.createdAt,
  };
}

/** A comment of a request. */
export interface CommentRecord {
  pk: number;
  clientId: HrTenantId;
  id: string;
  requestId: string;
  creatorId: string | null;
  creatorKind: PersonKind | null;
  content: string;
  isInternal: boolean;
  isInformative: boolean;
  commentSource: string;
  createdAt: number;
}

export type NewComment = Omit<CommentRecord, 'pk'>;

function toCommentRecord(row: Selectable<PaRequestCommentsTable>): CommentRecord {
  return {
    pk: row.pk,
    clientId: hrTenantId(row.client_id),
    id: row.id,
    requestId: row.request_id,
    creatorId: row.creator_id,
    creatorKind: row.creator_kind,
    content: row.content,
    isInternal: row.is_internal === 1,
    isInformative: row.is_informative === 1,
    commentSource: row.comment_source,
    createdAt: row.created_at,
  };
}

function toCommentColumns(comment: NewComment): Insertable<PaRequestCommentsTable> {
  return {
    client_id: comment.clientId,
    id: comment.id,
    request_id: comment.requestId,
    creator_id: comment.creatorId,
    creator_kind: comment.creatorKind,
    content: comment.content,
    is_internal: comment.isInternal ? 1 : 0,
    is_informative: comment.isInformative ? 1 : 0,
    comment_source: comment.commentSource,
    created_at: comment.createdAt,
  };
}

/** A user or an employee, as requests name them. */
export interface PersonRecord {
  kind: PersonKind;
  id: string;
  externalId: string | null;
  firstname: string;
  lastname: string;
  email: string | null;
}

/** A person read from `hr_users` or `hr_employees`. */
function toPerson(
  kind: PersonKind,
  row: { id: string; external_id: string | null; firstname: string; lastname: string; email: string | null },
): PersonRecord {
  return {
    kind,
    id: row.id,
    externalId: row.external_id,
    firstname: row.firstname,
    lastname: row.lastname,
    email: row.email,
  };
}

/** A custom status as a macro's action checks it. */
export interface RequestCustomStatusRecord {
  id: string;
  name: string;
  isActive: boolean;
}

/** Filters as the repository applies them (already parsed and checked by the service). */
export interface RequestFilter {
  statuses?: RequestStatus[];
  priorities?: number[];
  formIds?: string[];
  categoryIds?: string[];
  customStatusIds?: string[];
  organizationIds?: string[];
  employeeId?: string;
  creatorId?: string;
  assigneeId?: string;
  /** [since, until) in epoch ms, per timestamp column. */
  ranges?: { column: 'created_at' | 'updated_at' | 'closed_at' | 'archived_at'; since?: number; until?: number }[];
  q?: string;
}

export interface RequestSort {
  field: 'request_number' | 'name' | 'status' | 'priority' | 'created_at' | 'updated_at';
  direction: 'asc' | 'desc';
}

/** What each sortable field orders by (`status` by its rank in the lifecycle), then the internal key. */
const ORDER: ListOrder<RequestSort['field']> = {
  fields: {
    request_number: 'r.request_number',
    name: 'r.name',
    status: 'r.status_rank',
    priority: 'r.priority',
    created_at: 'r.created_at',
    updated_at: 'r.updated_at',
  },
  tiebreak: 'r.pk',
};

/** The columns `ORDER` reads a row's keys from, in any of its sorts: derived, so that a new sort field is one line. */
const ORDER_COLUMNS = [
  ...new Set([...Object.values(ORDER.fields ?? {}), ORDER.tiebreak]),
] as `r.${keyof PaRequestsTable}`[];

/** Comments: newest first (`pk` is unique and grows with time). */
const COMMENT_ORDER: ListOrder = { fixed: [{ term: 'c.pk', direction: 'desc' }] };
/** Linked requests: newest first. */
const LINKED_ORDER: ListOrder = { fixed: [{ term: 'r.created_at', direction: 'desc' }], tiebreak: 'r.pk' };

function escapeLike(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

// The reads of every request view, prepared once (src/platform/db/prepared.ts).
const filesOf = prepared((db: Db, p: { clientId: HrTenantId; ids: string[] }) =>
  new Tenant<Tables>(db, p.clientId)
    .selectFrom('pa_request_files')
    .selectAll()
    .where('request_id', 'in', p.ids)
    .orderBy('pk'),
);
const usersNamed = prepared((db: Db, p: { clientId: HrTenantId; ids: string[] }) =>
  new Tenant<Tables>(db, p.clientId)
    .selectFrom('hr_users')
    .select(['id', 'external_id', 'firstname', 'lastname', 'email'])
    .where('id', 'in', p.ids),
);
const employeesNamed = prepared((db: Db, p: { clientId: HrTenantId; ids: string[] }) =>
  new Tenant<Tables>(db, p.clientId)
    .selectFrom('hr_employees')
    .select(['id', 'external_id', 'firstname', 'lastname', 'email'])
    .where('id', 'in', p.ids),
);
const customStatusesNamed = prepared((db: Db, p: { clientId: HrTenantId; ids: string[] }) =>
  new Tenant<Tables>(db, p.clientId).selectFrom('pa_custom_statuses').select(['id', 'name']).where('id', 'in', p.ids),
);
const categoriesNamed = prepared((db: Db, p: { clientId: HrTenantId; ids: string[] }) =>
  new Tenant<Tables>(db, p.clientId)
    .selectFrom('pa_kb_categories')
    .select(['id', 'localized_name', 'original_language_code'])
    .where('id', 'in', p.ids),
);

/** What a request takes from its employee's registrations: their organizations, and their numbers to search. */
export interface EmployeeRegistrations {
  organizationIds: string[];
  numbers: string[];
}

/** The registrations' `[organization_id, employee_number, active]`, in their order. */
function registrationsOf(rows: readonly (readonly [string, string, number])[]): EmployeeRegistrations {
  // Like a document's: the active registrations' organizations (all of them for a terminated employee).
  const active = rows.filter((r) => r[2] === 1);
  return {
    organizationIds: [...new Set((active.length ? active : rows).map((r) => r[0]))],
    numbers: rows.map((r) => r[1]),
  };
}

/** A request with what its presentation reads besides the people: its files and the names it shows. */
export interface StoredRequestView {
  row: RequestRecord;
  files: RequestFileRecord[];
  customStatusName: string | null;
  categoryName: string;
}

/** A request's row read with {@link requestViewColumns} beside it, as a view. */
function storedView(
  found: Selectable<PaRequestsTable> & {
    view_files: string;
    view_custom_status_name: string | null;
    view_category_name: string;
  },
): StoredRequestView {
  const { view_files, view_custom_status_name, view_category_name, ...row } = found;
  return {
    row: toRecord(row),
    files: (JSON.parse(view_files) as Selectable<PaRequestFilesTable>[]).map(toFileRecord),
    customStatusName: view_custom_status_name,
    categoryName: view_category_name,
  };
}

/** The client's counter moved on by one (created at 1), answering the new number. Locks the row. */
function nextNumber(db: QueryCreator<Tables>, clientId: unknown) {
  return db
    .insertInto('pa_request_counters')
    .values({ client_id: clientId as string, last_number: 1 })
    .onConflict((oc) =>
      oc.column('client_id').doUpdateSet({ last_number: sql<number>`pa_request_counters.last_number + 1` }),
    )
    .returning('last_number');
}

/**
 * `insertNext` on PostgreSQL, compiled once per number of organizations: the counter, the request (its columns as
 * `c_<column>`, its `search_text` the number and `tail`) and its organizations (`orgs`) chained with `with`, and
 * the request's view read from the inserted row. A `with` insert runs whether or not the statement reads it.
 */
const createdOnPostgres = prepared((db: Db, p: PreparedParams) => {
  const orgs = p.orgs as unknown[];
  const columns: Record<string, unknown> = {};
  for (const name of Object.keys(p)) if (name.startsWith('c_')) columns[name.slice(2)] = p[name];
  const numbered = db.with('counter', (qc) => nextNumber(qc, p.c_client_id));
  const start = orgs.length
    ? (numbered.with('o', (qc) =>
        qc
          .insertInto('pa_request_organizations')
          .values(
            orgs.map((o) => ({
              client_id: p.c_client_id as string,
              request_id: p.c_id as string,
              organization_id: o as string,
            })),
          )
          .returning('request_id'),
      ) as unknown as typeof numbered)
    : numbered;
  return start
    .with('r', (qc) =>
      qc
        .insertInto('pa_requests')
        .values({
          ...(columns as unknown as Insertable<PaRequestsTable>),
          request_number: sql<number>`(select last_number from counter)`,
          search_text: sql<string>`(select cast(last_number as text) from counter) || ${p.tail}`,
        })
        .returningAll(),
    )
    .selectFrom('r')
    .selectAll('r')
    .select(requestViewColumns('postgres'));
});

/** One request with its files and names, in one statement (`requestViewColumns`). */
const viewOf = prepared((db: Db, p: { clientId: HrTenantId; id: string }) =>
  new Tenant<Tables>(db, p.clientId)
    .selectFrom('pa_requests as r')
    .selectAll('r')
    .select(requestViewColumns(dialectOf(db)))
    .where('r.id', '=', p.id),
);

/**
 * The requests a filter keeps, of one client. `patterns` are the search's words as LIKE patterns
 * ({@link searchPatterns}): apart from the filter, so that a prepared page passes them on as values.
 */
function filteredRequests(db: Db, clientId: HrTenantId, f: Omit<RequestFilter, 'q'>, patterns: string[] | undefined) {
  let q = new Tenant<Tables>(db, clientId).selectFrom('pa_requests as r');
  if (f.statuses) q = q.where('r.status', 'in', f.statuses);
  if (f.priorities) q = q.where('r.priority', 'in', f.priorities);
  if (f.formIds) q = q.where('r.form_id', 'in', f.formIds);
  if (f.categoryIds) q = q.where('r.category_id', 'in', f.categoryIds);
  if (f.customStatusIds) q = q.where('r.custom_status_id', 'in', f.customStatusIds);
  if (f.employeeId !== undefined) q = q.where('r.employee_id', '=', f.employeeId);
  if (f.creatorId !== undefined) q = q.where('r.creator_id', '=', f.creatorId);
  if (f.organizationIds) {
    const orgs = f.organizationIds;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('pa_request_organizations as o')
          .select('o.request_id')
          .whereRef('o.request_id', '=', 'r.id')
          .where('o.organization_id', 'in', orgs),
      ),
    );
  }
  if (f.assigneeId !== undefined) {
    const user = f.assigneeId;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('pa_request_assignees as a')
          .select('a.request_id')
          .whereRef('a.request_id', '=', 'r.id')
          .where('a.user_id', '=', user),
      ),
    );
  }
  for (const range of f.ranges ?? []) {
    if (range.since !== undefined) q = q.where(`r.${range.column}`, '>=', range.since);
    if (range.until !== undefined) q = q.where(`r.${range.column}`, '<', range.until);
  }
  // Every word must appear (in any order) in the request's searchable text.
  for (const pattern of patterns ?? []) q = q.where(sql<boolean>`r.search_text like ${pattern} escape '\\'`);
  return q;
}

/** The search's words as LIKE patterns, each to be found in the request's searchable text. */
function searchPatterns(q: string | undefined): string[] | undefined {
  return q === undefined ? undefined : q.toLowerCase().split(/\s+/).filter(Boolean).map(escapeLike);
}

/** A list page's values: the client, the filters the call has (no others), the ranges' bounds, the search. */
type RequestPageParams = Pick<
  RequestFilter,
  | 'statuses'
  | 'priorities'
  | 'formIds'
  | 'categoryIds'
  | 'customStatusIds'
  | 'organizationIds'
  | 'employeeId'
  | 'creatorId'
  | 'assigneeId'
> & { clientId: HrTenantId; bounds?: number[]; patterns?: string[] };

const PAGE_FILTERS = [
  'statuses',
  'priorities',
  'formIds',
  'categoryIds',
  'customStatusIds',
  'organizationIds',
  'employeeId',
  'creatorId',
  'assigneeId',
] as const;

/**
 * A filter as a prepared page's values, and its shape: which filters it has, and each range's column and bounds.
 * A filter it does not have is left out of the values (a prepared query's builder sees every value it is given).
 */
function pageParams(clientId: HrTenantId, f: RequestFilter): { shape: string; params: RequestPageParams } {
  const params: RequestPageParams = { clientId };
  const shape: string[] = [];
  for (const name of PAGE_FILTERS) {
    if (f[name] === undefined) continue;
    Object.assign(params, { [name]: f[name] });
    shape.push(name);
  }
  const bounds: number[] = [];
  for (const range of f.ranges ?? []) {
    shape.push(`${range.column}:${range.since !== undefined}:${range.until !== undefined}`);
    if (range.since !== undefined) bounds.push(range.since);
    if (range.until !== undefined) bounds.push(range.until);
  }
  if (bounds.length > 0) params.bounds = bounds;
  const patterns = searchPatterns(f.q);
  if (patterns) {
    params.patterns = patterns;
    shape.push('q');
  }
  return { shape: shape.join(' '), params };
}

/** The ranges of `f`, each bound taken from `bounds` in {@link pageParams}' order. */
function rangesFrom(f: RequestFilter, bounds: readonly number[] | undefined): RequestFilter['ranges'] {
  let i = 0;
  const next = () => (bounds ?? [])[i++];
  return f.ranges?.map((range) => ({
    column: range.column,
    ...(range.since !== undefined ? { since: next() as number } : {}),
    ...(range.until !== undefined ? { until: next() as number } : {}),
  }));
}

/** The requests list's pages as `jsonPage` reads them, prepared per shape (src/platform/db/listing.ts). */
const jsonPages = new PreparedPages<RequestSort['field'], RequestPageParams, { json: string }>(ORDER);

export class RequestsRepository extends HrRepository {
  /**
   * Inserts a new request under the client's next number (the first is 1), with its organizations, and answers it
   * as {@link findView} reads it. The counter row stays locked until the transaction ends. `search_text` is the
   * number, a space and `searchTail`.
   *
   * On PostgreSQL this is one statement ({@link createdOnPostgres}, built and compiled once per number of
   * organizations): the counter, the request and its organizations chained with `with`, and the request's view read
   * from the inserted row. Each statement sent costs Atrium's process a round trip (issue 23, docs/PERFORMANCE.md).
   * SQLite has no round trips, and no `insert` inside `with`: there it is four.
   */
  async insertNext(
    row: NewRequest,
    searchTail: string,
    organizationIds: readonly string[],
  ): Promise<StoredRequestView> {
    const dialect = dialectOf(this.db);
    const columns = { client_id: row.clientId, id: row.id, ...toColumns(row) };
    if (dialect === 'postgres') {
      const params: PreparedParams = { tail: ` ${searchTail}`, orgs: [...organizationIds] };
      for (const [column, value] of Object.entries(columns)) params[`c_${column}`] = value;
      const created = await createdOnPostgres.first(this.db, params);
      if (!created) throw new Error(`The request ${row.id} was not inserted.`);
      return storedView(created);
    }
    const { last_number } = await nextNumber(this.db, row.clientId).executeTakeFirstOrThrow();
    const number = Number(last_number);
    await this.db
      .insertInto('pa_requests')
      .values({
        ...(columns as Insertable<PaRequestsTable>),
        request_number: number,
        search_text: `${number} ${searchTail}`,
      })
      .execute();
    if (organizationIds.length) {
      await this.db
        .insertInto('pa_request_organizations')
        .values(organizationIds.map((o) => ({ client_id: row.clientId, request_id: row.id, organization_id: o })))
        .execute();
    }
    const found = await this.findView(row.clientId, row.id);
    if (!found) throw new Error(`The request ${row.id} just inserted was not found.`);
    return found;
  }

  async find(clientId: HrTenantId, id: string): Promise<RequestRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('pa_requests')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  existingIds(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'pa_requests', clientId, ids);
  }

  /** Takes the request's row lock (PostgreSQL) so concurrent changes of one request take turns. */
  async lock(clientId: HrTenantId, id: string): Promise<RequestRecord | undefined> {
    await this.tenant(clientId)
      .updateTable('pa_requests')
      .set({ updated_at: sql`updated_at` })
      .where('id', '=', id)
      .execute();
    return this.find(clientId, id);
  }

  async update(clientId: HrTenantId, id: string, changes: RequestChanges): Promise<void> {
    await this.tenant(clientId).updateTable('pa_requests').set(toColumns(changes)).where('id', '=', id).execute();
  }

  /** Adds to the comment and attachment counters in one statement. */
  async bumpCounters(
    clientId: HrTenantId,
    id: string,
    delta: { public?: number; internal?: number; attachments?: number },
    at: number,
  ): Promise<void> {
    await this.tenant(clientId)
      .updateTable('pa_requests')
      .set({
        public_comment_count: sql`public_comment_count + ${delta.public ?? 0}`,
        internal_comment_count: sql`internal_comment_count + ${delta.internal ?? 0}`,
        attachment_count: sql`attachment_count + ${delta.attachments ?? 0}`,
        updated_at: at,
      })
      .where('id', '=', id)
      .execute();
  }

  private filtered(clientId: HrTenantId, f: RequestFilter) {
    return filteredRequests(this.db, clientId, f, searchPatterns(f.q));
  }

  async page(
    clientId: HrTenantId,
    filter: RequestFilter,
    request: PageRequest<RequestSort['field']>,
  ): Promise<Page<RequestRecord>> {
    const page = await listPage(this.filtered(clientId, filter).selectAll('r'), ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  /**
   * A page as `page` reads it, each item its wire JSON built by the database (`requestItemJson`, the presenter's
   * twin in SQL): one statement, and only the order's keys and one string a row made into JavaScript values.
   */
  async jsonPage(
    clientId: HrTenantId,
    filter: RequestFilter,
    request: PageRequest<RequestSort['field']>,
  ): Promise<Page<string>> {
    const { shape, params } = pageParams(clientId, filter);
    const page = await jsonPages.page(
      this.db,
      shape,
      // Branches only on what the shape holds: which filters, and each range's column and bounds.
      (db, p) =>
        filteredRequests(db, p.clientId, { ...p, ranges: rangesFrom(filter, p.bounds) }, p.patterns)
          .select(ORDER_COLUMNS)
          .select(requestItemJson(dialectOf(db)).as('json')),
      params,
      request,
    );
    return { ...page, items: page.items.map((row) => row.json) };
  }

  /** Linked requests of one request, newest first. */
  async linkedPage(clientId: HrTenantId, id: string, request: PageRequest): Promise<Page<RequestRecord>> {
    const base = this.filtered(clientId, {})
      .selectAll('r')
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('pa_request_links as l')
            .select('l.linked_id')
            .where('l.request_id', '=', id)
            .whereRef('l.linked_id', '=', 'r.id'),
        ),
      );
    const page = await listPage(base, LINKED_ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  async link(clientId: HrTenantId, id: string, others: readonly string[], at: number): Promise<void> {
    const rows = others.flatMap((o) => [
      { client_id: clientId, request_id: id, linked_id: o, created_at: at },
      { client_id: clientId, request_id: o, linked_id: id, created_at: at },
    ]);
    if (!rows.length) return;
    await this.db
      .insertInto('pa_request_links')
      .values(rows)
      .onConflict((oc) => oc.columns(['request_id', 'linked_id']).doNothing())
      .execute();
  }

  /** Deletes the request and everything hanging from it; returns the blobs its files held. */
  async delete(clientId: HrTenantId, id: string): Promise<string[]> {
    const files = await this.tenant(clientId)
      .deleteFrom('pa_request_files')
      .where('request_id', '=', id)
      .returning('sha256')
      .execute();
    await this.tenant(clientId).deleteFrom('pa_request_comments').where('request_id', '=', id).execute();
    await this.tenant(clientId).deleteFrom('pa_request_assignees').where('request_id', '=', id).execute();
    await this.tenant(clientId)
      .deleteFrom('pa_request_links')
      .where((eb) => eb.or([eb('request_id', '=', id), eb('linked_id', '=', id)]))
      .execute();
    await this.tenant(clientId).deleteFrom('pa_request_organizations').where('request_id', '=', id).execute();
    await this.tenant(clientId).deleteFrom('pa_requests').where('id', '=', id).execute();
    return [...new Set(files.map((f) => f.sha256))];
  }

  // Files

  async insertFile(file: NewRequestFile): Promise<void> {
    await this.db.insertInto('pa_request_files').values(toFileColumns(file)).execute();
  }

  async files(clientId: HrTenantId, requestIds: readonly string[]): Promise<RequestFileRecord[]> {
    if (!requestIds.length) return [];
    return (await filesOf.all(this.db, { clientId, ids: [...requestIds] })).map(toFileRecord);
  }

  async findFile(clientId: HrTenantId, requestId: string, fileId: string): Promise<RequestFileRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('pa_request_files')
      .selectAll()
      .where('request_id', '=', requestId)
      .where('id', '=', fileId)
      .executeTakeFirst();
    return row ? toFileRecord(row) : undefined;
  }

  async deleteFile(clientId: HrTenantId, fileId: string): Promise<void> {
    await this.tenant(clientId).deleteFrom('pa_request_files').where('id', '=', fileId).execute();
  }

  // Comments

  async insertComment(comment: NewComment): Promise<void> {
    await this.db.insertInto('pa_request_comments').values(toCommentColumns(comment)).execute();
  }

  /** A page of a request's comments, newest first. */
  async commentsPage(clientId: HrTenantId, requestId: string, request: PageRequest): Promise<Page<CommentRecord>> {
    const base = this.tenant(clientId)
      .selectFrom('pa_request_comments as c')
      .selectAll('c')
      .where('c.request_id', '=', requestId);
    const page = await listPage(base, COMMENT_ORDER, request);
    return { ...page, items: page.items.map(toCommentRecord) };
  }

  async findComment(clientId: HrTenantId, requestId: string, commentId: string): Promise<CommentRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('pa_request_comments')
      .selectAll()
      .where('request_id', '=', requestId)
      .where('id', '=', commentId)
      .executeTakeFirst();
    return row ? toCommentRecord(row) : undefined;
  }

  // Assignees

  async assignees(
    clientId: HrTenantId,
    requestId: string,
    offset: number,
    length: number,
  ): Promise<{ ids: string[]; total: number }> {
    const base = this.tenant(clientId).selectFrom('pa_request_assignees').where('request_id', '=', requestId);
    const rows = await base.select('user_id').orderBy('pk').offset(offset).limit(length).execute();
    const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { ids: rows.map((r) => r.user_id), total: Number(total.n) };
  }

  async assign(clientId: HrTenantId, requestId: string, userId: string, at: number, only: boolean): Promise<void> {
    if (only) {
      await this.tenant(clientId)
        .deleteFrom('pa_request_assignees')
        .where('request_id', '=', requestId)
        .where('user_id', '!=', userId)
        .execute();
    }
    await this.db
      .insertInto('pa_request_assignees')
      .values({ client_id: clientId, request_id: requestId, user_id: userId, created_at: at })
      .onConflict((oc) => oc.columns(['request_id', 'user_id']).doNothing())
      .execute();
  }

  /**
   * The request `id` with its files, its custom status's name and its category's name, read in one statement: what
   * `files`, `customStatusNames` and `categoryNames` read in three (a GET's and a write's reread, issue 23).
   */
  async findView(clientId: HrTenantId, id: string): Promise<StoredRequestView | undefined> {
    const found = await viewOf.first(this.db, { clientId, id });
    return found ? storedView(found) : undefined;
  }

  // People

  /** Users and employees by id, for embeds and creators. */
  async people(clientId: HrTenantId, ids: readonly string[]): Promise<Map<string, PersonRecord>> {
    const out = new Map<string, PersonRecord>();
    const unique = [...new Set(ids)];
    if (!unique.length) return out;
    const users = await usersNamed.all(this.db, { clientId, ids: unique });
    for (const u of users) out.set(u.id, toPerson('user', u));
    const employees = await employeesNamed.all(this.db, { clientId, ids: unique });
    for (const e of employees) if (!out.has(e.id)) out.set(e.id, toPerson('employee', e));
    return out;
  }

  /** A user, else an employee, with this id (or external id). */
  /**
   * The first person of `kinds` with this id or external id. With `registrations`, an employee found comes with
   * them, read by the same statement (one round trip, not two: issue 23's writes).
   */
  async person(
    clientId: HrTenantId,
    by: { id?: string; externalId?: string },
    kinds: readonly PersonKind[],
    registrations = false,
  ): Promise<(PersonRecord & { registrations?: EmployeeRegistrations }) | undefined> {
    const dialect = dialectOf(this.db);
    for (const kind of kinds) {
      const table = kind === 'user' ? 'hr_users' : 'hr_employees';
      let q = this.tenant(clientId)
        .selectFrom(`${table} as p`)
        .select(['p.id', 'p.external_id', 'p.firstname', 'p.lastname', 'p.email'])
        .select(
          (kind === 'employee' && registrations
            ? jsonRowsText(
                dialect,
                [sql.ref('g.organization_id'), sql.ref('g.employee_number'), sql.ref('g.active')],
                // tenant-by-hand: the registrations are tied to the row `p`, read through `Tenant`, by its client.
                sql`from hr_employee_registrations g where g.client_id = p.client_id and g.employee_id = p.id`,
                sql.ref('g.position'),
              )
            : sql<string | null>`null`
          ).as('registrations'),
        );
      q = by.id !== undefined ? q.where('p.id', '=', by.id) : q.where('p.external_id', '=', by.externalId ?? '');
      const found = await q.executeTakeFirst();
      if (!found) continue;
      const { registrations: rows, ...row } = found;
      return {
        ...toPerson(kind, row),
        ...(rows !== null ? { registrations: registrationsOf(JSON.parse(rows) as [string, string, number][]) } : {}),
      };
    }
    return undefined;
  }

  /** An employee's organizations and employee numbers (active registrations first). */
  async registrations(clientId: HrTenantId, employeeId: string): Promise<EmployeeRegistrations> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_employee_registrations')
      .select(['organization_id', 'employee_number', 'active'])
      .where('employee_id', '=', employeeId)
      .orderBy('position')
      .execute();
    return registrationsOf(rows.map((r) => [r.organization_id, r.employee_number, r.active]));
  }

  async organizationExists(clientId: HrTenantId, id: string): Promise<boolean> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_organizations')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  async customStatus(clientId: HrTenantId, id: string): Promise<RequestCustomStatusRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('pa_custom_statuses')
      .select(['id', 'name', 'is_active'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? { id: row.id, name: row.name, isActive: row.is_active === 1 } : undefined;
  }

  async customStatusNames(clientId: HrTenantId, ids: readonly string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await customStatusesNamed.all(this.db, { clientId, ids: [...new Set(ids)] });
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** Category names: the value in `languageCode`, else in the category's original language, else the first. */
  async categoryNames(
    clientId: HrTenantId,
    ids: readonly string[],
    languageCode: string,
  ): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await categoriesNamed.all(this.db, { clientId, ids: [...new Set(ids)] });
    return new Map(
      rows.map((r) => {
        const names = JSON.parse(r.localized_name) as { language_code: string; value: string }[];
        const name =
          names.find((n) => n.language_code === languageCode) ??
          names.find((n) => n.language_code === r.original_language_code) ??
          names[0];
        return [r.id, name?.value ?? r.id];
      }),
    );
  }

  /** The roles of a user (through their profiles). */
  async rolesOf(clientId: HrTenantId, userId: string): Promise<string[]> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_user_profiles')
      .select('role_id')
      .where('user_id', '=', userId)
      .execute();
    return [...new Set(rows.map((r) => r.role_id))];
  }
}
