import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { NoBody } from '../../../platform/http/no-body.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { getRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentUser } from './present.js';
import {
  User,
  UserCountQuery,
  UserCreate,
  UserList,
  UserListQuery,
  UserParams,
  UserPatch,
  UserPut,
} from './schemas.js';
import type { UsersService } from './service.js';

const TAG = ['Users'];

export async function userRoutes(
  app: FastifyInstance,
  opts: { users: UsersService; paginator: Paginator },
): Promise<void> {
  const { users, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  // Declared before GET so it replaces Fastify's automatic HEAD route.
  listRoute(
    app,
    paginator,
    {
      path: '/users',
      tags: TAG,
      summary: 'List and search users',
      description: 'HR users and managers, cursor-paginated in creation order.',
      querystring: UserListQuery,
      item: Type.Ref(User),
      list: UserList,
      count: 'Count users',
      countQuerystring: UserCountQuery,
      errors: [403, 422],
    },
    {
      page: (clientId, query, request) => users.list(clientId, query, request),
      count: (clientId, query) => users.count(clientId, query),
      present: presentUser,
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

  getRoute(
    app,
    { path: '/users/:id', tags: TAG, summary: 'Get a user', params: UserParams, item: Type.Ref(User) },
    (clientId, { id }) => users.get(clientId, id),
    presentUser,
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

  api.post(
    '/users/:id/invite',
    {
      schema: {
        tags: TAG,
        summary: 'Send the activation mail to a user',
        description:
          'Records the activation mail in the outbox (`GET /outbox`, kind `user.invitation`): Atrium sends no mail. Each call records one more.',
        params: UserParams,
        response: { 201: NoBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await users.invite(request.hrAuth.clientId, request.params.id);
      return reply.status(201).send();
    },
  );
}
