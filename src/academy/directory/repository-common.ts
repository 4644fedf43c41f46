/** What the directory's repositories share: list windows and insert chunks. */

/** One window of a list: `start` rows skipped, at most `limit` returned. */
export interface Window {
  start: number;
  limit: number;
}

/** Rows per insert statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 200;

export function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** A JSON array column decoded: its object items (anything else is dropped). */
export function jsonObjects(text: string): Record<string, unknown>[] {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value)
    ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v))
    : [];
}

/** `|a|b|`: the index column a `|value|` LIKE matches one value of (tags, skill ids). */
export const barIndex = (values: (string | number)[]): string =>
  values.length === 0 ? '' : `|${values.map((v) => String(v).toLowerCase()).join('|')}|`;

export interface ListInput {
  start?: number;
  limit?: number;
  search?: string;
}

/** `start` and `limit` as the database takes them: `limit` clamped to the list's maximum, never refused. */
export function listWindow(input: ListInput, max: number, byDefault = 20): Window {
  return {
    // Past this, every list is empty anyway; keeps the offset inside both databases' integer range.
    start: Math.min(input.start ?? 0, 2_147_483_647),
    limit: Math.min(input.limit ?? byDefault, max),
  };
}
