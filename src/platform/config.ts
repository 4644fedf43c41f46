import { isIP } from 'node:net';
import path from 'node:path';

/**
 * Every setting Atrium reads, with its default. The configuration
 * table of docs/configuration.md mirrors this object; keep them in step.
 */
export interface Config {
  /** TCP port of the HTTP server (`PORT`). */
  port: number;
  /** Interface the HTTP server binds (`HOST`). */
  host: string;
  /**
   * The server's address as its users reach it (`ATRIUM_PUBLIC_URL`, without a trailing slash): when set, the only
   * base of the absolute URLs Atrium writes; unset, they are made from each request's `Host` and protocol.
   */
  publicUrl: string | undefined;
  /** Directory of the embedded SQLite database and of stored files (`ATRIUM_DATA_DIR`). */
  dataDir: string;
  /** PostgreSQL connection string (`DATABASE_URL`); unset means embedded SQLite. */
  databaseUrl: string | undefined;
  /** Size of the PostgreSQL connection pool (`ATRIUM_DB_POOL_SIZE`). */
  dbPoolSize: number;
  /** Longest a PostgreSQL statement may run before the server cancels it, in ms (`ATRIUM_DB_STATEMENT_TIMEOUT_MS`); 0: no limit. */
  dbStatementTimeoutMs: number;
  /**
   * Whether hot queries run as named statements of PostgreSQL's connections (`ATRIUM_DB_NAMED_STATEMENTS`, on by
   * default): off for a pooler that cannot keep them, such as PgBouncer in transaction mode before 1.21.
   */
  dbNamedStatements: boolean;
  /** How long SQLite waits for another process's write lock before failing, in ms (`ATRIUM_SQLITE_BUSY_TIMEOUT_MS`). */
  sqliteBusyTimeoutMs: number;
  /** MiB of database pages SQLite keeps in memory, per process (`ATRIUM_SQLITE_CACHE_MB`). */
  sqliteCacheMb: number;
  /** Server processes `atrium serve` runs (`ATRIUM_WORKERS`, or `serve --workers N`). */
  workers: number;
  /** Lifetime of HR access tokens in seconds (`ATRIUM_TOKEN_TTL`). */
  tokenTtlSeconds: number;
  /** How often each process refreshes its revocation cache, in ms (`ATRIUM_AUTH_REFRESH_MS`). */
  authRefreshMs: number;
  /** pino log level (`LOG_LEVEL`). */
  logLevel: string;
  /** Largest accepted JSON or form body in bytes (`ATRIUM_BODY_LIMIT`). */
  bodyLimit: number;
  /** Time allowed to receive a whole request, in ms (`ATRIUM_REQUEST_TIMEOUT`). */
  requestTimeoutMs: number;
  /** Time allowed to receive a request's line and headers, in ms (`ATRIUM_HEADERS_TIMEOUT`); at most the request timeout. */
  headersTimeoutMs: number;
  /** Open connections one process accepts (`ATRIUM_MAX_CONNECTIONS`); more are closed at once. */
  maxConnections: number;
  /** How long a rotated-out Academy API key keeps working, in seconds (`ATRIUM_KEY_GRACE_SECONDS`). */
  keyGraceSeconds: number;
  /** Requests per minute each academy may make to `/v1`, counted per process (`ATRIUM_ACADEMY_RATE_LIMIT`); 0 turns it off. */
  academyRateLimit: number;
  /** Origins allowed to call `/v1` from a browser (`ATRIUM_CORS_ORIGINS`, comma separated, `*` for any); empty means no CORS. */
  corsOrigins: string[];
  /** Largest uploaded file in bytes (`ATRIUM_UPLOAD_LIMIT`); larger uploads are refused with 413. */
  uploadLimit: number;
  /** How long an unused upload is kept, in seconds (`ATRIUM_UPLOAD_TTL`). */
  uploadTtlSeconds: number;
  /** How often each process deletes expired uploads, in ms (`ATRIUM_UPLOAD_SWEEP_MS`). */
  uploadSweepMs: number;
  /**
   * PostgreSQL: bytes of stored files each machine keeps on its disk, under `<dataDir>/blob-cache`, so that a
   * download reads them from there (`ATRIUM_BLOB_CACHE_MB`, in MiB); 0 turns the cache off.
   */
  blobCacheBytes: number;
  /** How long rendering one preview page may take, in ms, before the renderer is stopped (`ATRIUM_RENDER_TIMEOUT_MS`). */
  renderTimeoutMs: number;
  /**
   * The office converter document generation writes ODT and DOC with (`ATRIUM_SOFFICE`): a path to LibreOffice's
   * `soffice`, `off` for none, or undefined to look for it (platform/docgen/convert.ts).
   */
  soffice: string | undefined;
  /** How long one office conversion may take, in ms (`ATRIUM_SOFFICE_TIMEOUT_MS`). */
  sofficeTimeoutMs: number;
  /** Background jobs one process runs at once (`ATRIUM_JOB_CONCURRENCY`; platform/jobs/). */
  jobConcurrency: number;
  /**
   * The most of a process's job slots one tenant may hold (`ATRIUM_JOB_SLOTS_PER_TENANT`); undefined: one fewer
   * than `jobConcurrency` (platform/jobs/runner.ts).
   */
  jobSlotsPerTenant: number | undefined;
  /** How long a claimed background job is held without a heartbeat, in ms (`ATRIUM_JOB_LEASE_MS`). */
  jobLeaseMs: number;
  /** How long audit events are kept, in days (`ATRIUM_EVENT_RETENTION_DAYS`). */
  eventRetentionDays: number;
  /** How long a finished bulk call's or import's rows are kept, in days (`ATRIUM_BULK_RETENTION_DAYS`). */
  bulkRetentionDays: number;
  /**
   * Whether webhooks may call loopback, private and link-local addresses (`ATRIUM_WEBHOOK_ALLOW_PRIVATE`); by
   * default only when `HOST` is loopback.
   */
  webhookAllowPrivate: boolean;
  /** How long a receiver has to answer a callback, in ms (`ATRIUM_WEBHOOK_TIMEOUT_MS`). */
  webhookTimeoutMs: number;
  /** How long a failing delivery is retried, in seconds (`ATRIUM_WEBHOOK_RETRY_FOR`). */
  webhookRetryForSeconds: number;
  /** The first retry's wait ceiling, in ms (`ATRIUM_WEBHOOK_BACKOFF_BASE_MS`): it doubles each attempt. */
  webhookBackoffBaseMs: number;
  /** The longest wait between two attempts, in ms (`ATRIUM_WEBHOOK_BACKOFF_CAP_MS`). */
  webhookBackoffCapMs: number;
  /** Deliveries refused in a row (a private address) after which a webhook is made inactive; 0: never. */
  webhookDeactivateAfter: number;
  /** How often an idle process looks for due background jobs, in ms (`ATRIUM_JOB_POLL_MS`). */
  jobPollMs: number;
  /** Requests per second each credential (HR application, academy) may make, per process (`ATRIUM_RATE_LIMIT`); 0 turns it off. */
  rateLimit: number;
  /** Failed authentications per minute allowed from one client address, per process (`ATRIUM_AUTH_FAILURE_LIMIT`); 0 turns it off. */
  authFailureLimit: number;
  /** The master key of secrets at rest (`ATRIUM_MASTER_KEY`: 64 hex digits or base64 of 32 bytes); unset: the key file. */
  masterKey: string | undefined;
  /** The master key file used without `ATRIUM_MASTER_KEY` (`ATRIUM_MASTER_KEY_FILE`, default `<data dir>/master.key`). */
  masterKeyFile: string;
  /** The validation proxy's journal (`ATRIUM_PROXY_JOURNAL`, default `<data dir>/proxy.sqlite`; docs/proxy.md). */
  proxyJournal: string;
  /**
   * Which proxies may set the client address through `X-Forwarded-For` (`ATRIUM_TRUST_PROXY`): `false` (the
   * default: the connection's own address), a number of proxy hops, or a list of proxy addresses and CIDRs.
   */
  trustProxy: false | number | string[];
  /**
   * `ATRIUM_STRICT=1`: the HR API refuses unknown query parameters and a `per_page` above its maximum with 400, as
   * Atrium did before 25 November 2026. Off (the default), it ignores the one and clamps the other, as real
   * platforms do, so that clients sending extra parameters keep working.
   */
  strict: boolean;
  /**
   * Port of the Prometheus endpoint, `GET /metrics` (`ATRIUM_METRICS_PORT`); undefined (the default) turns metrics
   * off. `0` takes any free port. It is never the API's port: a port of its own, which a firewall can keep private.
   */
  metricsPort: number | undefined;
  /** Interface the metrics endpoint binds (`ATRIUM_METRICS_HOST`). */
  metricsHost: string;
  /**
   * Port of the admin API, `/admin/v1` (`ATRIUM_ADMIN_PORT`, `serve --admin-port`); undefined (the default): the
   * admin API shares the main port. Set, the admin API answers on that port only, and that port serves nothing
   * else; it binds the same interface as the API (`HOST`).
   */
  adminPort: number | undefined;
  /** `ATRIUM_REQUEST_LOG`: record every call of the tenant APIs in the request log (docs/admin.md); on by default. */
  requestLog: boolean;
  /** `ATRIUM_REQUEST_LOG_BODY_BYTES`: the most of each request and response body the log keeps (16 KiB). */
  requestLogBodyBytes: number;
  /** `ATRIUM_REQUEST_LOG_MAX_ROWS`: the most calls the log keeps per tenant (the oldest go first). */
  requestLogMaxRows: number;
  /** `ATRIUM_REQUEST_LOG_RETENTION_HOURS`: calls older than this leave the log. */
  requestLogRetentionHours: number;
  /** `ATRIUM_REQUEST_LOG_MAX_BYTES`: the most bytes of calls the log keeps per tenant (the oldest go first). */
  requestLogMaxBytes: number;
  /** `ATRIUM_REQUEST_LOG_BODIES`: per route, whether the log keeps bodies (`on`), none (`off`), or errors' only. */
  requestLogBodies: BodyRule[];
  // Per-tenant caps (docs/RELIABILITY.md, "No tenant can stall another").
  /** Active webhooks one client may have (`ATRIUM_MAX_ACTIVE_WEBHOOKS`); one more is 422. */
  maxActiveWebhooks: number;
  /** Deliveries waiting per webhook (`ATRIUM_MAX_PENDING_DELIVERIES`); past it the oldest are `dropped`. */
  maxPendingDeliveries: number;
  /** CSV imports one client may have running (`ATRIUM_MAX_CONCURRENT_IMPORTS`); one more is 429. */
  maxConcurrentImports: number;
  /** Dataset imports one client may have running (`ATRIUM_MAX_CONCURRENT_DATASET_IMPORTS`); one more is 429. */
  maxConcurrentDatasetImports: number;
  /** Document generation campaigns one client may have running (`ATRIUM_MAX_CONCURRENT_CAMPAIGNS`); one more is 429. */
  maxConcurrentCampaigns: number;
  /**
   * Open connections one process accepts from one address (`ATRIUM_MAX_CONNECTIONS_PER_ADDRESS`); more are closed at
   * once. 0: no cap. Default: 100, or a quarter of `maxConnections` when that is less; 0 behind a trusted proxy.
   */
  maxConnectionsPerAddress: number;
  /**
   * What `atrium serve` runs (`ATRIUM_ROLE`, `serve --role`): `all` (the default) the APIs and the background work,
   * `api` the APIs only (no job is claimed, no sweep runs), `jobs` the background work only (its port answers
   * `/healthz`, `/readyz` and `/version`, every other path 404). `api` and `jobs` need PostgreSQL (docs/SCALING.md).
   */
  role: Role;
  /**
   * The previews' renderer runs in a child process that is replaced once its resident memory passes this many MiB
   * (`ATRIUM_RENDER_RSS_LIMIT_MB`); the render that passed it fails (docs/RELIABILITY.md).
   */
  renderRssLimitMb: number;
  /**
   * The largest portable snapshot file `POST /admin/v1/tenants/{kind}/{id}/snapshots/import` accepts, in bytes
   * (`ATRIUM_SNAPSHOT_IMPORT_MAX_BYTES`; docs/admin.md, "Portable snapshots"): larger is a 413, nothing written.
   */
  snapshotImportMaxBytes: number;
}

