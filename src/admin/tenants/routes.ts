import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../hr/errors.js';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { presentClock } from '../clocks/presenter.js';
import type { ClocksService } from '../clocks/service.js';
import { TenantParams } from '../tenant-ref.js';
import { presentTenants } from './presenter.js';
import { Tenant, TenantList } from './schemas.js';
import type { AdminTenantsService } from './service.js';

const tags = ['Admin: Tenants'];

/** `/tenants` and `/tenants/{kind}/{id}`: every tenant of both APIs, with its clock. */
export async function tenantRoutes(
  app: FastifyInstance,
  opts: { adminTenants: AdminTenantsService; clocks: ClocksService },
): Promise<void> {
  const { adminTenants, clocks } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const clockOf = (tenant: Parameters<ClocksService['show']>[0]) => presentClock(clocks.show(tenant));

  api.get(
    '/tenants',
    {
      schema: {
        tags,
        summary: 'List every tenant',
        description: 'HR clients with their applications, then academies with their key ids; never a secret.',
        response: { 200: TenantList, ...errorResponses(401) },
      },
    },
    async () => ({ tenants: presentTenants(await adminTenants.list(), clockOf) }),
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
      const found = presentTenants(await adminTenants.list(), clockOf).find(
        (t) => t.kind === tenant.kind && t.id === tenant.id,
      );
      return found as Tenant;
    },
  );
}
