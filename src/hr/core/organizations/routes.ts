import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { getRoute, upsertRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentOrganization } from './present.js';
import {
  Organization,
  OrganizationCountQuery,
  OrganizationList,
  OrganizationListQuery,
  OrganizationParams,
  OrganizationPatch,
  OrganizationPut,
} from './schemas.js';
import type { OrganizationsService } from './service.js';

const TAG = ['Organizations'];

export async function organizationRoutes(
  app: FastifyInstance,
  opts: { organizations: OrganizationsService; paginator: Paginator },
): Promise<void> {
  const { organizations, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  listRoute(
    app,
    paginator,
    {
      path: '/organizations',
      tags: TAG,
      summary: 'List and search organizations',
      description:
        'Cursor-paginated, in creation order. Without parent or child, every organization (or only roots with recursive=false).',
      querystring: OrganizationListQuery,
      item: Type.Ref(Organization),
      list: OrganizationList,
      count: 'Count organizations',
      countQuerystring: OrganizationCountQuery,
    },
    {
      page: (clientId, query, request) => organizations.list(clientId, query, request),
      count: (clientId, query) => organizations.count(clientId, query),
      present: presentOrganization,
    },
  );

  getRoute(
    app,
    {
      path: '/organizations/:id',
      tags: TAG,
      summary: 'Get an organization',
      params: OrganizationParams,
      item: Type.Ref(Organization),
    },
    (clientId, { id }) => organizations.get(clientId, id),
    presentOrganization,
  );

  upsertRoute(
    app,
    {
      path: '/organizations/:id',
      tags: TAG,
      summary: 'Create or replace an organization',
      description: 'An upsert at the client-chosen code: 201 when created, 200 when every attribute was replaced.',
      params: OrganizationParams,
      item: Type.Ref(Organization),
      body: OrganizationPut,
      key: 'organization',
      errors: [400, 401, 403, 404, 422],
    },
    (clientId, { id }, body) => organizations.put(clientId, id, body),
    presentOrganization,
  );

  api.patch(
    '/organizations/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Update some attributes of an organization',
        params: OrganizationParams,
        body: OrganizationPatch,
        response: { 200: Type.Ref(Organization), ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) =>
      presentOrganization(await organizations.patch(request.hrAuth.clientId, request.params.id, request.body)),
  );
}