/** What one server process runs (`ATRIUM_ROLE`). */
export type Role = 'all' | 'api' | 'jobs';
export const ROLES: readonly Role[] = ['all', 'api', 'jobs'];

/** `ATRIUM_ROLE`: `all`, `api` or `jobs`; unset or empty is `all`. */
function role(env: Env): Role {
  const raw = env.ATRIUM_ROLE?.trim().toLowerCase() || 'all';
  if (!(ROLES as readonly string[]).includes(raw)) {
    throw new ConfigError(`ATRIUM_ROLE must be all, api or jobs, got "${env.ATRIUM_ROLE}"`);
  }
  return raw as Role;
}

export type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || value > max) {
    throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  }
  return value;
}

/** A yes/no setting: `1`/`true`/`yes`/`on` or `0`/`false`/`no`/`off` (any case); unset or empty is `fallback`. */
/** `ATRIUM_PUBLIC_URL`: an absolute http(s) URL without query or fragment; its trailing slash dropped. */
function publicUrl(env: Env): string | undefined {
  const value = env.ATRIUM_PUBLIC_URL?.trim();
  if (!value) return undefined;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(
      'ATRIUM_PUBLIC_URL must be an absolute http:// or https:// URL without credentials, query or fragment',
    );
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** The `HOST` values that mean "this machine only": a single developer's sandbox. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be 1 or 0 (true or false), got "${env[name]}"`);
}

