import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
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

  api.get(
    '/organization_groups/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Get an organization group',
        params: OrganizationGroupParams,
        response: { 200: Type.Ref(OrganizationGroup), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => presentOrganizationGroup(await groups.get(request.hrAuth.clientId, request.params.id)),
  );

  api.put(
    '/organization_groups/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Create or replace an organization group',
        description: 'An upsert at the client-chosen code: 201 when created, 200 when name and members were replaced.',
        params: OrganizationGroupParams,
        body: OrganizationGroupPut,
        response: {
          200: Type.Ref(OrganizationGroup),
          201: Type.Ref(OrganizationGroup),
          ...errorResponses(400, 401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const { group, created } = await groups.put(request.hrAuth.clientId, request.params.id, request.body);
      return reply.status(created ? 201 : 200).send(presentOrganizationGroup(group));
    },
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
