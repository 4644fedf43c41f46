import type { RawBuilder, SelectQueryBuilder } from 'kysely';
import { InvalidRequestError } from '../errors.js';
import type { Db } from './database.js';
import {
  countRows,
  type KeysetColumn,
  type KeysetPosition,
  type KeyValue,
  keysetPageAt,
  keysetPageOf,
  keysetPageQuery,
  type Page,
} from './keyset.js';
import { type PreparedParams, type PreparedQuery, prepared } from './prepared.js';

/**
 * Lists, storage side. A list is declared once, next to its table: what each sortable field orders by, the fixed
 * order of a list that takes no `sort`, and a unique integer tiebreak. A page is then read from that declaration
 * and a `PageRequest` (size, sort, where to start): the keyset, the key values a cursor carries and the check of a
 * cursor's shape all follow from the one declaration, so they cannot drift apart. Each API turns its own query
 * parameters into a `PageRequest` (the HR API in `hr/lists/`).
 */

/** One key of a sort: a declared field and a direction. */
export interface SortKey<F extends string> {
  field: F;
  direction: 'asc' | 'desc';
}

/** One page to read: its size, its sort (empty for a list's fixed order) and where it starts. */
export interface PageRequest<F extends string = never> {
  limit: number;
  sort: readonly SortKey<F>[];
  /** A cursor's position, or a row offset (the reference's 1-based `page`), or neither for the first page. */
  at: { position?: KeysetPosition; offset?: number };
}

/**
 * What a field or fixed key orders by: a column (`o.name`), or an expression. An expression's key is read with
 * `key` from the row, or else selected by the page query itself (so the cursor holds exactly what the database
 * compared: `lower()` on SQLite is not JavaScript's `toLowerCase()`).
 */
export type OrderTerm = string | { column: string; expression: RawBuilder<unknown>; key?: (row: never) => KeyValue };

export interface ListOrder<F extends string = never> {
  /** What each sortable field orders by: one term, or several (a name sorted by last name, then first name). */
  fields?: { readonly [K in F]: OrderTerm | readonly OrderTerm[] };
  /** The order of a list without `sort` (or the keys that follow the sort), before the tiebreak. */
  fixed?: readonly { term: OrderTerm; direction: 'asc' | 'desc' }[];
  /**
   * A unique integer column (the table's `pk`), last in every order, in the direction of the key before it. Left
   * out only where the fixed order is unique by itself (a grouped list's group keys).
   */
  tiebreak?: string;
}

function nameAfterDot(column: string): string {
  return column.slice(column.indexOf('.') + 1);
}

function columnOf(term: OrderTerm, direction: 'asc' | 'desc'): KeysetColumn {
  return typeof term === 'string'
    ? { column: term, direction }
    : { column: term.column, direction, expression: term.expression };
}

/** The column an expression key without a reader is selected as, by its position in the order. */
const keyColumn = (i: number) => `__atrium_k${i}`;

function keyReader(term: OrderTerm, i: number): (row: Record<string, KeyValue>) => KeyValue {
  if (typeof term !== 'string' && term.key) return term.key as (row: Record<string, KeyValue>) => KeyValue;
  const name = typeof term === 'string' ? nameAfterDot(term) : keyColumn(i);
  return (row) => row[name] as KeyValue;
}

/** The keyset of one sort of a list: its columns in order, how a row's key values are read, what to select. */
export function keysetOf<F extends string, O>(
  order: ListOrder<F>,
  sort: readonly SortKey<F>[],
): {
  columns: KeysetColumn[];
  keysOf: (row: O) => KeyValue[];
  selected: { name: string; expression: RawBuilder<unknown> }[];
} {
  const terms: { term: OrderTerm; direction: 'asc' | 'desc' }[] = [];
  for (const key of sort) {
    const field = order.fields?.[key.field];
    if (field === undefined)
      throw new InvalidRequestError(`Invalid query parameter "sort": "${key.field}" is unknown.`);
    for (const term of Array.isArray(field) ? field : [field as OrderTerm])
      terms.push({ term, direction: key.direction });
  }
  terms.push(...(order.fixed ?? []));
  if (order.tiebreak !== undefined) terms.push({ term: order.tiebreak, direction: terms.at(-1)?.direction ?? 'asc' });
  const readers = terms.map((t, i) => keyReader(t.term, i));
  const selected = terms.flatMap((t, i) =>
    typeof t.term !== 'string' && !t.term.key ? [{ name: keyColumn(i), expression: t.term.expression }] : [],
  );
  return {
    columns: terms.map((t) => columnOf(t.term, t.direction)),
    keysOf: (row) => readers.map((read) => read(row as Record<string, KeyValue>)),
    selected,
  };
}

