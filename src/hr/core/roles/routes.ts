import { type TObject, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { getRoute, upsertRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import type { PermissionModule } from './permissions.js';
import { presentRole } from './present.js';
import {
  AuditPermissionsFull,
  AuditPermissionsPut,
  CorePermissionsFull,
  CorePermissionsGet,
  CorePermissionsPut,
  EfmPermissionsFull,
  EfmPermissionsPut,
  Role,
  RoleList,
  RoleListQuery,
  RoleParams,
  RolePermissionParams,
  RolePut,
  WebhookPermissionsFull,
  WebhookPermissionsPut,
} from './schemas.js';
import type { RolesService } from './service.js';

const TAG = ['Roles'];

interface PermissionRoutes {
  module: PermissionModule;
  title: string;
  getAnswer: TObject;
  put: { body: TObject; answer: TObject; note?: string };
}

const PERMISSION_ROUTES: PermissionRoutes[] = [
  {
    module: 'core',
    title: 'core HR',
    getAnswer: CorePermissionsGet,
    put: { body: CorePermissionsPut, answer: CorePermissionsFull },
  },
  {
    module: 'efm',
    title: 'Document Manager',
    getAnswer: EfmPermissionsFull,
    put: {
      body: EfmPermissionsPut,
      answer: EfmPermissionsFull,
      note: ' Atrium extension: the reference only declares GET, which leaves no way to grant these.',
    },
  },
  {
    module: 'audit',
    title: 'audit',
    getAnswer: AuditPermissionsFull,
    put: { body: AuditPermissionsPut, answer: AuditPermissionsFull },
  },
  {
    module: 'webhook',
    title: 'webhook',
    getAnswer: WebhookPermissionsFull,
    put: { body: WebhookPermissionsPut, answer: WebhookPermissionsFull },
  },
];

export async function roleRoutes(
  app: FastifyInstance,
  opts: { roles: RolesService; paginator: Paginator },
): Promise<void> {
  const { roles, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  listRoute(
    app,
    paginator,
    {
      path: '/roles',
      tags: TAG,
      summary: 'List roles',
      description: 'Cursor-paginated, in creation order.',
      querystring: RoleListQuery,
      item: Type.Ref(Role),
      list: RoleList,
      errors: [403],
    },
    { page: (clientId, _query, request) => roles.list(clientId, request), present: presentRole },
  );

  getRoute(
    app,
    { path: '/roles/:id', tags: TAG, summary: 'Get a role', params: RoleParams, item: Type.Ref(Role) },
    (clientId, { id }) => roles.get(clientId, id),
    presentRole,
  );

  upsertRoute(
    app,
    {
      path: '/roles/:id',
      tags: TAG,
      summary: 'Create or update a role',
      description:
        'An upsert at the client-chosen code: 201 when created, 200 when name and description were replaced. The body repeats the `id`, which must equal the path.',
      params: RoleParams,
      item: Type.Ref(Role),
      body: RolePut,
      key: 'role',
      errors: [400, 401, 403, 404, 422],
    },
    (clientId, { id }, body) => roles.put(clientId, id, body),
    presentRole,
  );

  for (const spec of PERMISSION_ROUTES) {
    const path = `/roles/:role_id/permissions/${spec.module}`;
    api.get(
      path,
      {
        schema: {
          tags: TAG,
          summary: `Get the ${spec.title} permissions of a role`,
          description: 'Every permission of the module; one never granted is false.',
          params: RolePermissionParams,
          response: { 200: spec.getAnswer, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => {
        const { role_id } = request.params;
        return { role_id, ...(await roles.permissions(request.hrAuth.clientId, role_id, spec.module)) };
      },
    );
    const put = spec.put;
    api.put(
      path,
      {
        schema: {
          tags: TAG,
          summary: `Replace the ${spec.title} permissions of a role`,
          description: `Replaces the whole document: an optional permission left out is false.${put.note ?? ''}`,
          params: RolePermissionParams,
          body: put.body,
          response: { 200: put.answer, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        const { role_id } = request.params;
        const body = request.body as Partial<Record<string, boolean>>;
        return { role_id, ...(await roles.putPermissions(request.hrAuth.clientId, role_id, spec.module, body)) };
      },
    );
  }
}
