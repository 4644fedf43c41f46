import { HEADERS } from '@atrium/client/wire';
import { type Static, type TObject, type TSchema, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Page } from '../../platform/db/keyset.js';
import type { PageRequest } from '../../platform/db/listing.js';
import type { HrTenantId } from '../../platform/db/tenant.js';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { errorResponses } from '../errors.js';
import { countRoute } from './count.js';
import type { ListDeclaration } from './declaration.js';
import { DEFAULT_PER_PAGE, PaginationHeaders, type Paginator } from './pagination.js';
import { parseSort, SortQuery, sortName } from './sort.js';

/**
 * Lists of the HR API: one way to read a list's page parameters and one route helper, over the list's
 * declaration (`declaration.ts`) and its order (`platform/db/listing.ts`).
 */
/** The `sort` query parameter of a sortable list, described from its declaration. */
export function sortQueryOf<F extends string>(list: ListDeclaration<F>) {
  return SortQuery(list.sortFields, list.defaultSort);
}

/** The page parameters a list reads (already checked by its querystring schema). */
export interface PageQuery {
  per_page?: number | undefined;
  cursor?: string | undefined;
  page?: number | undefined;
  sort?: string | undefined;
}

/** One page's request, and the scope its cursors are written in. */
export interface ListCall<F extends string> {
  request: PageRequest<F>;
  scope: string;
}

/**
 * Reads a list's page parameters: `sort` (a 400 naming an unknown or repeated field), `per_page`, `cursor` (a
 * 400 for a cursor unknown in this scope) and `page` (1-based; a cursor wins over it). `qualifier` narrows the
 * cursor scope for lists under a parent (`linked_requests:<id>`) or with a mode of their own.
 */
export function listCall<F extends string>(
  paginator: Paginator,
  list: ListDeclaration<F>,
  clientId: HrTenantId,
  query: PageQuery,
  qualifier?: string,
): ListCall<F> {
  const sort = list.defaultSort === '' ? [] : parseSort(query.sort, list.sortFields, list.defaultSort);
  let scope = qualifier === undefined ? list.name : `${list.name}:${qualifier}`;
  if (sort.length) scope = `${scope}:${sortName(sort)}`;
  const limit = query.per_page ?? DEFAULT_PER_PAGE;
  const position = query.cursor === undefined ? undefined : paginator.position(query.cursor, clientId, scope);
  const at = position ? { position } : query.page ? { offset: (query.page - 1) * limit } : {};
  return { request: { limit, sort, at }, scope };
}

/** Writes a page's `Link`, `Next-Cursor` and `Previous-Cursor` headers and answers its items. */
export function sendPage<T>(
  paginator: Paginator,
  request: FastifyRequest,
  reply: FastifyReply,
  page: Page<T>,
  scope: string,
): T[] {
  return paginator.present(request, reply, page, { clientId: request.hrAuth.clientId, list: scope });
}

/**
 * Answers a page's items that are already wire JSON (built by the database) as one JSON array, sent as it is: the
 * route's response schema documents it, and neither presenter nor serializer touches it.
 */
export function sendJsonItems(reply: FastifyReply, items: readonly string[]): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(`[${items.join(',')}]`);
}

export interface ListRouteOptions<Q extends TObject, F extends string> {
  path: string;
  tags: string[];
  summary: string;
  description?: string;
  deprecated?: boolean;
  querystring: Q;
  /** The schema of one item on the wire (usually a `Type.Ref`). */
  item: TSchema;
  list: ListDeclaration<F>;
  /** Error statuses besides 400 and 401 (default 403 and 422). */
  errors?: number[];
  /** `HEAD <path>` counts the list with the same filters, with this summary. */
  count?: string;
  /** The count's querystring, when it differs from the list's (the filters without the page parameters). */
  countQuerystring?: TObject;
  /** Every page also answers the list's count in `X-Total-Count` (the reference's page-numbered lists). */
  totalCount?: boolean;
  /** Narrows the cursor scope per request (a parent's id, a mode). */
  qualifier?: (request: FastifyRequest<{ Querystring: Static<Q> }>) => string | undefined;
  /** The path parameters' schema: required when the path has any (the server refuses such a route without one). */
  params?: TObject;
  /** Extra route options (`config`, `headers` schema). */
  config?: Record<string, unknown>;
  headers?: TSchema;
}

export interface ListRouteHandlers<Q extends TObject, F extends string, T> {
  page(
    clientId: HrTenantId,
    query: Static<Q>,
    request: PageRequest<F>,
    http: FastifyRequest<{ Querystring: Static<Q> }>,
  ): Promise<Page<T>>;
  present(item: T, query: Static<Q>): unknown;
  count?(clientId: HrTenantId, query: Static<Q>): Promise<number>;
}

/**
 * Registers `GET <path>`, a cursor-paginated list (and its `HEAD` count when `count` is given): the one list
 * route of the HR API. The handler only reads a page with the tenant's filters; sort, page size, cursors and
 * headers are done here.
 */
export function listRoute<Q extends TObject, F extends string, T>(
  app: FastifyInstance,
  paginator: Paginator,
  options: ListRouteOptions<Q, F>,
  handlers: ListRouteHandlers<Q, F, T>,
): void {
  const { count } = handlers;
  if (options.count && count) {
    countRoute(
      app,
      {
        path: options.path,
        tags: options.tags,
        summary: options.count,
        querystring: options.countQuerystring ?? options.querystring,
      },
      // A count query holds the list's filters (a subset of the list query).
      (clientId, query) => count(clientId, query as Static<Q>),
    );
  }
  const errors = options.errors ?? [403, 422];
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    options.path,
    {
      ...(options.config ? { config: options.config } : {}),
      schema: {
        tags: options.tags,
        summary: options.summary,
        ...(options.description ? { description: options.description } : {}),
        ...(options.deprecated ? { deprecated: true } : {}),
        ...(options.headers ? { headers: options.headers } : {}),
        ...(options.params ? { params: options.params } : {}),
        querystring: options.querystring,
        response: {
          200: {
            ...Type.Array(options.item),
            headers: options.totalCount
              ? Type.Composite([
                  PaginationHeaders,
                  Type.Object({ 'X-Total-Count': Type.Integer({ description: 'Number of matching items.' }) }),
                ])
              : PaginationHeaders,
          },
          ...errorResponses(400, 401, ...errors),
        },
      },
    },
    async (request, reply) => {
      const clientId = request.hrAuth.clientId;
      const query = request.query as Static<Q>;
      const typed = request as unknown as FastifyRequest<{ Querystring: Static<Q> }>;
      const call = listCall(paginator, options.list, clientId, query as PageQuery, options.qualifier?.(typed));
      const page = await handlers.page(clientId, query, call.request, typed);
      if (options.totalCount && count) reply.header(HEADERS.totalCount, String(await count(clientId, query)));
      return sendPage(paginator, request, reply, page, call.scope).map((item) => handlers.present(item, query));
    },
  );
}