/** `ATRIUM_TRUST_PROXY`: off, a hop count, or comma-separated addresses / CIDRs of the trusted proxies. */
function trustProxy(env: Env): false | number | string[] {
  const raw = env.ATRIUM_TRUST_PROXY?.trim() ?? '';
  if (raw === '' || raw === 'false' || raw === '0') return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 32) throw new ConfigError(`ATRIUM_TRUST_PROXY must be at most 32 hops, got ${hops}`);
    return hops;
  }
  const entries = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (family === 0 || !prefixOk || extra !== undefined) {
      throw new ConfigError(
        `ATRIUM_TRUST_PROXY must be a hop count or a comma-separated list of addresses and CIDRs, got "${entry}"`,
      );
    }
  }
  return entries;
}

/** One entry of `ATRIUM_REQUEST_LOG_BODIES`: calls of `method` (any when undefined) whose path matches `path`. */
export interface BodyRule {
  method: string | undefined;
  /** A path, `*` matching any run of characters (`/` included). */
  path: string;
  /** `on`: bodies kept; `off`: noted by size only; `errors`: kept when the status is 400 or more. */
  mode: 'on' | 'off' | 'errors';
}

const BODY_RULE = /^(?:(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)\s+)?([/*]\S*)\s*=\s*(on|off|errors)$/i;

/** `ATRIUM_REQUEST_LOG_BODIES`: comma-separated `[METHOD ]PATH=on|off|errors`, the first that matches a call wins. */
function bodyRules(env: Env): BodyRule[] {
  const raw = env.ATRIUM_REQUEST_LOG_BODIES?.trim() ?? '';
  if (raw === '') return [];
  return raw.split(',').map((entry) => {
    const m = BODY_RULE.exec(entry.trim());
    if (!m) {
      throw new ConfigError(
        `ATRIUM_REQUEST_LOG_BODIES entries are "[METHOD ]/path/*=on|off|errors", comma separated; got "${entry.trim()}"`,
      );
    }
    return {
      method: m[1]?.toUpperCase(),
      path: m[2] as string,
      mode: (m[3] as string).toLowerCase() as BodyRule['mode'],
    };
  });
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  if (databaseUrl && !URL.canParse(databaseUrl)) {
    // Never quoted back: it may hold a password.
    throw new ConfigError(
      'DATABASE_URL is not a valid URL (a password with special characters must be percent-encoded)',
    );
  }
  const config: Config = {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: env.HOST?.trim() || '127.0.0.1',
    publicUrl: publicUrl(env),
    dataDir: path.resolve(env.ATRIUM_DATA_DIR?.trim() || './data'),
    databaseUrl,
    dbPoolSize: integer(env, 'ATRIUM_DB_POOL_SIZE', 10, 1, 1000),
    dbStatementTimeoutMs: integer(env, 'ATRIUM_DB_STATEMENT_TIMEOUT_MS', 30_000, 0, 86_400_000),
    dbNamedStatements: flag(env, 'ATRIUM_DB_NAMED_STATEMENTS', true),
    sqliteBusyTimeoutMs: integer(env, 'ATRIUM_SQLITE_BUSY_TIMEOUT_MS', 5000, 0, 600_000),
    sqliteCacheMb: integer(env, 'ATRIUM_SQLITE_CACHE_MB', 8, 1, 65_536),
    workers: integer(env, 'ATRIUM_WORKERS', 1, 1, 256),
    tokenTtlSeconds: integer(env, 'ATRIUM_TOKEN_TTL', 3600, 1, 31_536_000),
    authRefreshMs: integer(env, 'ATRIUM_AUTH_REFRESH_MS', 500, 50, 900),
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    bodyLimit: integer(env, 'ATRIUM_BODY_LIMIT', 1_048_576, 1024, 1_073_741_824),
    requestTimeoutMs: integer(env, 'ATRIUM_REQUEST_TIMEOUT', 30_000, 1000, 3_600_000),
    headersTimeoutMs: integer(env, 'ATRIUM_HEADERS_TIMEOUT', 10_000, 1000, 3_600_000),
    maxConnections: integer(env, 'ATRIUM_MAX_CONNECTIONS', 10_000, 1, 1_000_000),
    keyGraceSeconds: integer(env, 'ATRIUM_KEY_GRACE_SECONDS', 86_400, 0, 31_536_000),
    academyRateLimit: integer(env, 'ATRIUM_ACADEMY_RATE_LIMIT', 1200, 0, 1_000_000_000),
    corsOrigins: (env.ATRIUM_CORS_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    uploadLimit: integer(env, 'ATRIUM_UPLOAD_LIMIT', 52_428_800, 1, Number.MAX_SAFE_INTEGER),
    uploadTtlSeconds: integer(env, 'ATRIUM_UPLOAD_TTL', 86_400, 1, 31_536_000),
    uploadSweepMs: integer(env, 'ATRIUM_UPLOAD_SWEEP_MS', 60_000, 100, 86_400_000),
    blobCacheBytes: integer(env, 'ATRIUM_BLOB_CACHE_MB', 512, 0, 16_777_216) * 1024 * 1024,
    renderTimeoutMs: integer(env, 'ATRIUM_RENDER_TIMEOUT_MS', 10_000, 500, 300_000),
    soffice: env.ATRIUM_SOFFICE?.trim() || undefined,
    sofficeTimeoutMs: integer(env, 'ATRIUM_SOFFICE_TIMEOUT_MS', 60_000, 1000, 600_000),
    jobConcurrency: integer(env, 'ATRIUM_JOB_CONCURRENCY', 4, 1, 1000),
    jobSlotsPerTenant: env.ATRIUM_JOB_SLOTS_PER_TENANT?.trim()
      ? integer(env, 'ATRIUM_JOB_SLOTS_PER_TENANT', 1, 1, 1000)
      : undefined,
    jobPollMs: integer(env, 'ATRIUM_JOB_POLL_MS', 500, 10, 3_600_000),
    jobLeaseMs: integer(env, 'ATRIUM_JOB_LEASE_MS', 60_000, 1000, 86_400_000),
    eventRetentionDays: integer(env, 'ATRIUM_EVENT_RETENTION_DAYS', 90, 1, 36_500),
    bulkRetentionDays: integer(env, 'ATRIUM_BULK_RETENTION_DAYS', 30, 1, 36_500),
    // Private receivers are the single developer's sandbox: allowed by default only when the server listens on
    // loopback alone.
    webhookAllowPrivate: flag(env, 'ATRIUM_WEBHOOK_ALLOW_PRIVATE', LOOPBACK_HOSTS.has(env.HOST?.trim() || '127.0.0.1')),
    webhookTimeoutMs: integer(env, 'ATRIUM_WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    webhookRetryForSeconds: integer(env, 'ATRIUM_WEBHOOK_RETRY_FOR', 86_400, 0, 2_592_000),
    webhookBackoffBaseMs: integer(env, 'ATRIUM_WEBHOOK_BACKOFF_BASE_MS', 1000, 1, 3_600_000),
    webhookBackoffCapMs: integer(env, 'ATRIUM_WEBHOOK_BACKOFF_CAP_MS', 3_600_000, 1, 86_400_000),
    webhookDeactivateAfter: integer(env, 'ATRIUM_WEBHOOK_DEACTIVATE_AFTER', 5, 0, 1000),
    rateLimit: integer(env, 'ATRIUM_RATE_LIMIT', 1000, 0, 1_000_000_000),
    authFailureLimit: integer(env, 'ATRIUM_AUTH_FAILURE_LIMIT', 60, 0, 1_000_000_000),
    masterKey: env.ATRIUM_MASTER_KEY?.trim() || undefined,
    masterKeyFile: '',
    proxyJournal: '',
    trustProxy: trustProxy(env),
    strict: flag(env, 'ATRIUM_STRICT', false),
    metricsPort: env.ATRIUM_METRICS_PORT?.trim() ? integer(env, 'ATRIUM_METRICS_PORT', 0, 0, 65535) : undefined,
    metricsHost: env.ATRIUM_METRICS_HOST?.trim() || '127.0.0.1',
    adminPort: env.ATRIUM_ADMIN_PORT?.trim() ? integer(env, 'ATRIUM_ADMIN_PORT', 0, 0, 65535) : undefined,
    requestLog: flag(env, 'ATRIUM_REQUEST_LOG', true),
    requestLogBodyBytes: integer(env, 'ATRIUM_REQUEST_LOG_BODY_BYTES', 16_384, 0, 1_048_576),
    requestLogMaxRows: integer(env, 'ATRIUM_REQUEST_LOG_MAX_ROWS', 10_000, 1, 10_000_000),
    requestLogRetentionHours: integer(env, 'ATRIUM_REQUEST_LOG_RETENTION_HOURS', 168, 1, 87_600),
    requestLogMaxBytes: integer(env, 'ATRIUM_REQUEST_LOG_MAX_BYTES', 52_428_800, 65_536, 1_099_511_627_776),
    requestLogBodies: bodyRules(env),
    // Per-tenant caps.
    maxActiveWebhooks: integer(env, 'ATRIUM_MAX_ACTIVE_WEBHOOKS', 20, 1, 100_000),
    maxPendingDeliveries: integer(env, 'ATRIUM_MAX_PENDING_DELIVERIES', 1000, 1, 10_000_000),
    maxConcurrentImports: integer(env, 'ATRIUM_MAX_CONCURRENT_IMPORTS', 2, 1, 1000),
    maxConcurrentDatasetImports: integer(env, 'ATRIUM_MAX_CONCURRENT_DATASET_IMPORTS', 2, 1, 1000),
    maxConcurrentCampaigns: integer(env, 'ATRIUM_MAX_CONCURRENT_CAMPAIGNS', 2, 1, 1000),
    maxConnectionsPerAddress: 0,
    role: role(env),
    renderRssLimitMb: integer(env, 'ATRIUM_RENDER_RSS_LIMIT_MB', 384, 64, 65_536),
    snapshotImportMaxBytes: integer(env, 'ATRIUM_SNAPSHOT_IMPORT_MAX_BYTES', 1_073_741_824, 1024, 1_099_511_627_776),
  };
  // Behind a trusted proxy every connection comes from a proxy: a cap per address would cap the proxy, so it is off
  // unless set. Otherwise well below the global cap: 100, or a quarter of it when that is less.
  const perAddressDefault = config.trustProxy
    ? 0
    : Math.max(1, Math.min(100, Math.floor((overrides.maxConnections ?? config.maxConnections) / 4)));
  config.maxConnectionsPerAddress = integer(env, 'ATRIUM_MAX_CONNECTIONS_PER_ADDRESS', perAddressDefault, 0, 1_000_000);

  config.masterKeyFile = path.resolve(
    env.ATRIUM_MASTER_KEY_FILE?.trim() || path.join(overrides.dataDir ?? config.dataDir, 'master.key'),
  );
  config.proxyJournal = path.resolve(
    env.ATRIUM_PROXY_JOURNAL?.trim() || path.join(overrides.dataDir ?? config.dataDir, 'proxy.sqlite'),
  );
  const merged = { ...config, ...overrides };
  // The default follows the interface actually bound, `serve --host` included, not only HOST.
  if (!env.ATRIUM_WEBHOOK_ALLOW_PRIVATE?.trim()) {
    merged.webhookAllowPrivate = overrides.webhookAllowPrivate ?? LOOPBACK_HOSTS.has(merged.host);
  }
  if (merged.metricsPort !== undefined && merged.metricsPort !== 0 && merged.metricsPort === merged.port) {
    throw new ConfigError(
      `ATRIUM_METRICS_PORT must differ from PORT (${merged.port}): metrics have a port of their own`,
    );
  }
  if (merged.adminPort !== undefined && merged.adminPort !== 0 && merged.adminPort === merged.port) {
    throw new ConfigError(`ATRIUM_ADMIN_PORT must differ from PORT (${merged.port}); leave it unset to share PORT`);
  }
  if (merged.adminPort !== undefined && merged.adminPort !== 0 && merged.adminPort === merged.metricsPort) {
    throw new ConfigError('ATRIUM_ADMIN_PORT must differ from ATRIUM_METRICS_PORT');
  }
  return merged;
}
