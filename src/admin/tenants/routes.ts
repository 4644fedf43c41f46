import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponses } from '../../hr/errors.js';
import { NoBody } from '../../platform/http/no-body.js';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { presentClock } from '../clocks/presenter.js';
import type { ClocksService } from '../clocks/service.js';
import { TenantParams } from '../tenant-ref.js';
import { inScope } from '../tokens/scope.js';
import { presentTenants } from './presenter.js';
import {
  AcademyTenantParams,
  ApplicationCreate,
  ApplicationParams,
  CreatedAcademy,
  CreatedApplication,
  CreatedClient,
  HrTenantParams,
  RotatedAcademyKey,
  Tenant,
  TenantCreate,
  TenantList,
} from './schemas.js';
import type { AdminTenantsService } from './service.js';

const tags = ['Admin: Tenants'];

/**
 * `/tenants` and `/tenants/{kind}/{id}`: every tenant of both APIs, with its clock; and making tenants and their
 * credentials, as the CLI's `atrium hr …` and `atrium academy …` do (docs/admin.md, "Tenants").
 */
export async function tenantRoutes(
  app: FastifyInstance,
  opts: {
    adminTenants: AdminTenantsService;
    clocks: ClocksService;
    /** Who acts, for the admin audit log. */
    actorOf: (request: FastifyRequest) => string;
  },
): Promise<void> {
  const { adminTenants, clocks, actorOf } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const clockOf = (tenant: Parameters<ClocksService['show']>[0]) => presentClock(clocks.show(tenant));
  const presented = async (kind: 'hr' | 'academy', id: string): Promise<Tenant> =>
    presentTenants(await adminTenants.list(), clockOf).find((t) => t.kind === kind && t.id === id) as Tenant;

  api.get(
    '/tenants',
    {
      schema: {
        tags,
        summary: 'List every tenant',
        description:
          'HR clients with their applications, then academies with their key ids; never a secret. A token limited to some tenants sees those only.',
        response: { 200: TenantList, ...errorResponses(401) },
      },
    },
    async (request) => ({
      // A token limited to some tenants sees those only.
      tenants: presentTenants(await adminTenants.list(), clockOf).filter((t) =>
        inScope(request.adminToken, t.kind, t.id),
      ),
    }),
  );

  api.get(
    '/tenants/:kind/:id',
    {
      schema: {
        tags,
        summary: 'Get a tenant',
        params: TenantParams,
        response: { 200: Tenant, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const tenant = await adminTenants.resolve(request.params.kind, request.params.id);
      return presented(tenant.kind, tenant.id);
    },
  );

  api.post(
    '/tenants/hr',
    {
      schema: {
        tags,
        summary: 'Create an HR client',
        description:
          'A new client of the HR API, with no application yet: give it one with `POST /tenants/hr/{id}/applications`. As `atrium hr create-client`.',
        body: TenantCreate,
        response: { 201: Type.Ref(CreatedClient), ...errorResponses(400, 401, 422) },
      },
    },
    async (request, reply) => {
      const tenant = await adminTenants.createClient(request.body.name, actorOf(request));
      return reply.code(201).send({ tenant: await presented('hr', tenant.id) });
    },
  );

  api.post(
    '/tenants/academy',
    {
      schema: {
        tags,
        summary: 'Create an academy',
        description:
          'A new academy of the Academy API, with its first API key: the only time the key is shown. As `atrium academy create`.',
        body: TenantCreate,
        response: { 201: Type.Ref(CreatedAcademy), ...errorResponses(400, 401, 422) },
      },
    },
    async (request, reply) => {
      const { tenant, created } = await adminTenants.createAcademy(request.body.name, actorOf(request));
      return reply.code(201).send({
        tenant: await presented('academy', tenant.id),
        apikey: created.apikey,
        super_admin_id: created.superAdminId,
      });
    },
  );

  api.post(
    '/tenants/hr/:id/applications',
    {
      schema: {
        tags,
        summary: 'Create an application of an HR client',
        description:
          "Its `application_id` and `application_secret` are the Basic credentials of `POST /tokens` (with the client's `client_id`). The secret is shown only in this answer. As `atrium hr create-application`.",
        params: HrTenantParams,
        body: ApplicationCreate,
        response: { 201: CreatedApplication, ...errorResponses(400, 401, 404, 422) },
      },
    },
    async (request, reply) => {
      const tenant = await adminTenants.resolve('hr', request.params.id);
      const { name, read_only: readOnly = false } = request.body;
      const created = await adminTenants.createApplication(tenant, name, readOnly, actorOf(request));
      return reply.code(201).send({ ...created, name, read_only: readOnly });
    },
  );

  api.delete(
    '/tenants/hr/:id/applications/:application_id',
    {
      schema: {
        tags,
        summary: 'Revoke an application of an HR client',
        description:
          'The application can no longer get tokens, and the tokens it has are refused by every server process within a second. Revoking a revoked application changes nothing. As `atrium hr revoke-application`.',
        params: ApplicationParams,
        response: { 204: NoBody, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const tenant = await adminTenants.resolve('hr', request.params.id);
      await adminTenants.revokeApplication(tenant, request.params.application_id, actorOf(request));
      return reply.code(204).send();
    },
  );

  api.post(
    '/tenants/academy/:id/keys',
    {
      schema: {
        tags,
        summary: "Rotate an academy's API key",
        description:
          'Gives the academy a new API key, shown only in this answer; its other keys keep working until `previous_keys_expire_at`, then stop. As `atrium academy rotate-key`.',
        params: AcademyTenantParams,
        response: { 201: RotatedAcademyKey, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const tenant = await adminTenants.resolve('academy', request.params.id);
      const rotated = await adminTenants.rotateAcademyKey(tenant, actorOf(request));
      return reply.code(201).send({ apikey: rotated.apikey, previous_keys_expire_at: rotated.previousKeysExpireAt });
    },
  );
}
