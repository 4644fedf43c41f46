import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { academyErrors } from '../errors.js';
import { Badge } from './content-schemas.js';
import { UserParams } from './learning-schemas.js';
import { presentBadge, presentUser } from './present.js';
import { IdParams, PAGING, TAG, User, UsersQuery } from './schemas.js';
import type { DirectoryService } from './service.js';

export function userRoutes(app: FastifyInstance, directory: DirectoryService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/users',
    {
      schema: {
        tags: TAG,
        summary: 'List users',
        description: `${PAGING} Default limit 20, at most 100.`,
        querystring: UsersQuery,
        response: { 200: Type.Array(User), ...academyErrors(400, 401) },
      },
    },
    async (request) => (await directory.listUsers(request.academy.academyId, request.query)).map(presentUser),
  );

  api.get(
    '/users/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Get a user',
        params: IdParams,
        response: { 200: User, ...academyErrors(401, 404) },
      },
    },
    async (request) => presentUser(await directory.getUser(request.academy.academyId, request.params.id)),
  );

  api.get(
    '/users/:userId/badges',
    {
      schema: {
        tags: TAG,
        summary: 'List a user’s badges',
        description: 'A bare JSON array, not paged.',
        params: UserParams,
        response: { 200: Type.Array(Badge), ...academyErrors(401, 404) },
      },
    },
    async (request) => (await directory.badges(request.academy.academyId, request.params.userId)).map(presentBadge),
  );
}
