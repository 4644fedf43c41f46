import { type RawBuilder, type SqlBool, sql } from 'kysely';

/** `%text%` for LIKE, with `%`, `_` and `\` taken literally. */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * True when any of the columns contains the text, ignoring case, on both
 * dialects (lower() on each side; LIKE with an explicit escape character).
 */
export function containsText(columns: string[], text: string): RawBuilder<SqlBool> {
  const pattern = likePattern(text);
  return sql<SqlBool>`(${sql.join(
    columns.map((c) => sql`lower(${sql.ref(c)}) like ${pattern} escape '\\'`),
    sql` or `,
  )})`;
}
