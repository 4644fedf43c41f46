import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../hr/errors.js';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { TenantParams, type TenantRef } from '../tenant-ref.js';
import { presentViewPass } from './presenter.js';
import { ViewPass } from './schemas.js';
import type { ViewPassesService } from './service.js';

const tags = ['Admin: Tenants'];

/** `POST /tenants/{kind}/{id}/view_pass`: a read-only credential of the tenant's own API (docs/admin.md). */
export async function viewPassRoutes(
  app: FastifyInstance,
  opts: {
    /** The tenant at `/tenants/{kind}/{id}`, or NotFoundError. */
    resolve: (kind: string, id: string) => Promise<TenantRef>;
    viewPasses: ViewPassesService;
  },
): Promise<void> {
  const { resolve, viewPasses } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/tenants/:kind/:id/view_pass',
    {
      schema: {
        tags,
        summary: 'Get a view pass of a tenant’s API',
        description:
          "A credential that reads one tenant's data through its own API for ten minutes: what the console's data browser uses. A write made with it gets 403. Calls made with it are not in the tenant's request log and no fault rule applies to them. It cannot be revoked; it expires.",
        params: TenantParams,
        response: { 201: Type.Ref(ViewPass), ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      return reply.code(201).send(presentViewPass(viewPasses.issue(tenant)));
    },
  );
}
