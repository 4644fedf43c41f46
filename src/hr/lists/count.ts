import { HEADERS } from '@atrium/client/wire';
import { type Static, type TObject, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { HrTenantId } from '../../platform/db/tenant.js';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { errorResponses } from '../errors.js';

/**
 * Registers `HEAD <path>`: the count of a list with the same filters, in `X-Total-Count` (the reference's count
 * endpoints). Declared before the list's GET so it replaces Fastify's automatic HEAD route.
 */
export function countRoute<Q extends TObject>(
  app: FastifyInstance,
  options: { path: string; tags: string[]; summary: string; querystring: Q },
  count: (clientId: HrTenantId, query: Static<Q>) => Promise<number>,
): void {
  app.withTypeProvider<TypeBoxTypeProvider>().head(
    options.path,
    {
      config: { swagger: { exposeHeadRoute: true } },
      schema: {
        tags: options.tags,
        summary: options.summary,
        description: 'Same filters as the list; the count is in `X-Total-Count`.',
        querystring: options.querystring,
        response: {
          200: {
            type: 'null',
            description: 'Count in X-Total-Count.',
            headers: Type.Object({ 'X-Total-Count': Type.Integer({ description: 'Number of matching items.' }) }),
          },
          ...errorResponses(400, 401, 403, 422),
        },
      },
    },
    async (request, reply) => {
      const total = await count(request.hrAuth.clientId, request.query as Static<Q>);
      return reply.header(HEADERS.totalCount, String(total)).status(200).send();
    },
  );
}
