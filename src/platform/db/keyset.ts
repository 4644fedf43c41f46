import { type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';

/**
 * Keyset ("seek") pagination for any ordered list. A position is the sort
 * key of a boundary row plus a direction, so fetching page 10,000 costs the
 * same index seek as page 1, and rows added or removed between pages are
 * neither repeated nor skipped.
 */

export interface KeysetColumn {
  /** A column reference, table-qualified where needed (`o.pk`). */
  column: string;
  direction: 'asc' | 'desc';
  /** An expression to order by instead of the bare column (for example `lower(coalesce(e.lastname, ''))`). */
  expression?: RawBuilder<unknown>;
}

export type KeyValue = number | string;

export interface KeysetPosition {
  /** Values of the order's columns at the boundary: integers (ids, epoch ms) or text. Never null. */
  keys: KeyValue[];
  /** Rows after the boundary (forward) or before it (backward), in list order. */
  direction: 'after' | 'before';
  /** Whether the boundary row itself belongs to the page. */
  inclusive: boolean;
}

export interface Page<T> {
  items: T[];
  next?: KeysetPosition;
  previous?: KeysetPosition;
}

/** `(c0, c1, …) after/before (k0, k1, …)` in the order's sense, as one boolean expression. */
function expr(col: KeysetColumn): RawBuilder<unknown> {
  return col.expression ?? sql.ref(col.column);
}

function compare(order: KeysetColumn[], keys: KeyValue[], after: boolean, inclusive: boolean): RawBuilder<SqlBool> {
  const first = order[0] as KeysetColumn;
  if (order.every((c) => c.direction === first.direction)) {
    // Every column in one direction: a row-value comparison, `(c0, c1) > (k0, k1)`, which both databases seek on
    // with the list's index. SQLite ran the equivalent OR below about four times slower (a deep cursor's
    // previous-page check: 33 µs against 8 µs; docs/PERFORMANCE.md).
    const op = (first.direction === 'asc') === after ? (inclusive ? '>=' : '>') : inclusive ? '<=' : '<';
    return sql<SqlBool>`((${sql.join(order.map(expr))}) ${sql.raw(op)} (${sql.join(keys.map((k) => sql`${k}`))}))`;
  }
  const alternatives: RawBuilder<unknown>[] = [];
  order.forEach((col, i) => {
    const equal = order.slice(0, i).map((c, j) => sql`${expr(c)} = ${keys[j]}`);
    const ascending = col.direction === 'asc';
    const op = ascending === after ? sql.raw('>') : sql.raw('<');
    alternatives.push(sql`(${sql.join([...equal, sql`${expr(col)} ${op} ${keys[i]}`], sql` and `)})`);
  });
  if (inclusive) {
    alternatives.push(
      sql`(${sql.join(
        order.map((c, j) => sql`${expr(c)} = ${keys[j]}`),
        sql` and `,
      )})`,
    );
  }
  // The first key's bound, implied by the alternatives but spelled out: without it SQLite does not see a range
  // on the index in an OR of bound parameters, and walks the index from the start of the list to the position
  // (a page 90% down 100k rows cost 40 times page 1; docs/PERFORMANCE.md).
  const bound = (first.direction === 'asc') === after ? sql.raw('>=') : sql.raw('<=');
  return sql<SqlBool>`(${expr(first)} ${bound} ${keys[0]} and (${sql.join(alternatives, sql` or `)}))`;
}

/** The page query's extra column: whether a row lies on the other side of the position. */
const BEYOND = '__atrium_beyond';

function opposite(position: KeysetPosition): KeysetPosition {
  return {
    keys: position.keys,
    direction: position.direction === 'after' ? 'before' : 'after',
    inclusive: !position.inclusive,
  };
}

/** At most one row of `base` at `position` (`select 1 … limit 1`): whether any row lies there. */
function anyRowAt<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  order: KeysetColumn[],
  position: KeysetPosition,
) {
  return base
    .clearSelect()
    .select(sql<number>`1`.as('one'))
    .where(compare(order, position.keys, position.direction === 'after', position.inclusive))
    .limit(1);
}

async function exists<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  order: KeysetColumn[],
  position: KeysetPosition,
): Promise<boolean> {
  return (await anyRowAt(base, order, position).executeTakeFirst()) !== undefined;
}

/**
 * The statement of a page of `base` at `position`: the rows past the position in the order's sense, one more than
 * the page holds (to tell whether another page follows), and, at a position, whether any row lies on its other
 * side. Read the page from its rows with {@link keysetPageOf}.
 */
export function keysetPageQuery<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  order: KeysetColumn[],
  limit: number,
  position?: KeysetPosition,
): SelectQueryBuilder<DB, TB, O> {
  const forward = !position || position.direction === 'after';
  let query = base;
  if (position) {
    query = query.where(compare(order, position.keys, forward, position.inclusive));
    // Whether any row lies on the other side of the position, read by the page query itself (one statement, not
    // two): for a page that is not empty, that is whether a row comes before its first row (or, read backwards,
    // after its last). The subquery names the base query's tables again, so it reads only itself.
    const beyond = anyRowAt(base, order, opposite(position));
    query = query.select(sql<boolean | number>`exists ${beyond}`.as(BEYOND) as never);
  }
  for (const col of order) {
    const dir = (col.direction === 'asc') === forward ? 'asc' : 'desc';
    query = query.orderBy(expr(col), dir);
  }
  // The page size is a literal, not a parameter: given `limit ?`, SQLite plans for any number of rows. On the
  // bench's 100k requests a page of 20 cost 19–22% less server CPU with it (docs/PERFORMANCE.md, "Literal page
  // sizes"). Each page size is then a statement of its own in the statement cache; `per_page` is bounded.
  return query.limit(sql.lit(limit + 1));
}

