import { type RawBuilder, sql } from 'kysely';
import type { DialectName } from '../../../platform/db/database.js';
import {
  asJsonText,
  jsonArrayOf,
  jsonBoolean,
  jsonDateTime,
  jsonObject,
  localizedValue,
  nested,
  numberAsString,
} from '../../../platform/db/json-sql.js';
import type { PaRequestFilesTable } from './tables.js';

/**
 * `presentRequest` without embeds, written in SQL: the wire JSON of the request row `r`, built by the database in
 * the statement that reads the page (the list's read path, issue 23). It must answer exactly what `presentRequest`
 * answers for the same row; `test/hr/requests-json.test.ts` compares the two on both databases, field by field,
 * and every list test runs through it. A change to one is a change to the other.
 */
export function requestItemJson(dialect: DialectName): RawBuilder<string> {
  let built = builtByDialect[dialect];
  if (!built) {
    built = build(dialect);
    builtByDialect[dialect] = built;
  }
  return built;
}

/** Built once per dialect: the expression is immutable. */
const builtByDialect: Partial<Record<DialectName, RawBuilder<string>>> = {};

/**
 * The name of the row `r`'s custom status: the id when the status is gone, null when `r` has none.
 * tenant-by-hand: the status is tied to the row `r`, read through `Tenant`, by its client.
 */
const customStatusName = sql<string>`coalesce((select s.name from pa_custom_statuses s
  where s.client_id = r.client_id and s.id = r.custom_status_id), r.custom_status_id)`;

/**
 * The name of the row `r`'s category: in en-us, else in the category's original language, else its first (as
 * `RequestsRepository.categoryNames` picks it); the id when the category is gone. tenant-by-hand: the category is
 * tied to the row `r`, read through `Tenant`, by its client.
 */
function categoryName(dialect: DialectName): RawBuilder<string> {
  const name = localizedValue(dialect, sql.ref('c.localized_name'), 'en-us', sql.ref('c.original_language_code'));
  return sql<string>`coalesce((select ${name} from pa_kb_categories c
    where c.client_id = r.client_id and c.id = r.category_id), r.category_id)`;
}

// tenant-by-hand: every subquery below is tied to the row `r` by `client_id = r.client_id`, and `r` is read
// through `Tenant` (the repository's `filtered`): a name or a file of another tenant cannot be reached.
function build(dialect: DialectName): RawBuilder<string> {
  const date = (column: string) => jsonDateTime(dialect, sql.ref(column));
  const orNull = (column: string) => sql`case when ${sql.ref(column)} is null then null else ${date(column)} end`;
  const formFiles = jsonArrayOf(
    dialect,
    jsonObject(dialect, [
      ['id', sql.ref('f.id')],
      ['filename', sql.ref('f.filename')],
      ['field_id', sql.ref('f.field_id')],
    ]),
    sql`from pa_request_files f where f.client_id = r.client_id and f.request_id = r.id and f.kind = 'form_file'`,
    sql.ref('f.pk'),
  );
  const customStatus = sql`case when r.custom_status_id is null then null else ${jsonObject(dialect, [
    ['id', sql.ref('r.custom_status_id')],
    ['name', customStatusName],
  ])} end`;
  const category = jsonObject(dialect, [
    ['id', sql.ref('r.category_id')],
    ['name', categoryName(dialect)],
  ]);
  const zero = sql.lit(0);
  const item = jsonObject(dialect, [
    ['id', sql.ref('r.id')],
    ['request_number', numberAsString(dialect, sql.ref('r.request_number'))],
    ['name', sql.ref('r.name')],
    ['status', sql.ref('r.status')],
    ['priority', numberAsString(dialect, sql.ref('r.priority'))],
    ['employee_id', sql.ref('r.employee_id')],
    ['creator_id', sql.ref('r.creator_id')],
    ['closed_by_id', sql.ref('r.closed_by_id')],
    ['organization_ids', nested(dialect, sql.ref('r.organization_ids'))],
    ['form_id', sql.ref('r.form_id')],
    ['form_data', nested(dialect, sql.ref('r.form_data'))],
    ['form_files', formFiles],
    ['due_date', sql.ref('r.due_date')],
    ['custom_status', nested(dialect, customStatus)],
    ['category', category],
    // Feedback has no client path in the reference (§3d.10), so no request has any.
    ['feedback', sql`null`],
    ['origin', sql.ref('r.origin')],
    ['read_by_employee', jsonBoolean(dialect, sql`r.read_by_employee = 1`)],
    ['public_comment_count', sql.ref('r.public_comment_count')],
    ['internal_comment_count', sql.ref('r.internal_comment_count')],
    ['total_comment_count', sql`r.public_comment_count + r.internal_comment_count`],
    ['public_deleted_comment_count', zero],
    ['internal_deleted_comment_count', zero],
    ['total_deleted_comment_count', zero],
    ['attachment_count', sql.ref('r.attachment_count')],
    ['read_only', jsonBoolean(dialect, sql`r.status = 'archived'`)],
    ['visible_by_employee', jsonBoolean(dialect, sql`r.visible_by_employee = 1`)],
    ['need_edit_by_employee', jsonBoolean(dialect, sql`1 = 0`)],
    ['created_at', date('r.created_at')],
    ['updated_at', date('r.updated_at')],
    ['closed_at', orNull('r.closed_at')],
    ['archived_at', orNull('r.archived_at')],
  ]);
  return asJsonText(dialect, item);
}

/** `columns`, if it names every column of `pa_request_files`: one added to the table and not there fails to compile. */
function everyFileColumn<const C extends readonly (keyof PaRequestFilesTable)[]>(
  columns: C & ([Exclude<keyof PaRequestFilesTable, C[number]>] extends [never] ? unknown : never),
): C {
  return columns;
}

/** Every column of `pa_request_files`: the view's file rows, mapped to `RequestFileRecord` by the repository. */
const FILE_COLUMNS = everyFileColumn([
  'pk',
  'client_id',
  'id',
  'request_id',
  'kind',
  'comment_id',
  'field_id',
  'filename',
  'sha256',
  'size',
  'content_type',
  'created_at',
]);

/**
 * What a request's view reads besides its row, as columns beside `r.*`: its files (a JSON array of file rows, in
 * `pk` order), its custom status's name (the id when the status is gone, null without one) and its category's name
 * in en-us (as `categoryNames` picks it; the id when the category is gone).
 */
// tenant-by-hand: each subquery is tied to the row `r` by `client_id = r.client_id`, and `r` is read through `Tenant`.
export function requestViewColumns(dialect: DialectName) {
  const files = asJsonText(
    dialect,
    sql<string>`${jsonArrayOf(
      dialect,
      jsonObject(
        dialect,
        FILE_COLUMNS.map((c) => [c, sql.ref(`f.${c}`)] as const),
      ),
      sql`from pa_request_files f where f.client_id = r.client_id and f.request_id = r.id`,
      sql.ref('f.pk'),
    )}`,
  );
  return [
    files.as('view_files'),
    sql<string | null>`${customStatusName}`.as('view_custom_status_name'),
    categoryName(dialect).as('view_category_name'),
  ] as const;
}
