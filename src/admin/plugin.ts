import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorBody, errorResponses, HrError, sendHrError } from '../hr/errors.js';
import { type RateLimits, underFailureLimits } from '../platform/http/rate-limit.js';
import type { Clock } from '../platform/time.js';
import { clockRoutes } from './clocks/routes.js';
import { clockSchemas } from './clocks/schemas.js';
import type { ClocksService } from './clocks/service.js';
import { eventRoutes } from './events/routes.js';
import { eventSchemas } from './events/schemas.js';
import type { AdminEventsService } from './events/service.js';
import { faultRoutes } from './faults/routes.js';
import { faultSchemas } from './faults/schemas.js';
import type { FaultsService } from './faults/service.js';
import { proxyRoutes } from './proxy/routes.js';
import { proxySchemas } from './proxy/schemas.js';
import { reportRoutes } from './report/routes.js';
import { reportSchemas } from './report/schemas.js';
import type { ReportService } from './report/service.js';
import { requestLogRoutes } from './request-log/routes.js';
import { requestLogSchemas } from './request-log/schemas.js';
import type { RequestLogService } from './request-log/service.js';
import { requestVerifyRoutes } from './request-log/verify-routes.js';
import { SESSION_COOKIE, sessionRoutes } from './sessions/routes.js';
import { sessionSchemas } from './sessions/schemas.js';
import type { AdminSessionsService } from './sessions/service.js';
import { settingsRoutes, settingsSchemas } from './settings/routes.js';
import type { AdminSettingsService } from './settings/service.js';
import { portableRoutes } from './snapshots/portable-routes.js';
import { portableSchemas } from './snapshots/portable-schemas.js';
import type { PortableSnapshotsService } from './snapshots/portable-service.js';
import { snapshotRoutes } from './snapshots/routes.js';
import { snapshotSchemas } from './snapshots/schemas.js';
import type { SnapshotsService } from './snapshots/service.js';
import { tenantRoutes } from './tenants/routes.js';
import { tenantSchemas } from './tenants/schemas.js';
import type { AdminTenantsService } from './tenants/service.js';
import type { AdminTokenRecord } from './tokens/repository.js';
import { enforceScope } from './tokens/scope.js';
import { type AdminTokensService, describeScope } from './tokens/service.js';
import { viewPassRoutes } from './view-passes/routes.js';
import { viewPassSchemas } from './view-passes/schemas.js';
import type { ViewPassesService } from './view-passes/service.js';
import { webhookRoutes } from './webhooks/routes.js';
import type { AdminWebhooksService } from './webhooks/service.js';

export { ADMIN_PREFIX } from './openapi.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the admin guard: the operator token of the call. */
    adminToken: AdminTokenRecord;
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
  /** Portable snapshots: export, import and clone (docs/admin.md, "Portable snapshots"). */
  portable: PortableSnapshotsService;
  /** The largest file an import accepts (`ATRIUM_SNAPSHOT_IMPORT_MAX_BYTES`). */
  snapshotImportMaxBytes: number;
  sessions: AdminSessionsService;
  viewPasses: ViewPassesService;
  webhooks: AdminWebhooksService;
  events: AdminEventsService;
  settings: AdminSettingsService;
  /** The validation proxy's journal (`ATRIUM_PROXY_JOURNAL`): `GET /proxy/departures` reads it. */
  proxyJournal: string;
  /** The failed-authentication limits the tenant APIs share: a guessed admin token counts as a failure too. */
  rateLimits?: RateLimits | undefined;
}

const REALM = 'Bearer realm="atrium-admin"';

function unauthorized(message: string): HrError {
  return new HrError(401, 'invalid_token', message, { 'WWW-Authenticate': REALM });
}

/** Who acts, in the admin audit log: the operator token, by id and name. */
export function actorOf(request: FastifyRequest): string {
  const scope = describeScope(request.adminToken);
  return `token ${request.adminToken.id} (${request.adminToken.name}${scope ? `; ${scope}` : ''})`;
}

/** Methods that change nothing: a call with the session cookie needs no CSRF token for them. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a route's method may change something (a call with the session cookie then needs its CSRF token). */
function changes(method: string | string[]): boolean {
  return (Array.isArray(method) ? method : [method]).some((m) => !SAFE_METHODS.has(m.toUpperCase()));
}

/** Runs an authentication, counting its failure (a 401) against the caller's address; 429 past the limit. */
function limited(limits: RateLimits | undefined) {
  return <T>(request: FastifyRequest, attempt: () => Promise<T>): Promise<T> =>
    underFailureLimits(
      limits,
      request.ip,
      undefined,
      attempt,
      (error) => error instanceof HrError && error.statusCode === 401,
      (retryAfter) =>
        new HrError(429, 'rate_limited', `Too many failed authentications. Retry in ${retryAfter} s.`, {
          'Retry-After': String(retryAfter),
        }),
    );
}

