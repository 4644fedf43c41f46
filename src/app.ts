import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { AcademyContext } from './academy/academies/service.js';
import { academyErrorBody } from './academy/errors.js';
import { ACADEMY_DOCUMENTATION } from './academy/openapi.js';
import { ACADEMY_PREFIX, academyApi } from './academy/plugin.js';
import { ADMIN_DOCUMENTATION } from './admin/openapi.js';
import { ADMIN_PREFIX, adminApi } from './admin/plugin.js';
import { type Caller, requestLogCapture } from './admin/request-log/capture.js';
import { NearMissCatalogue, type ServedApi } from './admin/request-log/near-miss.js';
import { namedTenant } from './admin/request-log/near-miss-caller.js';
import { consolePage, underConsole } from './console/plugin.js';
import type { AuthContext } from './hr/core/auth/service.js';
import { HrError, hrErrorBody } from './hr/errors.js';
import { HR_DOCUMENTATION } from './hr/openapi.js';
import { HR_PREFIX, hrApi } from './hr/plugin.js';
import { buildInfo } from './platform/build-info.js';
import type { Config } from './platform/config.js';
import { type Database, openDatabase } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrate.js';
import { sweepIdempotencyKeys } from './platform/http/idempotency.js';
import { type ApiDocumentation, operationId, operationIndex } from './platform/http/openapi.js';
import { type RateLimits, rateLimits } from './platform/http/rate-limit.js';
import { listenSecondPort, onSecondPort, type SecondPort } from './platform/http/second-port.js';
import { createServer } from './platform/http/server.js';
import { pruneJobs } from './platform/jobs/index.js';
import type { Metrics } from './platform/metrics.js';
import { checkDataPermissions, createServices, type Services } from './services.js';

export { checkDataPermissions, createServices, type Services } from './services.js';

export interface App {
  server: FastifyInstance;
  database: Database;
  services: Services;
  /** The request and failed-authentication limits both APIs share (per process). */
  rateLimits: RateLimits;
  /** This process's Prometheus metrics when `ATRIUM_METRICS_PORT` is set (served by `atrium serve`); else none. */
  metrics: Metrics | undefined;
  /**
   * With `ATRIUM_ADMIN_PORT`, starts the admin API's own port (the API's `HOST`); `atrium serve` calls it after the
   * main port listens. Without it: undefined, and the admin API answers on the main port.
   */
  listenAdmin(): Promise<SecondPort | undefined>;
  close(): Promise<void>;
}

/** The `api` label of a route or URL: which API's prefix it is under, else the server's own (`platform`). */
export function apiOf(url: string): 'hr' | 'academy' | 'admin' | 'platform' {
  const under = (prefix: string) =>
    url.startsWith(prefix) &&
    (url.length === prefix.length || url[prefix.length] === '/' || url[prefix.length] === '?');
  if (under(HR_PREFIX)) return 'hr';
  if (under(ACADEMY_PREFIX)) return 'academy';
  return under(ADMIN_PREFIX) ? 'admin' : 'platform';
}

/** Who made a call of a tenant API (the request log's `identify`): none for unauthenticated calls and the rest. */
function tenantCaller(request: FastifyRequest): Caller | undefined {
  const r = request as Partial<{
    hrAuth: AuthContext;
    oauthApplication: { id: string; clientId: string };
    academy: AcademyContext;
  }>;
  // The console browsing with a view pass: not the tenant's client, so not in its log.
  if (request.viewPass) return undefined;
  if (r.hrAuth) return { tenant: `hr:${r.hrAuth.clientId}`, credentialId: r.hrAuth.applicationId };
  if (r.oauthApplication) return { tenant: `hr:${r.oauthApplication.clientId}`, credentialId: r.oauthApplication.id };
  if (r.academy) {
    const key = r.academy.keyId;
    return { tenant: `academy:${r.academy.academyId}`, credentialId: key === undefined ? null : String(key) };
  }
  // A call a rule shaped before authentication, which did not authenticate: the tenant it named, no credential.
  if (request.faultTenant !== undefined) return { tenant: request.faultTenant, credentialId: null };
  return undefined;
}

/** The operations an API serves, for the near misses' suggestions: `METHOD /path` → operationId. */
function servedApi(api: 'hr' | 'academy', doc: ApiDocumentation): ServedApi {
  const operations = new Map(Object.entries(doc.operations).map(([key, sdk]) => [key, operationId(doc.idPrefix, sdk)]));
  return { api, prefix: doc.prefix, operations };
}

