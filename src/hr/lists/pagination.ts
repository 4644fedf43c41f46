import { HEADERS } from '@atrium/client/wire';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KeysetPosition, Page } from '../../platform/db/keyset.js';
import type { HrTenantId } from '../../platform/db/tenant.js';
import { InvalidRequestError } from '../../platform/errors.js';
import { type CursorCodec, MAX_CURSOR_LENGTH } from './cursor.js';

/**
 * The HR API's one pagination component: every list takes these query
 * parameters and answers with `Link`, `Next-Cursor` and `Previous-Cursor`.
 */
export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

export const PaginationQuery = {
  per_page: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PER_PAGE,
      default: DEFAULT_PER_PAGE,
      description: `Items per page (default ${DEFAULT_PER_PAGE}, at most ${MAX_PER_PAGE}: a larger value is served as ${MAX_PER_PAGE}, or refused with ATRIUM_STRICT=1).`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      pattern: '^[0-9]+$',
      maxLength: MAX_CURSOR_LENGTH,
      description: 'A value of a previous `Next-Cursor` or `Previous-Cursor` header.',
    }),
  ),
};

export const PaginationHeaders = Type.Object({
  Link: Type.Optional(Type.String({ description: 'RFC 8288 links with rel="next" and rel="previous".' })),
  'Next-Cursor': Type.Optional(Type.String({ description: 'Cursor of the next page; absent on the last page.' })),
  'Previous-Cursor': Type.Optional(
    Type.String({ description: 'Cursor of the previous page; absent on the first page.' }),
  ),
});

/** Query parameters a `Link` never repeats: the old cursor, and the credential the bearer guard accepts. */
const LINK_DROPPED_PARAMETERS = ['cursor', 'access_token'];

export interface PageParams {
  limit: number;
  position?: KeysetPosition;
}

/**
 * What a list needs to know to read and write its cursors: a scope that ties
 * them to one caller and one list, and how many sort keys a position holds.
 */
export interface ListScope {
  clientId: HrTenantId;
  list: string;
  /** Checked when given; lists read through `hr/lists/list.ts` check it against their declared order instead. */
  keyCount?: number;
}

function scopeKey(scope: ListScope): string {
  return `${scope.clientId}:${scope.list}`;
}

export class Paginator {
  constructor(private readonly codec: CursorCodec) {}

  /** Reads `per_page` and `cursor` (already schema-checked); an unknown cursor is a 400 naming it. */
  params(query: { per_page?: number; cursor?: string }, scope: ListScope): PageParams {
    const limit = query.per_page ?? DEFAULT_PER_PAGE;
    if (query.cursor === undefined) return { limit };
    const position = this.codec.decode(query.cursor, scopeKey(scope), scope.keyCount);
    if (!position) throw new InvalidRequestError('Invalid query parameter "cursor": unknown cursor.');
    return { limit, position };
  }

  /** The position a cursor of this client's list scope stands for; an unknown cursor is a 400 naming it. */
  position(cursor: string, clientId: HrTenantId, list: string): KeysetPosition {
    const position = this.codec.decode(cursor, scopeKey({ clientId, list }));
    if (!position) throw new InvalidRequestError('Invalid query parameter "cursor": unknown cursor.');
    return position;
  }

  /**
   * Sets the cursor headers of a page: relative links keep every other query parameter the caller sent,
   * except a credential: an `access_token` sent in the query never goes into a link (links get logged, cached,
   * shared); the caller authenticates the next call as it did this one.
   */
  present<T>(request: FastifyRequest, reply: FastifyReply, page: Page<T>, scope: ListScope): T[] {
    const url = request.url;
    const mark = url.indexOf('?');
    const path = mark < 0 ? url : url.slice(0, mark);
    const kept = new URLSearchParams(mark < 0 ? '' : url.slice(mark + 1));
    for (const name of LINK_DROPPED_PARAMETERS) kept.delete(name);
    // The page size this page was served with: a `per_page` above the maximum was clamped (docs/hr-api.md).
    const perPage = (request.query as { per_page?: unknown } | undefined)?.per_page;
    if (typeof perPage === 'number' && kept.has('per_page')) kept.set('per_page', String(perPage));
    const link = (cursor: string): string => {
      const params = new URLSearchParams(kept);
      params.append('cursor', cursor);
      return `${path}?${params.toString()}`;
    };
    const links: string[] = [];
    if (page.next) {
      const cursor = this.codec.encode(page.next, scopeKey(scope));
      reply.header(HEADERS.nextCursor, cursor);
      links.push(`<${link(cursor)}>; rel="next"`);
    }
    if (page.previous) {
      const cursor = this.codec.encode(page.previous, scopeKey(scope));
      reply.header(HEADERS.previousCursor, cursor);
      links.push(`<${link(cursor)}>; rel="previous"`);
    }
    if (links.length) reply.header(HEADERS.link, links.join(', '));
    return page.items;
  }
}
