import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { getRoute, upsertRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentOrganizationGroup } from './present.js';
import {
  OrganizationGroup,
  OrganizationGroupList,
  OrganizationGroupListQuery,
  OrganizationGroupParams,
  OrganizationGroupPatch,
  OrganizationGroupPut,
} from './schemas.js';
import type { OrganizationGroupsService } from './service.js';

const TAG = ['Organizations'];

export async function organizationGroupRoutes(
  app: FastifyInstance,
  opts: { organizationGroups: OrganizationGroupsService; paginator: Paginator },
): Promise<void> {
  const { organizationGroups: groups, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  listRoute(
    app,
    paginator,
    {
      path: '/organization_groups',
      tags: TAG,
      summary: 'List organization groups',
      description: 'Cursor-paginated, in creation order.',
      querystring: OrganizationGroupListQuery,
      item: Type.Ref(OrganizationGroup),
      list: OrganizationGroupList,
      errors: [403],
    },
    { page: (clientId, query, request) => groups.list(clientId, query, request), present: presentOrganizationGroup },
  );

  getRoute(
    app,
    {
      path: '/organization_groups/:id',
      tags: TAG,
      summary: 'Get an organization group',
      params: OrganizationGroupParams,
      item: Type.Ref(OrganizationGroup),
    },
    (clientId, { id }) => groups.get(clientId, id),
    presentOrganizationGroup,
  );

  upsertRoute(
    app,
    {
      path: '/organization_groups/:id',
      tags: TAG,
      summary: 'Create or replace an organization group',
      description: 'An upsert at the client-chosen code: 201 when created, 200 when name and members were replaced.',
      params: OrganizationGroupParams,
      item: Type.Ref(OrganizationGroup),
      body: OrganizationGroupPut,
      key: 'group',
      errors: [400, 401, 403, 404, 422],
    },
    (clientId, { id }, body) => groups.put(clientId, id, body),
    presentOrganizationGroup,
  );

  api.patch(
    '/organization_groups/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Update an organization group',
        params: OrganizationGroupParams,
        body: OrganizationGroupPatch,
        response: { 200: Type.Ref(OrganizationGroup), ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) =>
      presentOrganizationGroup(await groups.patch(request.hrAuth.clientId, request.params.id, request.body)),
  );
}