/** What the request log needs to record near misses (docs/admin.md, "Near misses"). */
function nearMisses(services: Services) {
  return {
    apiOf: (url: string) => {
      const api = apiOf(url);
      return api === 'hr' || api === 'academy' ? api : undefined;
    },
    namedTenant: namedTenant(
      {
        clientOfApplication: (id) => services.auth.clientOfApplication(id),
        academyExists: (id) =>
          services.academies.requireAcademy(id).then(
            () => true,
            () => false,
          ),
        now: () => services.clock.wall(),
      },
      { hr: HR_PREFIX, academy: ACADEMY_PREFIX },
    ),
    catalogue: new NearMissCatalogue([servedApi('hr', HR_DOCUMENTATION), servedApi('academy', ACADEMY_DOCUMENTATION)]),
  };
}

/**
 * This process's metrics, with the database pool's gauges on PostgreSQL. prom-client is loaded here, only when
 * metrics are on: importing it takes a noticeable part of a second.
 */
async function createMetrics(database: Database, config: Config): Promise<Metrics> {
  const { Metrics } = await import('./platform/metrics.js');
  const metrics = new Metrics(buildInfo());
  if (database.pool) metrics.addPool(database.pool, config.dbPoolSize);
  return metrics;
}

/** How often keys past their retention are swept. */
const IDEMPOTENCY_SWEEP_MS = 10 * 60_000;
/** How often audit events past their retention are swept. */
const AUDIT_SWEEP_MS = 60 * 60_000;
/** Background jobs are deleted this long after they finished (`atrium jobs list` shows them until then). */
const FINISHED_JOB_RETENTION_MS = 86_400_000;
/** How long closing waits for running background jobs (webhook calls time out sooner); the rest resume elsewhere. */
const JOBS_DRAIN_MS = 15_000;

/** What a `jobs` process answers on its port (docs/SCALING.md, "Process roles"); every other path is a 404. */
const JOBS_ROLE_PATHS = new Set(['/healthz', '/readyz', '/version']);

async function jobsRoleOnly(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const path = request.url.split('?', 1)[0] ?? '';
  if (JOBS_ROLE_PATHS.has(path.length > 1 ? path.replace(/\/+$/, '') : path)) return;
  await reply
    .code(404)
    .send(hrErrorBody(404, `No resource at ${path}: this process runs background jobs only (ATRIUM_ROLE=jobs).`));
}

/**
 * The background work of a process with the `jobs` or `all` role: the job runner, the uploads' sweep, and the
 * retention sweeps. Answers what stops them (waiting for the running jobs up to JOBS_DRAIN_MS).
 */
async function startBackground(
  services: Services,
  database: Database,
  config: Config,
  log: FastifyBaseLogger,
): Promise<() => Promise<void>> {
  await services.uploads.start();
  // Keys past their retention go in the background, a batch at a time (platform/http/idempotency.ts).
  const idempotencySweep = setInterval(() => {
    sweepIdempotencyKeys(database.db, services.clock.now()).catch((error: unknown) =>
      log.warn({ err: error }, 'idempotency key sweep failed'),
    );
  }, IDEMPOTENCY_SWEEP_MS);
  idempotencySweep.unref();
  // Audit events past ATRIUM_EVENT_RETENTION_DAYS go hourly, with webhook attempts of the same age, the bulk calls
  // and imports' rows past ATRIUM_BULK_RETENTION_DAYS, and the background jobs that finished more than a day ago.
  const auditSweep = setInterval(() => {
    const now = services.clock.now();
    Promise.all([
      services.auditEvents.sweep(now, config.eventRetentionDays),
      services.webhooks.sweep(now, config.eventRetentionDays),
      services.bulk.sweep(now, config.bulkRetentionDays),
      pruneJobs(database.db, now - FINISHED_JOB_RETENTION_MS),
      services.requestLog.sweep(),
      services.renditions.sweep(),
    ]).catch((error: unknown) => log.warn({ err: error }, 'audit event sweep failed'));
  }, AUDIT_SWEEP_MS);
  auditSweep.unref();
  services.jobs.start();
  return async () => {
    clearInterval(idempotencySweep);
    clearInterval(auditSweep);
    await services.jobs.stop({ timeoutMs: JOBS_DRAIN_MS });
  };
}

