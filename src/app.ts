import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { TimezoneRegistry } from './academy/content/timezones.js';
import { academyErrorBody } from './academy/errors.js';
import { createAcademy } from './academy/index.js';
import { ACADEMY_DOCUMENTATION } from './academy/openapi.js';
import { ACADEMY_PREFIX, type AcademyServices, academyApi } from './academy/plugin.js';
import { hrErrorBody } from './hr/errors.js';
import { createHr, type HrServices } from './hr/index.js';
import { CursorCodec } from './hr/lists/cursor.js';
import { Paginator } from './hr/lists/pagination.js';
import type { HrModule } from './hr/module.js';
import { HR_DOCUMENTATION } from './hr/openapi.js';
import { HR_PREFIX, hrApi } from './hr/plugin.js';
import { blobDirectory, openBlobStore } from './platform/blobs/open.js';
import type { BlobStore } from './platform/blobs/store.js';
import type { Config } from './platform/config.js';
import { type Database, openDatabase, sqlitePath } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrate.js';
import { checkMasterKey, secretSettingOrCreate } from './platform/db/settings.js';
import { sweepIdempotencyKeys } from './platform/http/idempotency.js';
import { type RateLimits, rateLimits } from './platform/http/rate-limit.js';
import { createServer } from './platform/http/server.js';
import { checkPermissions, type PermissionFinding } from './platform/security/permissions.js';
import { loadSecretBox, type SecretBox } from './platform/security/secret-box.js';
import { newSecret } from './platform/security/secrets.js';
import { Clock } from './platform/time.js';

/** Every service, wired to one database. The CLI and the server share this. */
export interface Services extends HrServices, AcademyServices {
  /** The clock every time-derived state reads; tests move it. */
  clock: Clock;
  timezones: TimezoneRegistry;
  /** Stored files: a directory with SQLite, chunks in the database with PostgreSQL. */
  blobs: BlobStore;
  /** Encryption at rest of reversible secrets (the master key); webhook keys will use it too. */
  secretBox: SecretBox;
  paginator: Paginator;
  /** Every resource of the HR API, as its areas list them (`hr/index.ts`). */
  hrModules: readonly HrModule[];
}

export async function createServices(database: Database, config: Config, log?: Logger): Promise<Services> {
  const db = database.db;
  const clock = new Clock();
  // A master key that is not this database's own fails here, at start, with MasterKeyError (never a 500 later).
  const secretBox = loadSecretBox(config);
  await checkMasterKey(db, secretBox);
  // Secrets an earlier release stored in plain text are sealed now (the cursor secret on first read).
  const cursorSecret = await secretSettingOrCreate(db, secretBox, 'cursor_secret', () => newSecret());
  const timezones = new TimezoneRegistry();
  const blobs = openBlobStore(database, { dataDir: config.dataDir, ...(log ? { log } : {}) });
  const paginator = new Paginator(new CursorCodec(cursorSecret));
  const hr = createHr({ database, db, config, clock, blobs, paginator, secretBox, log });
  const sealed = await hr.services.auth.sealPlaintextKeys();
  if (sealed > 0) log?.info({ sealed }, 'signing keys stored in plain text were encrypted with the master key');
  return {
    ...hr.services,
    hrModules: hr.modules,
    clock,
    secretBox,
    timezones,
    blobs,
    paginator,
    ...createAcademy({ database, db, clock, timezones, keyGraceSeconds: config.keyGraceSeconds }),
  };
}

/**
 * The data directory, the SQLite files, the blob directory and the master key file, checked for permissions looser
 * than their owner's only (the start-up warning and `atrium doctor`; docs/security.md).
 */
export function checkDataPermissions(
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 'masterKey' | 'masterKeyFile'>,
): PermissionFinding[] {
  const paths: Array<[string, string]> = [[config.dataDir, '0700']];
  if (!config.databaseUrl) {
    const db = sqlitePath(config.dataDir);
    paths.push([db, '0600'], [`${db}-wal`, '0600'], [`${db}-shm`, '0600'], [blobDirectory(config.dataDir), '0700']);
  }
  if (!config.masterKey) paths.push([config.masterKeyFile, '0600']);
  return checkPermissions(paths);
}

export interface App {
  server: FastifyInstance;
  database: Database;
  services: Services;
  /** The request and failed-authentication limits both APIs share (per process). */
  rateLimits: RateLimits;
  close(): Promise<void>;
}

/** How often keys past their retention are swept. */
const IDEMPOTENCY_SWEEP_MS = 10 * 60_000;

/** Opens the database, applies migrations, and builds the HTTP server with both APIs. */
export async function buildApp(config: Config, options: { logger?: Logger; database?: Database } = {}): Promise<App> {
  const database = options.database ?? openDatabase(config);
  await migrateToLatest(database);
  const server = await createServer({
    config,
    database,
    clientErrorBody: (path, status, message) =>
      path.startsWith(ACADEMY_PREFIX) ? academyErrorBody(status, message) : hrErrorBody(status, message),
    documentation: [HR_DOCUMENTATION, ACADEMY_DOCUMENTATION],
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const services = await createServices(database, config, server.log as unknown as Logger);
  for (const finding of checkDataPermissions(config)) {
    if (!finding.ok) {
      server.log.warn(
        { path: finding.path, mode: finding.mode, expected: finding.expected },
        'readable by other users: restrict it (chmod); see `atrium doctor`',
      );
    }
  }
  await services.auth.start();
  await services.uploads.start();
  // One set of limits for both APIs: failed authentications count per client address whichever API they hit.
  const idempotency = { db: database.db, now: () => services.clock.now() };
  // Keys past their retention go in the background, a batch at a time (platform/http/idempotency.ts).
  const idempotencySweep = setInterval(() => {
    sweepIdempotencyKeys(database.db, services.clock.now()).catch((error: unknown) =>
      server.log.warn({ err: error }, 'idempotency key sweep failed'),
    );
  }, IDEMPOTENCY_SWEEP_MS);
  idempotencySweep.unref();
  const limits = rateLimits(config.rateLimit, config.authFailureLimit, () => services.clock.now());
  await server.register(hrApi, {
    prefix: HR_PREFIX,
    auth: services.auth,
    modules: services.hrModules,
    rateLimits: limits,
    idempotency,
  });
  await server.register(academyApi, {
    prefix: ACADEMY_PREFIX,
    corsOrigins: config.corsOrigins,
    rateLimit: config.academyRateLimit,
    ...services,
    rateLimits: limits,
    idempotency,
  });
  let closed = false;
  return {
    server,
    database,
    services,
    rateLimits: limits,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(idempotencySweep);
      services.auth.stop();
      await services.uploads.stop();
      await server.close();
      await database.close();
    },
  };
}
