import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { formatDateTime } from '../../../platform/time.js';
import { errorResponses } from '../../errors.js';
import { PaginationHeaders, type Paginator } from '../../lists/pagination.js';
import type { UserWithProfiles } from './repository.js';
import { User, UserCountQuery, UserCreate, UserListQuery, UserParams, UserPatch, UserPut } from './schemas.js';
import type { UsersService } from './service.js';

export function presentUser(row: UserWithProfiles): User {
  return {
    id: row.id,
    external_id: row.external_id,
    firstname: row.firstname,
    lastname: row.lastname,
    middlename: row.middlename,
    email: row.email,
    language: row.language,
    timezone: row.timezone,
    mobile_phone_number: row.mobile_phone_number,
    profiles: row.profiles,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}

const TAG = ['Users'];
const LIST = { list: 'users', keyCount: 1 };

export async function userRoutes(
  app: FastifyInstance,
  opts: { users: UsersService; paginator: Paginator },
): Promise<void> {
  const { users, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  // Declared before GET so it replaces Fastify's automatic HEAD route.
  api.head(
    '/users',
    {
      config: { swagger: { exposeHeadRoute: true } },
      schema: {
        tags: TAG,
        summary: 'Count users',
        description: 'Same filters as the list; the count is in `X-Total-Count`.',
        querystring: UserCountQuery,
        response: {
          200: {
            type: 'null',
            description: 'Count in X-Total-Count.',
            headers: Type.Object({ 'X-Total-Count': Type.Integer({ description: 'Number of matching users.' }) }),
          },
          ...errorResponses(400, 401, 403, 422),
        },
      },
    },
    async (request, reply) => {
      const total = await users.count(request.hrAuth.clientId, request.query);
      return reply.header('X-Total-Count', String(total)).status(200).send();
    },
  );

  api.get(
    '/users',
    {
      schema: {
        tags: TAG,
        summary: 'List and search users',
        description: 'HR users and managers, cursor-paginated in creation order.',
        querystring: UserListQuery,
        response: {
          200: { ...Type.Array(Type.Ref(User)), headers: PaginationHeaders },
          ...errorResponses(400, 401, 403, 422),
        },
      },
    },
    async (request, reply) => {
      const scope = { clientId: request.hrAuth.clientId, ...LIST };
      const { limit, position } = paginator.params(request.query, scope);
      const page = await users.list(request.hrAuth.clientId, request.query, limit, position);
      return paginator.present(request, reply, page, scope).map(presentUser);
    },
  );

  api.post(
    '/users',
    {
      schema: {
        tags: TAG,
        summary: 'Create a user',
        description: 'The server generates the id (a UUID v4).',
        body: UserCreate,
        response: { 201: Type.Ref(User), ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(presentUser(await users.create(request.hrAuth.clientId, request.body))),
  );

  api.get(
    '/users/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Get a user',
        params: UserParams,
        response: { 200: Type.Ref(User), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => presentUser(await users.get(request.hrAuth.clientId, request.params.id)),
  );

  api.put(
    '/users/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Update a user',
        description:
          'Replaces every attribute (one left out becomes null) and the whole list of profiles: existing profiles not sent are deleted.',
        params: UserParams,
        body: UserPut,
        response: { 200: Type.Ref(User), ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => presentUser(await users.put(request.hrAuth.clientId, request.params.id, request.body)),
  );

  api.patch(
    '/users/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Update some attributes of a user',
        description: 'Changes only the attributes sent; `profiles`, when sent, is the complete new list.',
        params: UserParams,
        body: UserPatch,
        response: { 200: Type.Ref(User), ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => presentUser(await users.patch(request.hrAuth.clientId, request.params.id, request.body)),
  );
}
