import { type RawBuilder, sql } from 'kysely';
import type { DialectName } from './database.js';

/**
 * JSON built by the database: the pieces a list uses to answer its items as wire JSON in the statement that reads
 * them (issue 23: a page is then one statement and 20 strings, with no row values made and nothing presented or
 * serialised in JavaScript). Each piece is an expression in, an expression out, in either dialect: SQLite's JSON
 * functions, PostgreSQL's `json` type (not `jsonb`, which would reorder the keys).
 *
 * On SQLite a nested object or array keeps its JSON nature only while it is the direct result of a JSON function;
 * `json()` around a subquery's or a `case`'s value restores it (`nested`).
 */

type Expr = RawBuilder<unknown>;

/** An object with these keys, in this order. */
export function jsonObject(dialect: DialectName, entries: readonly (readonly [string, Expr])[]): RawBuilder<string> {
  const parts = sql.join(entries.flatMap(([key, value]) => [sql.lit(key), value]));
  return dialect === 'sqlite' ? sql<string>`json_object(${parts})` : sql<string>`json_build_object(${parts})`;
}

/**
 * A JSON value as the text the driver hands back unparsed (PostgreSQL's driver would parse a `json` column into
 * objects, only for them to be serialised again).
 */
/** A JSON array of `values`, as text on both databases. */
export function jsonArrayText(dialect: DialectName, values: readonly Expr[]): RawBuilder<string> {
  return dialect === 'sqlite'
    ? sql<string>`json_array(${sql.join(values)})`
    : sql<string>`json_build_array(${sql.join(values)})::text`;
}

/**
 * The rows of a subquery as one JSON array of arrays (`[[a, b], …]`, `[]` without rows), as text on both
 * databases: the values of `columns` from `from` (`from … where …`, tied to the outer row), in `orderBy`'s order.
 */
export function jsonRowsText(
  dialect: DialectName,
  columns: readonly Expr[],
  from: Expr,
  orderBy: Expr,
): RawBuilder<string> {
  const row =
    dialect === 'sqlite' ? sql`json_array(${sql.join(columns)})` : sql`json_build_array(${sql.join(columns)})`;
  return asJsonText(dialect, sql<string>`${jsonArrayOf(dialect, row, from, orderBy)}`);
}

export function asJsonText(dialect: DialectName, value: RawBuilder<string>): RawBuilder<string> {
  return dialect === 'sqlite' ? value : sql<string>`(${value})::text`;
}

/** A value that is already JSON (an object, an array, a column of JSON text) placed inside another. */
export function nested(dialect: DialectName, value: Expr): Expr {
  return dialect === 'sqlite' ? sql`json(${value})` : sql`(${value})::json`;
}

/** `true` or `false` from a condition. */
export function jsonBoolean(dialect: DialectName, condition: Expr): Expr {
  return dialect === 'sqlite' ? sql`json(case when ${condition} then 'true' else 'false' end)` : sql`(${condition})`;
}

/** A number as a JSON string (`"3"`). */
export function numberAsString(dialect: DialectName, value: Expr): Expr {
  return dialect === 'sqlite' ? sql`cast(${value} as text)` : sql`(${value})::text`;
}

/**
 * An instant stored as epoch milliseconds as `platform/time.ts`'s `formatDateTime` writes it
 * (`2026-11-29T02:13:07+00:00`, whole seconds), or null.
 */
export function jsonDateTime(dialect: DialectName, epochMs: Expr): Expr {
  return dialect === 'sqlite'
    ? sql`strftime('%Y-%m-%dT%H:%M:%S+00:00', ${epochMs} / 1000, 'unixepoch')`
    : sql`to_char(to_timestamp(floor(${epochMs} / 1000.0)) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"')`;
}

/**
 * A JSON array of `item` over the rows of `from` (a `from … where …` fragment), in `orderBy` order; `[]` when
 * there are none.
 */
export function jsonArrayOf(dialect: DialectName, item: Expr, from: Expr, orderBy: Expr): Expr {
  return dialect === 'sqlite'
    ? sql`json((select json_group_array(${item} order by ${orderBy}) ${from}))`
    : sql`coalesce((select json_agg(${item} order by ${orderBy}) ${from}), '[]'::json)`;
}

/**
 * The `value` of a `[{language_code, value}]` JSON text column in `language` (a literal), else in the language
 * named by `fallbackLanguage`, else the first; null when the array is empty.
 */
export function localizedValue(dialect: DialectName, column: Expr, language: string, fallbackLanguage: Expr): Expr {
  if (dialect === 'sqlite') {
    const pick = (lang: Expr) =>
      sql`(select json_extract(n.value, '$.value') from json_each(${column}) n
        where json_extract(n.value, '$.language_code') = ${lang} order by n.key limit 1)`;
    return sql`coalesce(${pick(sql.lit(language))}, ${pick(fallbackLanguage)}, json_extract(${column}, '$[0].value'))`;
  }
  const pick = (lang: Expr) =>
    sql`(select n.e ->> 'value' from json_array_elements((${column})::json) with ordinality as n(e, i)
      where n.e ->> 'language_code' = ${lang} order by n.i limit 1)`;
  return sql`coalesce(${pick(sql.lit(language))}, ${pick(fallbackLanguage)}, (${column})::json -> 0 ->> 'value')`;
}
