import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentCustomStatus } from './present.js';
import {
  CustomStatus,
  CustomStatusCountQuery,
  CustomStatusList,
  CustomStatusListQuery,
  CustomStatusParams,
  CustomStatusPut,
} from './schemas.js';
import type { CustomStatusesService } from './service.js';

const TAG = ['People Assist: Custom Status'];

/** `/custom_status`: count, list (page or cursor, sort, q), GET and PUT upsert (reference §3d.8). */
export async function customStatusRoutes(
  app: FastifyInstance,
  opts: { customStatuses: CustomStatusesService; paginator: Paginator },
): Promise<void> {
  const { customStatuses, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(CustomStatus);

  listRoute(
    app,
    paginator,
    {
      path: '/custom_status',
      tags: TAG,
      summary: 'List custom statuses',
      description:
        'Sorted by `sort` (default `-updated_at`). Pages with `per_page` and `page`, or with the `cursor` of Link / Next-Cursor / Previous-Cursor.',
      querystring: CustomStatusListQuery,
      item: full,
      list: CustomStatusList,
      errors: [403],
      count: 'Count custom statuses',
      countQuerystring: CustomStatusCountQuery,
    },
    {
      page: (clientId, query, request) => customStatuses.list(clientId, query.q ? { q: query.q } : {}, request),
      count: (clientId, query) => customStatuses.count(clientId, query.q ? { q: query.q } : {}),
      present: presentCustomStatus,
    },
  );

  api.get(
    '/custom_status/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Get a custom status',
        params: CustomStatusParams,
        response: { 200: full, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => presentCustomStatus(await customStatuses.get(request.hrAuth.clientId, request.params.id)),
  );

  api.put(
    '/custom_status/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Create or update a custom status',
        description: 'An upsert at the id: 201 when created, 200 when updated.',
        params: CustomStatusParams,
        body: CustomStatusPut,
        response: { 200: full, 201: full, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      const { status, created } = await customStatuses.put(request.hrAuth.clientId, request.params.id, request.body);
      return reply.status(created ? 201 : 200).send(presentCustomStatus(status));
    },
  );
}
