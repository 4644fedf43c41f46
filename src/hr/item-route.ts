/**
 * The item routes most HR resources share, declared in one place as `listRoute` (lists/list.ts) declares lists:
 * `GET <path>/:id`, which reads one object of the caller's client, and `PUT <path>/:id`, an upsert at a
 * client-chosen id answering 201 when it created the object and 200 when it replaced it; and `DELETE <path>/:id`,
 * answering 204. A route with anything more (headers, a body of another shape, its own status) stays written out
 * in its resource's routes.
 */
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { HrTenantId } from '../platform/db/tenant.js';
import { NoBody } from '../platform/http/no-body.js';
import type { TypeBoxTypeProvider } from '../platform/http/types.js';
import { errorResponses } from './errors.js';

export interface ItemRouteOptions<P extends TObject> {
  /** The item's path, `/custom_status/:id`. */
  path: string;
  tags: string[];
  summary: string;
  description?: string;
  params: P;
  /** A query string the route validates (its handler reads it from the request). */
  querystring?: TObject;
  /** The wire schema of the item (a `Type.Ref`). */
  item: TSchema;
  /** The error statuses it may answer, for the OpenAPI document. */
  errors?: number[];
}

/** The route's schema: its options, the body (an upsert's) and its responses, success first. */
function routeSchema<P extends TObject>(
  options: Omit<ItemRouteOptions<P>, 'item'> & { body?: TSchema },
  success: Record<number, unknown>,
  errors: number[],
) {
  return {
    tags: options.tags,
    summary: options.summary,
    ...(options.description ? { description: options.description } : {}),
    params: options.params,
    ...(options.querystring ? { querystring: options.querystring } : {}),
    ...(options.body ? { body: options.body } : {}),
    response: { ...success, ...errorResponses(...(options.errors ?? errors)) },
  };
}

/** Registers `GET <path>`: `get` reads the item (throwing not-found), `present` maps it to the wire. */
export function getRoute<P extends TObject, T>(
  app: FastifyInstance,
  options: ItemRouteOptions<P>,
  get: (clientId: HrTenantId, params: Static<P>, request: FastifyRequest) => Promise<T>,
  present: (item: T) => unknown,
): void {
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .get(options.path, { schema: routeSchema(options, { 200: options.item }, [401, 403, 404]) }, async (request) =>
      present(await get(request.hrAuth.clientId, request.params as Static<P>, request)),
    );
}

/**
 * Registers `PUT <path>`, an upsert: `put` writes the body at the params' id and answers `{created, [key]: item}`
 * (a service's `{created, status}`); the route answers 201 with the item when it created it, 200 when it replaced
 * it.
 */
export function upsertRoute<P extends TObject, B extends TSchema, K extends string, T>(
  app: FastifyInstance,
  options: ItemRouteOptions<P> & { body: B; key: K },
  put: (
    clientId: HrTenantId,
    params: Static<P>,
    body: Static<B>,
    request: FastifyRequest,
  ) => Promise<{ created: boolean } & { [_ in K]: T }>,
  present: (item: T) => unknown,
): void {
  const { item } = options;
  const described = {
    ...options,
    description: options.description ?? 'An upsert at the id: 201 when created, 200 when updated.',
  };
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .put(
      options.path,
      { schema: routeSchema(described, { 200: item, 201: item }, [400, 401, 403, 422]) },
      async (request, reply) => {
        const result = await put(
          request.hrAuth.clientId,
          request.params as Static<P>,
          request.body as Static<B>,
          request,
        );
        return reply.status(result.created ? 201 : 200).send(present(result[options.key]));
      },
    );
}

/** Registers `DELETE <path>`: `remove` deletes the item (throwing not-found); the route answers 204. */
export function deleteRoute<P extends TObject>(
  app: FastifyInstance,
  options: Omit<ItemRouteOptions<P>, 'item'>,
  remove: (clientId: HrTenantId, params: Static<P>, request: FastifyRequest) => Promise<unknown>,
): void {
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .delete(
      options.path,
      { schema: routeSchema(options, { 204: NoBody }, [401, 403, 404]) },
      async (request, reply) => {
        await remove(request.hrAuth.clientId, request.params as Static<P>, request);
        return reply.status(204).send();
      },
    );
}
