import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { formatDateTime } from '../../../platform/time.js';
import { errorResponses } from '../../errors.js';
import { PaginationHeaders, type Paginator } from '../../lists/pagination.js';
import type { OrganizationWithChildren } from './repository.js';
import {
  Organization,
  OrganizationCountQuery,
  OrganizationListQuery,
  OrganizationParams,
  OrganizationPatch,
  OrganizationPut,
} from './schemas.js';
import type { OrganizationsService } from './service.js';

export function presentOrganization(row: OrganizationWithChildren): Organization {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    parent_organization_id: row.parent_organization_id,
    corporate_name: row.corporate_name,
    address1: row.address1,
    address2: row.address2,
    zip_code: row.zip_code,
    city: row.city,
    country: row.country,
    contact_firstname: row.contact_firstname,
    contact_lastname: row.contact_lastname,
    contact_email: row.contact_email,
    contact_phone_number: row.contact_phone_number,
    has_children: row.has_children,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}

const TAG = ['Organizations'];
const LIST = { list: 'organizations', keyCount: 1 };

export async function organizationRoutes(
  app: FastifyInstance,
  opts: { organizations: OrganizationsService; paginator: Paginator },
): Promise<void> {
  const { organizations, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  // Declared before GET so it replaces Fastify's automatic HEAD route.
  api.head(
    '/organizations',
    {
      config: { swagger: { exposeHeadRoute: true } },
      schema: {
        tags: TAG,
        summary: 'Count organizations',
        description: 'Same filters as the list; the count is in `X-Total-Count`.',
        querystring: OrganizationCountQuery,
        response: {
          200: {
            type: 'null',
            description: 'Count in X-Total-Count.',
            headers: Type.Object({ 'X-Total-Count': Type.Integer() }),
          },
          ...errorResponses(400, 401, 403, 422),
        },
      },
    },
    async (request, reply) => {
      const total = await organizations.count(request.hrAuth.clientId, request.query);
      return reply.header('X-Total-Count', String(total)).status(200).send();
    },
  );

  api.get(
    '/organizations',
    {
      schema: {
        tags: TAG,
        summary: 'List and search organizations',
        description:
          'Cursor-paginated, in creation order. Without parent or child, every organization (or only roots with recursive=false).',
        querystring: OrganizationListQuery,
        response: {
          200: { ...Type.Array(Type.Ref(Organization)), headers: PaginationHeaders },
          ...errorResponses(400, 401, 403, 422),
        },
      },
    },
    async (request, reply) => {
      const scope = { clientId: request.hrAuth.clientId, ...LIST };
      const { limit, position } = paginator.params(request.query, scope);
      const page = await organizations.list(request.hrAuth.clientId, request.query, limit, position);
      return paginator.present(request, reply, page, scope).map(presentOrganization);
    },
  );

  api.get(
    '/organizations/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Get an organization',
        params: OrganizationParams,
        response: { 200: Type.Ref(Organization), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => presentOrganization(await organizations.get(request.hrAuth.clientId, request.params.id)),
  );

  api.put(
    '/organizations/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Create or replace an organization',
        description: 'An upsert at the client-chosen code: 201 when created, 200 when every attribute was replaced.',
        params: OrganizationParams,
        body: OrganizationPut,
        response: {
          200: Type.Ref(Organization),
          201: Type.Ref(Organization),
          ...errorResponses(400, 401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const { organization, created } = await organizations.put(
        request.hrAuth.clientId,
        request.params.id,
        request.body,
      );
      return reply.status(created ? 201 : 200).send(presentOrganization(organization));
    },
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
