import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { formatDateTime } from '../../../platform/time.js';
import { errorResponses } from '../../errors.js';
import { countRoute } from '../../lists/count.js';
import { PaginationHeaders, type Paginator } from '../../lists/pagination.js';
import { sortedListParams } from '../../lists/sort.js';
import type { CustomStatusRow } from './repository.js';
import {
  CustomStatus,
  CustomStatusCountQuery,
  CustomStatusListQuery,
  CustomStatusParams,
  CustomStatusPut,
  WORKFLOW_DEFAULT_SORT,
  WORKFLOW_SORT_FIELDS,
} from './schemas.js';
import type { CustomStatusesService } from './service.js';

export function presentCustomStatus(row: CustomStatusRow): CustomStatus {
  return {
    id: row.id,
    name: row.name,
    is_active: row.is_active === 1,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}

const TAG = ['People Assist: Custom Status'];

/** `/custom_status`: count, list (page or cursor, sort, q), GET and PUT upsert (reference §3d.8). */
export async function customStatusRoutes(
  app: FastifyInstance,
  opts: { customStatuses: CustomStatusesService; paginator: Paginator },
): Promise<void> {
  const { customStatuses, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(CustomStatus);

  countRoute(
    app,
    { path: '/custom_status', tags: TAG, summary: 'Count custom statuses', querystring: CustomStatusCountQuery },
    (clientId, query) => customStatuses.count(clientId, query),
  );

  api.get(
    '/custom_status',
    {
      schema: {
        tags: TAG,
        summary: 'List custom statuses',
        description:
          'Sorted by `sort` (default `-updated_at`). Pages with `per_page` and `page`, or with the `cursor` of Link / Next-Cursor / Previous-Cursor.',
        querystring: CustomStatusListQuery,
        response: { 200: { ...Type.Array(full), headers: PaginationHeaders }, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { clientId } = request.hrAuth;
      const p = sortedListParams(
        paginator,
        request.query,
        clientId,
        'custom_status',
        WORKFLOW_SORT_FIELDS,
        WORKFLOW_DEFAULT_SORT,
      );
      const filter = request.query.q ? { q: request.query.q } : {};
      const result = await customStatuses.list(clientId, filter, p.sort, p.limit, p.at);
      return paginator.present(request, reply, result, p.scope).map(presentCustomStatus);
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
