import type { FastifyInstance } from 'fastify';
import { publicOrigin } from '../../../platform/http/public-origin.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { presentRedirectionUrls } from './present.js';
import { RedirectionUrls, RedirectionUrlsQuery } from './schemas.js';
import type { RedirectionUrlsService } from './service.js';

/** The client API's root as this request reached the server: the URLs point back at it. */
const API_ROOT = '/api/v2/client';

/** `GET /redirection_urls` (reference §3c.6). */
export async function redirectionUrlRoutes(app: FastifyInstance, opts: { redirections: RedirectionUrlsService }) {
  const { redirections } = opts;
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/redirection_urls',
    {
      schema: {
        tags: ['Documents'],
        summary: 'Get the URLs to redirect to',
        description:
          'Atrium has no web application: each URL is the client API’s own resource, on this server, that the page would show (docs/hr-api.md, "Redirection URLs").',
        querystring: RedirectionUrlsQuery,
        response: { 200: RedirectionUrls, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request) => {
      const targets = await redirections.targets(request.hrAuth.clientId, {
        ...(request.query.employee_id !== undefined ? { employeeId: request.query.employee_id } : {}),
        ...(request.query.doctype_id !== undefined ? { doctypeId: request.query.doctype_id } : {}),
      });
      return presentRedirectionUrls(targets, `${publicOrigin(request)}${API_ROOT}`);
    },
  );
}
