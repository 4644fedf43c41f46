import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { formatDateTime } from '../../../platform/time.js';
import { errorResponses } from '../../errors.js';
import { PaginationHeaders, type Paginator } from '../../lists/pagination.js';
import type { OrganizationGroupWithMembers } from './repository.js';
import {
  OrganizationGroup,
  OrganizationGroupListQuery,
  OrganizationGroupParams,
  OrganizationGroupPatch,
  OrganizationGroupPut,
} from './schemas.js';
import type { OrganizationGroupsService } from './service.js';

function present(row: OrganizationGroupWithMembers): OrganizationGroup {
  return {
    id: row.id,
    name: row.name,
    organizations_ids: row.organizations_ids,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}

const TAG = ['Organizations'];
const LIST = { list: 'organization_groups', keyCount: 1 };

export async function organizationGroupRoutes(
  app: FastifyInstance,
  opts: { organizationGroups: OrganizationGroupsService; paginator: Paginator },
): Promise<void> {
  const { organizationGroups: groups, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/organization_groups',
    {
      schema: {
        tags: TAG,
        summary: 'List organization groups',
        description: 'Cursor-paginated, in creation order.',
        querystring: OrganizationGroupListQuery,
        response: {
          200: { ...Type.Array(Type.Ref(OrganizationGroup)), headers: PaginationHeaders },
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const scope = { clientId: request.hrAuth.clientId, ...LIST };
      const { limit, position } = paginator.params(request.query, scope);
      const page = await groups.list(request.hrAuth.clientId, request.query, limit, position);
      return paginator.present(request, reply, page, scope).map(present);
    },
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
    async (request) => present(await groups.get(request.hrAuth.clientId, request.params.id)),
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
      return reply.status(created ? 201 : 200).send(present(group));
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
    async (request) => present(await groups.patch(request.hrAuth.clientId, request.params.id, request.body)),
  );
}