/**
 * One page of `base` (already filtered and scoped to its tenant) in the declared order. A cursor whose key count
 * is not the order's (a cursor of another sort or another version of the list) is refused as unknown.
 */
export async function listPage<F extends string, DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  order: ListOrder<F>,
  request: PageRequest<F>,
): Promise<Page<O>> {
  const { columns, keysOf, selected } = keysetOf<F, O>(order, request.sort);
  checkPosition(request, columns);
  if (selected.length === 0) return keysetPageAt(base, columns, keysOf, request.limit, request.at);
  const page = await keysetPageAt(withKeys(base, selected), columns, keysOf, request.limit, request.at);
  return withoutKeys(page, selected);
}

/** A cursor whose key count is not the order's (another sort's, another version's) is refused as unknown. */
function checkPosition(request: PageRequest<string>, columns: KeysetColumn[]): void {
  const position = request.at.position;
  if (position && position.keys.length !== columns.length) {
    throw new InvalidRequestError('Invalid query parameter "cursor": unknown cursor.');
  }
}

type Selected = { name: string; expression: RawBuilder<unknown> }[];

/** `base` with the order's expression keys selected, for the cursors. */
function withKeys<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  selected: Selected,
): SelectQueryBuilder<DB, TB, O> {
  let query = base;
  for (const key of selected) query = query.select(key.expression.as(key.name) as never) as typeof base;
  return query;
}

/** The selected keys served the cursors; the rows handed back are the list's own. */
function withoutKeys<O>(page: Page<O>, selected: Selected): Page<O> {
  for (const row of page.items) for (const key of selected) delete (row as Record<string, unknown>)[key.name];
  return page;
}

/** Statements kept per {@link PreparedPages}; past this, a page is read as {@link listPage} reads it. */
const MAX_PREPARED_PAGES = 500;

/**
 * A hot list's pages as prepared queries (src/platform/db/prepared.ts): the page statement is built and compiled
 * once for each shape of call, then run with each call's values. Building and compiling a list's page query cost
 * Kysely about as much as SQLite takes to run it (docs/PERFORMANCE.md).
 *
 * A shape is the caller's `shape` (which filters the call has: the builder may branch on those, and only on those),
 * the sort, the page size and the position's direction; the values are the builder's parameters and the position's
 * keys. A page by row offset (the reference's `page`) takes two statements and is read as `listPage` reads it.
 */
export class PreparedPages<F extends string, P extends PreparedParams, O> {
  private readonly queries = new Map<string, PreparedQuery<P & { atriumKeys: KeyValue[] }, O>>();

  constructor(private readonly order: ListOrder<F>) {}

  async page<DB, TB extends keyof DB>(
    db: Db,
    shape: string,
    base: (db: Db, params: P) => SelectQueryBuilder<DB, TB, O>,
    params: P,
    request: PageRequest<F>,
  ): Promise<Page<O>> {
    const position = request.at.position;
    if (!position && request.at.offset) return listPage(base(db, params), this.order, request);
    const { columns, keysOf, selected } = keysetOf<F, O>(this.order, request.sort);
    checkPosition(request, columns);
    const sort = request.sort.map((k) => `${k.field} ${k.direction}`).join(',');
    const at = position ? `${position.direction} ${position.inclusive}` : 'start';
    const key = `${shape}\n${sort}\n${request.limit}\n${at}`;
    let query = this.queries.get(key);
    if (!query) {
      if (this.queries.size >= MAX_PREPARED_PAGES) return listPage(base(db, params), this.order, request);
      const limit = request.limit;
      query = prepared((db: Db, p: P & { atriumKeys: KeyValue[] }) =>
        keysetPageQuery(
          withKeys(base(db, p), selected),
          columns,
          limit,
          position ? { ...position, keys: p.atriumKeys } : undefined,
        ),
      );
      this.queries.set(key, query);
    }
    const rows = await query.all(db, { ...params, atriumKeys: position?.keys ?? [] });
    const page = await keysetPageOf(
      rows,
      () => withKeys(base(db, params), selected),
      columns,
      keysOf,
      request.limit,
      position,
    );
    return withoutKeys(page, selected);
  }
}

/** How many rows a list's filters match (the HEAD count). */
export function listCount<DB, TB extends keyof DB, O>(base: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  return countRows(base);
}
