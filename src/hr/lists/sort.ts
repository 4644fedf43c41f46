import { Type } from '@sinclair/typebox';
import type { KeysetPosition } from '../../platform/db/keyset.js';
import type { HrTenantId } from '../../platform/db/tenant.js';
import { InvalidRequestError } from '../../platform/errors.js';
import type { CommaList } from '../../platform/lists.js';
import type { ListScope, Paginator } from './pagination.js';

/** One key of a `sort` parameter: `+name` or `name` ascending, `-name` descending. */
export interface SortKey<F extends string> {
  field: F;
  direction: 'asc' | 'desc';
}

/** One term of a `sort` parameter: `field` or `+field` (ascending), `-field` (descending). */
export type SortTerm<F extends string> = F | `+${F}` | `-${F}`;

/** The `sort` query parameter of a list that takes a comma-separated list of `+/-field`. */
export function SortQuery<const F extends string>(fields: readonly F[], defaultSort: string) {
  return Type.Optional(
    Type.Unsafe<CommaList<SortTerm<F>>>(
      Type.String({
        maxLength: 200,
        description: `Comma-separated keys, each \`+field\` (ascending) or \`-field\` (descending), among: ${fields.join(', ')}. Default \`${defaultSort}\`.`,
      }),
    ),
  );
}

/** Parses a `sort` value; an unknown field or a repeated one is a 400 naming it. */
export function parseSort<F extends string>(
  text: string | undefined,
  fields: readonly F[],
  defaultSort: string,
): SortKey<F>[] {
  const keys: SortKey<F>[] = [];
  for (const raw of (text ?? defaultSort).split(',')) {
    const part = raw.trim();
    const direction = part.startsWith('-') ? 'desc' : 'asc';
    const field = part.replace(/^[+-]/, '') as F;
    if (!fields.includes(field)) {
      throw new InvalidRequestError(
        `Invalid query parameter "sort": "${part}" is not one of ${fields.map((f) => `+/-${f}`).join(', ')}.`,
      );
    }
    if (keys.some((k) => k.field === field)) {
      throw new InvalidRequestError(`Invalid query parameter "sort": "${field}" is given twice.`);
    }
    keys.push({ field, direction });
  }
  return keys;
}

/** A stable name of a sort, to bind cursors to it (a cursor of one order is unknown in another). */
export function sortName(keys: readonly SortKey<string>[]): string {
  return keys.map((k) => `${k.direction === 'asc' ? '+' : '-'}${k.field}`).join(',');
}

/** What a sorted list with `page` or `cursor` needs: the sort, the cursor scope, the page size and where to start. */
export interface SortedListParams<F extends string> {
  sort: SortKey<F>[];
  scope: ListScope;
  limit: number;
  at: { position?: KeysetPosition; offset?: number };
}

/**
 * Reads `sort`, `per_page`, `cursor` and `page` of a list whose cursors are bound to its sort. A cursor wins
 * over `page`; `page` (1-based) starts at that offset.
 */
export function sortedListParams<F extends string>(
  paginator: Paginator,
  query: { sort?: string; per_page?: number; cursor?: string; page?: number },
  clientId: HrTenantId,
  list: string,
  fields: readonly F[],
  defaultSort: string,
): SortedListParams<F> {
  const sort = parseSort(query.sort, fields, defaultSort);
  const scope = { clientId, list: `${list}:${sortName(sort)}`, keyCount: sort.length + 1 };
  const { limit, position } = paginator.params(
    { ...(query.per_page ? { per_page: query.per_page } : {}), ...(query.cursor ? { cursor: query.cursor } : {}) },
    scope,
  );
  const at = position ? { position } : { offset: query.page ? (query.page - 1) * limit : 0 };
  return { sort, scope, limit, at };
}
