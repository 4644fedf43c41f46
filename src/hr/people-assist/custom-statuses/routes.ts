import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { getRoute, upsertRoute } from '../../item-route.js';
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

  const item = { tags: TAG, params: CustomStatusParams, item: full };
  getRoute(
    app,
    { ...item, path: '/custom_status/:id', summary: 'Get a custom status' },
    (clientId, { id }) => customStatuses.get(clientId, id),
    presentCustomStatus,
  );
  upsertRoute(
    app,
    {
      ...item,
      path: '/custom_status/:id',
      summary: 'Create or update a custom status',
      body: CustomStatusPut,
      key: 'status',
    },
    (clientId, { id }, body) => customStatuses.put(clientId, id, body),
    presentCustomStatus,
  );
}