/**
 * The admin guard (docs/admin.md): `Authorization: Bearer atrium_admin_…`, an operator token that is neither
 * unknown nor revoked; or, without an `Authorization` header, the cookie of a live session (signing in, `POST
 * /session`), with `X-CSRF-Token` on every call that changes something. Anything else (no credentials, an HR bearer
 * token, an academy key, an ended session) is a 401, and a missing or wrong CSRF token a 403. Failures count against
 * the caller's address like any failed authentication.
 */
function adminGuard(
  tokens: AdminTokensService,
  sessions: AdminSessionsService,
  underLimits: ReturnType<typeof limited>,
) {
  return async function guard(request: FastifyRequest): Promise<void> {
    if (request.routeOptions.config?.adminPublic === true) return;
    const header = request.headers.authorization;
    const cookie = header === undefined ? request.cookies[SESSION_COOKIE] : undefined;
    if (cookie !== undefined) {
      const open = await underLimits(request, async () => {
        const found = await sessions.check(cookie);
        if (!found)
          throw unauthorized('The session has ended (signed out, idle, expired or its token revoked): sign in again.');
        return found;
      });
      if (!SAFE_METHODS.has(request.method) && !sessions.csrfMatches(open, headerText(request, 'x-csrf-token'))) {
        throw new HrError(
          403,
          'csrf_refused',
          'A call with the session cookie that changes something must send X-CSRF-Token (from POST or GET /admin/v1/session).',
        );
      }
      request.adminToken = open.session.token;
      request.adminSession = open;
      enforceScope(request, request.adminToken);
      return;
    }
    const match = typeof header === 'string' ? /^Bearer[ ]+([^ ]+)[ ]*$/i.exec(header) : null;
    if (!match?.[1]) throw unauthorized('An operator token is required: Authorization: Bearer atrium_admin_….');
    const presented = match[1];
    request.adminToken = await underLimits(request, async () => {
      const token = await tokens.verify(presented);
      if (!token) throw unauthorized('The operator token is unknown or revoked.');
      return token;
    });
    enforceScope(request, request.adminToken);
  };
}

/** A header's value as one string (the first, if it came several times). */
function headerText(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The admin API (`/admin/v1`, docs/admin.md): an operator's view of every tenant, and the sandbox controls of each.
 * Its errors use the HR API's body (`{code, message}`); its bodies are checked strictly (an unknown member is a 422).
 */
export async function adminApi(app: FastifyInstance, options: AdminApiOptions): Promise<void> {
  app.addSchema(ErrorBody);
  // Every admin operation takes an operator token or a session (the document's `adminToken` and `adminSession`
  // schemes), and may answer 429.
  app.addHook('onRoute', (route) => {
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const response = schema.response as Record<string, unknown> | undefined;
    // An operator token, or the cookie of a session opened with one; signing in takes neither (`security: []`).
    const security = (schema.security as { [scheme: string]: string[] }[] | undefined) ?? [
      { adminToken: [] },
      { adminSession: [] },
    ];
    route.schema = {
      ...schema,
      security,
      // A change made with the session cookie without its CSRF token is a 403 (signing in has no session yet).
      ...(response
        ? {
            response: {
              ...response,
              ...(changes(route.method) && route.config?.adminPublic !== true ? errorResponses(403) : {}),
              ...errorResponses(429),
            },
          }
        : {}),
    };
  });
  const schemas = [
    ...clockSchemas,
    ...tenantSchemas,
    ...faultSchemas,
    ...requestLogSchemas,
    ...reportSchemas,
    ...snapshotSchemas,
    ...portableSchemas,
    ...sessionSchemas,
    ...viewPassSchemas,
    ...settingsSchemas,
    ...eventSchemas,
    ...proxySchemas,
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
  await app.register(cookie);
  const underLimits = limited(options.rateLimits);
  app.addHook('onRequest', adminGuard(options.adminTokens, options.sessions, underLimits));
  const resolve = (kind: string, id: string) => options.adminTenants.resolve(kind, id);
  await app.register(tenantRoutes, { adminTenants: options.adminTenants, clocks: options.clocks, actorOf });
  await app.register(clockRoutes, { resolve, clocks: options.clocks, actorOf });
  await app.register(faultRoutes, { resolve, faults: options.faults, actorOf });
  await app.register(requestLogRoutes, { resolve, requestLog: options.requestLog });
  await app.register(requestVerifyRoutes, { resolve, requestLog: options.requestLog, actorOf });
  await app.register(reportRoutes, { resolve, reports: options.reports, clock: options.clock });
  await app.register(snapshotRoutes, { resolve, snapshots: options.snapshots, actorOf });
  await app.register(portableRoutes, {
    resolve,
    portable: options.portable,
    actorOf,
    importMaxBytes: options.snapshotImportMaxBytes,
  });
  await app.register(sessionRoutes, { sessions: options.sessions, underLimits });
  await app.register(viewPassRoutes, { resolve, viewPasses: options.viewPasses });
  await app.register(webhookRoutes, { resolve, webhooks: options.webhooks, actorOf });
  await app.register(eventRoutes, { resolve, events: options.events, actorOf });
  await app.register(settingsRoutes, { resolve, settings: options.settings, actorOf });
  await app.register(proxyRoutes, { journal: options.proxyJournal });
}
