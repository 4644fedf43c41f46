import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../hr/errors.js';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import type { Clock } from '../../platform/time.js';
import { TenantParams, type TenantRef } from '../tenant-ref.js';
import { presentReport } from './presenter.js';
import { Report, ReportQuery } from './schemas.js';
import { type ReportService, reportRange } from './service.js';

/** `/tenants/{kind}/{id}/report`: the integration report (docs/admin.md, "Report"). */
export async function reportRoutes(
  app: FastifyInstance,
  opts: { resolve: (kind: string, id: string) => Promise<TenantRef>; reports: ReportService; clock: Clock },
): Promise<void> {
  const { resolve, reports, clock } = opts;
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/tenants/:kind/:id/report',
    {
      schema: {
        tags: ['Admin: Report'],
        summary: "A tenant's integration report",
        description:
          "From the tenant's request log over a time range (the installation's time): each operation called, with counts, error rate and latency percentiles, and what would not work on the real service: Atrium extensions, operations the real API deprecates, query parameters it does not take. `atrium report --tenant` prints it as markdown.",
        params: TenantParams,
        querystring: ReportQuery,
        response: { 200: Type.Ref(Report), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      const { since, until } = reportRange(request.query, clock.wall());
      return presentReport(await reports.report(tenant, since, until));
    },
  );
}