/**
 * The page that {@link keysetPageQuery}'s rows make, and where the next and previous pages start. `base` is asked
 * for only when the page is empty at a position, to look for rows on the position's other side.
 */
export async function keysetPageOf<DB, TB extends keyof DB, O>(
  rows: O[],
  base: () => SelectQueryBuilder<DB, TB, O>,
  order: KeysetColumn[],
  keysOf: (row: O) => KeyValue[],
  limit: number,
  position?: KeysetPosition,
): Promise<Page<O>> {
  const forward = !position || position.direction === 'after';
  const more = rows.length > limit;
  const items = rows.slice(0, limit);
  if (!forward) items.reverse();
  // True or 1 (PostgreSQL, SQLite) on every row alike; the column is removed from the rows handed back.
  const beyondPosition = position && rows.length > 0 ? Boolean((rows[0] as Record<string, unknown>)[BEYOND]) : false;
  if (position) for (const row of rows) delete (row as Record<string, unknown>)[BEYOND];

  const first = items[0];
  const last = items[items.length - 1];
  const page: Page<O> = { items };
  const after = (row: O): KeysetPosition => ({ keys: keysOf(row), direction: 'after', inclusive: false });
  const before = (row: O): KeysetPosition => ({ keys: keysOf(row), direction: 'before', inclusive: false });

  if (forward) {
    if (more && last) page.next = after(last);
    if (position) {
      if (first) {
        if (beyondPosition) page.previous = before(first);
      } else if (await exists(base(), order, opposite(position))) {
        page.previous = opposite(position);
      }
    }
  } else {
    if (more && first) page.previous = before(first);
    if (last) {
      if (beyondPosition) page.next = after(last);
    } else if (await exists(base(), order, opposite(position as KeysetPosition))) {
      page.next = opposite(position as KeysetPosition);
    }
  }
  return page;
}

/**
 * Fetches one page of `base` (already filtered and scoped to a tenant) at
 * `position`, and works out where the next and previous pages start.
 */
export async function keysetPage<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  order: KeysetColumn[],
  keysOf: (row: O) => KeyValue[],
  limit: number,
  position?: KeysetPosition,
): Promise<Page<O>> {
  const rows = await keysetPageQuery(base, order, limit, position).execute();
  return keysetPageOf(rows, () => base, order, keysOf, limit, position);
}

/**
 * A page that starts at a row offset (the reference's 1-based `page` parameter): the boundary row before the
 * offset is found once, by offset, and the page is then read by keyset from it, so its cursors work as usual.
 * Past the end, the page is empty and points back to the last row.
 */
export async function keysetPageAtOffset<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  order: KeysetColumn[],
  keysOf: (row: O) => KeyValue[],
  limit: number,
  offset: number,
): Promise<Page<O>> {
  if (offset <= 0) return keysetPage(base, order, keysOf, limit);
  let query = base;
  for (const col of order) query = query.orderBy(expr(col), col.direction);
  const boundary = await query
    .offset(offset - 1)
    .limit(1)
    .executeTakeFirst();
  if (boundary)
    return keysetPage(base, order, keysOf, limit, { keys: keysOf(boundary), direction: 'after', inclusive: false });
  let last = base;
  for (const col of order) last = last.orderBy(expr(col), col.direction === 'asc' ? 'desc' : 'asc');
  const row = await last.limit(1).executeTakeFirst();
  return row ? { items: [], previous: { keys: keysOf(row), direction: 'before', inclusive: true } } : { items: [] };
}

/**
 * The keyset of a list sorted by the caller's keys: each key's column in its direction, then `tiebreak`
 * (a unique integer column) in the last key's direction, so `-updated_at` lists equal instants newest first. `keysOf` reads a row's values by each column's name after the dot.
 */
export function sortedKeyset<O>(
  keys: readonly { column: string; direction: 'asc' | 'desc' }[],
  tiebreak: string,
): { order: KeysetColumn[]; keysOf: (row: O) => KeyValue[] } {
  const order: KeysetColumn[] = [
    ...keys.map((k) => ({ column: k.column, direction: k.direction })),
    { column: tiebreak, direction: keys.at(-1)?.direction ?? 'asc' },
  ];
  const names = order.map((c) => c.column.slice(c.column.indexOf('.') + 1));
  return { order, keysOf: (row) => names.map((n) => (row as Record<string, KeyValue>)[n] as KeyValue) };
}

/** One page at a cursor position, or at a row offset (the reference's `page`) when there is no cursor. */
export function keysetPageAt<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  order: KeysetColumn[],
  keysOf: (row: O) => KeyValue[],
  limit: number,
  at: { position?: KeysetPosition; offset?: number },
): Promise<Page<O>> {
  if (!at.position && at.offset) return keysetPageAtOffset(base, order, keysOf, limit, at.offset);
  return keysetPage(base, order, keysOf, limit, at.position);
}

/** How many rows a filtered query matches. */
export async function countRows<DB, TB extends keyof DB, O>(base: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  const row = (await base.clearSelect().select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()) as {
    n: number | string;
  };
  return Number(row.n);
}