/** The three APIs, the console's page, and the request log's capture of the tenant APIs' calls. */
async function registerApis(
  server: FastifyInstance,
  services: Services,
  config: Config,
  database: Database,
  limits: RateLimits,
): Promise<void> {
  await services.faults.start();
  services.requestLog.start();
  const idempotency = { db: database.db, now: () => services.clock.now() };
  const operationIdOf = operationIndex([HR_DOCUMENTATION, ACADEMY_DOCUMENTATION]);
  const faults = { source: services.faults, operationIdOf };
  // Every call of a tenant API goes to the request log (docs/admin.md), hooked here, on the whole server.
  const capture = requestLogCapture(services.requestLog, {
    identify: tenantCaller,
    operationIdOf,
    clock: services.clock,
    nearMisses: nearMisses(services),
  });
  server.addHook('preValidation', capture.preValidation);
  server.addHook('onSend', capture.onSend);
  server.addHook('onResponse', capture.onResponse);
  await server.register(hrApi, {
    prefix: HR_PREFIX,
    auth: services.auth,
    clock: services.clock,
    modules: services.hrModules,
    rateLimits: limits,
    idempotency,
    faults,
    strict: config.strict,
  });
  await server.register(academyApi, {
    prefix: ACADEMY_PREFIX,
    corsOrigins: config.corsOrigins,
    rateLimit: config.academyRateLimit,
    ...services,
    rateLimits: limits,
    idempotency,
    faults,
  });
  await server.register(consolePage);
  await server.register(adminApi, {
    prefix: ADMIN_PREFIX,
    adminTokens: services.adminTokens,
    adminTenants: services.adminTenants,
    clocks: services.clocks,
    faults: services.faults,
    requestLog: services.requestLog,
    reports: services.reports,
    clock: services.clock,
    snapshots: services.snapshots,
    portable: services.portableSnapshots,
    snapshotImportMaxBytes: config.snapshotImportMaxBytes,
    sessions: services.adminSessions,
    viewPasses: services.viewPasses,
    webhooks: services.adminWebhooks,
    events: services.adminEvents,
    settings: services.adminSettings,
    proxyJournal: config.proxyJournal,
    rateLimits: limits,
  });
}

/** Opens the database, applies migrations, and builds the HTTP server with both APIs. */
export async function buildApp(config: Config, options: { logger?: Logger; database?: Database } = {}): Promise<App> {
  const database = options.database ?? openDatabase(config);
  await migrateToLatest(database);
  const metrics = config.metricsPort === undefined ? undefined : await createMetrics(database, config);
  const server = await createServer({
    config,
    database,
    ...(metrics ? { metrics, apiOf } : {}),
    clientErrorBody: (path, status, message) =>
      path.startsWith(ACADEMY_PREFIX) ? academyErrorBody(status, message) : hrErrorBody(status, message),
    documentation: [HR_DOCUMENTATION, ACADEMY_DOCUMENTATION, ADMIN_DOCUMENTATION],
    // The HR API ignores unknown body members at every level (docs/hr-api.md); the academy API keeps its checks.
    unknownBodyFields: (url) => (apiOf(url) === 'hr' ? 'drop' : 'refuse'),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const serveApis = config.role !== 'jobs';
  const runsBackground = config.role !== 'api';
  if (!serveApis) server.addHook('onRequest', jobsRoleOnly);
  // With a port of its own, the admin API (and the console, its page) answers there only. That port also answers
  // the two tenant APIs, which the console's data browser reads with view passes on its own origin; nothing else
  // (not /docs, not /healthz). A `jobs` process has no admin API, so no such port.
  const adminPort = serveApis ? config.adminPort : undefined;
  if (adminPort !== undefined) {
    server.addHook('onRequest', async (request) => {
      const api = apiOf(request.url);
      const adminSide = api === 'admin' || underConsole(request.url);
      const served = onSecondPort(request) ? adminSide || api === 'hr' || api === 'academy' : !adminSide;
      if (!served) {
        throw new HrError(404, 'not_found', `No resource at ${request.url.split('?', 1)[0]}.`);
      }
    });
  }
  const services = await createServices(database, config, server.log as unknown as Logger);
  for (const finding of checkDataPermissions(config)) {
    if (!finding.ok) {
      server.log.warn(
        { path: finding.path, mode: finding.mode, expected: finding.expected },
        'readable by other users: restrict it (chmod); see `atrium doctor`',
      );
    }
  }
  // The role (docs/SCALING.md, "Process roles"): an `api` process claims no job and runs no sweep; a `jobs`
  // process registers no API. Each process keeps the caches it reads (tenant clocks; keys and revocations, faults
  // and the request log's writer for the APIs).
  await services.clocks.start();
  if (serveApis) await services.auth.start();
  const stopBackground = runsBackground ? await startBackground(services, database, config, server.log) : undefined;
  // One set of limits for both APIs: failed authentications count per client address whichever API they hit.
  const limits = rateLimits(config.rateLimit, config.authFailureLimit, () => services.clock.now());
  if (serveApis) await registerApis(server, services, config, database, limits);
  let adminListener: SecondPort | undefined;
  let closed = false;
  return {
    server,
    database,
    services,
    rateLimits: limits,
    metrics,
    async listenAdmin() {
      if (adminPort === undefined) return undefined;
      adminListener ??= await listenSecondPort(server, adminPort, config.host);
      return adminListener;
    },
    async close() {
      if (closed) return;
      closed = true;
      services.clocks.stop();
      await services.faults.stop();
      await services.requestLog.stop();
      await stopBackground?.();
      services.auth.stop();
      await services.uploads.stop();
      await services.renditions.stop();
      await Promise.all([server.close(), adminListener?.close()]);
      await services.requestLog.closeStorage();
      await database.close();
    },
  };
}
