import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import type { RateLimits } from '../platform/http/rate-limit.js';
import { bearerGuard } from './core/auth/guard.js';
import type { AuthService } from './core/auth/service.js';
import { ErrorBody, HrError, sendHrError } from './errors.js';
import type { HrModule } from './module.js';

export const HR_PREFIX = '/api/v2/client';

/** What the HR API plugin is given: the auth service its guard uses, and every module of every area. */
export interface HrApiOptions {
  auth: AuthService;
  modules: readonly HrModule[];
  rateLimits?: RateLimits | undefined;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** Rejects a query parameter given more than once: the spec calls that an invalid request. */
async function rejectRepeatedParameters(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query) return;
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) throw new HrError(400, 'invalid_request', `Query parameter "${name}" is repeated.`);
  }
}

/**
 * The HR service delivery client API, as one encapsulated Fastify plugin
 * with its own error format, not-found and method-not-allowed answers, and
 * bearer guard. No CORS: its tokens are for server-to-server use only.
 */
export async function hrApi(app: FastifyInstance, options: HrApiOptions): Promise<void> {
  app.addSchema(ErrorBody);
  for (const module of options.modules) for (const schema of module.schemas ?? []) app.addSchema(schema);

  // Knows every path of this API, to tell an unknown path (404) from a wrong method (405).
  const router = FindMyWay({ ignoreTrailingSlash: true });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      try {
        router.on(method as 'GET', route.url, () => {});
      } catch {
        // Already known (Fastify's automatic HEAD twin).
      }
    }
  });

  app.setErrorHandler((error, request, reply) => sendHrError(error as Error, request, reply));
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?', 1)[0] as string;
    const allowed = METHODS.filter((m) => router.find(m, path) !== null);
    if (allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      return sendHrError(
        new HrError(405, 'method_not_allowed', `${request.method} is not allowed here; use ${allowed.join(', ')}.`),
        request,
        reply,
      );
    }
    return sendHrError(new HrError(404, 'not_found', `No resource at ${path}.`), request, reply);
  });
  app.addHook('preValidation', rejectRepeatedParameters);

  const http = { rateLimits: options.rateLimits };
  for (const module of options.modules) {
    if (module.public) await app.register((scope) => module.routes(scope, http));
  }
  await app.register(async (guarded) => {
    guarded.addHook('onRequest', bearerGuard(options.auth, options.rateLimits));
    for (const module of options.modules) {
      if (!module.public) await guarded.register((scope) => module.routes(scope, http));
    }
  });
}
