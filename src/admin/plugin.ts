import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorBody, errorResponses, HrError, sendHrError } from '../hr/errors.js';
import { type RateLimits, underFailureLimits } from '../platform/http/rate-limit.js';
import type { Clock } from '../platform/time.js';
import { clockRoutes } from './clocks/routes.js';
import { clockSchemas } from './clocks/schemas.js';
import type { ClocksService } from './clocks/service.js';
import { faultRoutes } from './faults/routes.js';
import { faultSchemas } from './faults/schemas.js';
import type { FaultsService } from './faults/service.js';
import { reportRoutes } from './report/routes.js';
import { reportSchemas } from './report/schemas.js';
import type { ReportService } from './report/service.js';
import { requestLogRoutes } from './request-log/routes.js';
import { requestLogSchemas } from './request-log/schemas.js';
import type { RequestLogService } from './request-log/service.js';
import { snapshotRoutes } from './snapshots/routes.js';
import { snapshotSchemas } from './snapshots/schemas.js';
import type { SnapshotsService } from './snapshots/service.js';
import { tenantRoutes } from './tenants/routes.js';
import { tenantSchemas } from './tenants/schemas.js';
import type { AdminTenantsService } from './tenants/service.js';
import type { AdminToken } from './tokens/repository.js';
import type { AdminTokensService } from './tokens/service.js';

export { ADMIN_PREFIX } from './openapi.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the admin guard: the operator token of the call. */
    adminToken: AdminToken;
  }
}

export interface AdminApiOptions {
  adminTokens: AdminTokensService;
  adminTenants: AdminTenantsService;
  clocks: ClocksService;
  faults: FaultsService;
  requestLog: RequestLogService;
  reports: ReportService;
  clock: Clock;
  snapshots: SnapshotsService;
  /** The failed-authentication limits the tenant APIs share: a guessed admin token counts as a failure too. */
  rateLimits?: RateLimits | undefined;
}

const REALM = 'Bearer realm="atrium-admin"';

function unauthorized(message: string): HrError {
  return new HrError(401, 'invalid_token', message, { 'WWW-Authenticate': REALM });
}

/** Who acts, in the admin audit log: the operator token, by id and name. */
export function actorOf(request: FastifyRequest): string {
  return `token ${request.adminToken.id} (${request.adminToken.name})`;
}

/**
 * The admin guard: `Authorization: Bearer atrium_admin_…`, an operator token that is neither unknown nor revoked
 * (docs/admin.md). Anything else (no header, an HR bearer token, an academy key) is a 401. Failures count against
 * the caller's address like any failed authentication.
 */
function adminGuard(tokens: AdminTokensService, limits: RateLimits | undefined) {
  return async function guard(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer[ ]+([^ ]+)[ ]*$/i.exec(header) : null;
    if (!match?.[1]) throw unauthorized('An operator token is required: Authorization: Bearer atrium_admin_….');
    const presented = match[1];
    request.adminToken = await underFailureLimits(
      limits,
      request.ip,
      undefined,
      async () => {
        const token = await tokens.verify(presented);
        if (!token) throw unauthorized('The operator token is unknown or revoked.');
        return token;
      },
      (error) => error instanceof HrError && error.statusCode === 401,
      (retryAfter) =>
        new HrError(429, 'rate_limited', `Too many failed authentications. Retry in ${retryAfter} s.`, {
          'Retry-After': String(retryAfter),
        }),
    );
  };
}

/**
 * The admin API (`/admin/v1`, docs/admin.md): an operator's view of every tenant, and the sandbox controls of each.
 * Its errors use the HR API's body (`{code, message}`); its bodies are checked strictly (an unknown member is a 422).
 */
export async function adminApi(app: FastifyInstance, options: AdminApiOptions): Promise<void> {
  app.addSchema(ErrorBody);
  // Every admin operation takes an operator token (the document's `adminToken` scheme), and may answer 429.
  app.addHook('onRoute', (route) => {
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const response = schema.response as Record<string, unknown> | undefined;
    route.schema = {
      ...schema,
      security: [{ adminToken: [] }],
      ...(response ? { response: { ...response, ...errorResponses(429) } } : {}),
    };
  });
  const schemas = [
    ...clockSchemas,
    ...tenantSchemas,
    ...faultSchemas,
    ...requestLogSchemas,
    ...reportSchemas,
    ...snapshotSchemas,
  ];
  for (const schema of schemas) app.addSchema(schema);
  app.setErrorHandler((error, request, reply) => sendHrError(error as Error, request, reply));
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) =>
    sendHrError(
      new HrError(404, 'not_found', `No admin operation ${request.method} ${request.url.split('?', 1)[0]}.`),
      request,
      reply,
    ),
  );
  app.addHook('onRequest', adminGuard(options.adminTokens, options.rateLimits));
  const resolve = (kind: string, id: string) => options.adminTenants.resolve(kind, id);
  await app.register(tenantRoutes, { adminTenants: options.adminTenants, clocks: options.clocks, actorOf });
  await app.register(clockRoutes, { resolve, clocks: options.clocks, actorOf });
  await app.register(faultRoutes, { resolve, faults: options.faults, actorOf });
  await app.register(requestLogRoutes, { resolve, requestLog: options.requestLog });
  await app.register(reportRoutes, { resolve, reports: options.reports, clock: options.clock });
  await app.register(snapshotRoutes, { resolve, snapshots: options.snapshots, actorOf });
}
