/**
 * Every service, wired to one database, without the HTTP server: what the CLI's commands need, so that they do not
 * load Fastify and every route (app.ts re-exports it and builds the server on it).
 */

import type { Logger } from 'pino';
import { TimezoneRegistry } from './academy/content/timezones.js';
import { createAcademy } from './academy/index.js';
import { ACADEMY_DOCUMENTATION } from './academy/openapi.js';
import type { AcademyServices } from './academy/plugin.js';
import { type AdminServices, createAdmin } from './admin/index.js';
import { journalFiles, openJournal } from './admin/request-log/journal.js';
import { createHr, type HrServices } from './hr/index.js';
import { reindexArticles } from './hr/knowledge/kb-articles/reindex.js';
import { CursorCodec } from './hr/lists/cursor.js';
import { Paginator } from './hr/lists/pagination.js';
import type { HrModule } from './hr/module.js';
import { HR_DOCUMENTATION } from './hr/openapi.js';
import { blobDirectory, openBlobStore } from './platform/blobs/open.js';
import type { BlobStore } from './platform/blobs/store.js';
import type { Config } from './platform/config.js';
import { type Database, sqlitePath } from './platform/db/database.js';
import { openMasterKey, secretSettingOrCreate } from './platform/db/settings.js';
import { academyTenantId, hrTenantId } from './platform/db/tenant.js';
import { operationIds } from './platform/http/openapi.js';
import { createJobRunner, type JobRunner } from './platform/jobs/index.js';
import { PdfWorker } from './platform/pdf/runner.js';
import { Renditions } from './platform/renditions/renditions.js';
import { checkPermissions, type PermissionFinding } from './platform/security/permissions.js';
import type { SecretBox } from './platform/security/secret-box.js';
import { newSecret } from './platform/security/secrets.js';
import { ViewPasses } from './platform/security/view-pass.js';
import { Clock } from './platform/time.js';

/** Every service, wired to one database. The CLI and the server share this. */
export interface Services extends HrServices, AcademyServices, AdminServices {
  /** The clock every time-derived state reads; tests move it. */
  clock: Clock;
  timezones: TimezoneRegistry;
  /** Stored files: a directory with SQLite, chunks in the database with PostgreSQL. */
  blobs: BlobStore;
  /** Previews of stored files (PNG pages), cached as blobs. */
  renditions: Renditions;
  /** Encryption at rest of reversible secrets (the master key); webhook keys will use it too. */
  secretBox: SecretBox;
  paginator: Paginator;
  /** Every resource of the HR API, as its areas list them (`hr/index.ts`). */
  hrModules: readonly HrModule[];
  /** The background job runner (webhook deliveries): the server starts it; a CLI command may run it once. */
  jobs: JobRunner;
}

export async function createServices(database: Database, config: Config, log?: Logger): Promise<Services> {
  const db = database.db;
  const clock = new Clock();
  // A master key that is not this database's own fails here, at start, with MasterKeyError (never a 500 later).
  // A restored database without its key fails the same way, and no key file is written for it.
  const secretBox = await openMasterKey(db, config);
  // Secrets an earlier release stored in plain text are sealed now (the cursor secret on first read).
  const cursorSecret = await secretSettingOrCreate(db, secretBox, 'cursor_secret', () => newSecret());
  // The admin API's view passes (the console's read-only access to a tenant API), accepted by every process.
  const viewPasses = new ViewPasses(await secretSettingOrCreate(db, secretBox, 'view_pass_secret', () => newSecret()));
  const timezones = new TimezoneRegistry();
  const blobs = openBlobStore(database, {
    dataDir: config.dataDir,
    cacheBytes: config.blobCacheBytes,
    ...(log ? { log } : {}),
  });
  const paginator = new Paginator(new CursorCodec(cursorSecret));
  const renditions = new Renditions(
    db,
    blobs,
    // A child process: a hostile file's native memory (the canvas, decoded images) is the child's, bounded by
    // ATRIUM_RENDER_RSS_LIMIT_MB and returned to the system when it is replaced or idle (docs/RELIABILITY.md).
    new PdfWorker({
      log,
      renderTimeoutMs: config.renderTimeoutMs,
      preload: true,
      isolation: 'process',
      rssLimitMb: config.renderRssLimitMb,
    }),
    log,
  );
  let jobs: JobRunner | undefined;
  const wakeJobs = () => jobs?.wake();
  const hr = createHr({
    database,
    db,
    config,
    clock,
    blobs,
    renditions,
    paginator,
    secretBox,
    viewPasses,
    log,
    wakeJobs,
  });
  jobs = createJobRunner(database, config, {
    handlers: hr.jobs,
    clock,
    leaseMs: config.jobLeaseMs,
    ...(log ? { log } : {}),
  });
  const sealed = await hr.services.auth.sealPlaintextKeys();
  if (sealed > 0) log?.info({ sealed }, 'signing keys stored in plain text were encrypted with the master key');
  const academy = createAcademy({
    database,
    db,
    clock,
    timezones,
    keyGraceSeconds: config.keyGraceSeconds,
    viewPasses,
  });
  return {
    ...hr.services,
    hrModules: hr.modules,
    jobs,
    clock,
    secretBox,
    timezones,
    blobs,
    renditions,
    paginator,
    ...academy,
    ...createAdmin({
      db,
      clock,
      tenants: hr.services.tenants,
      academies: academy.academies,
      webhooks: hr.services.webhooks,
      eventTriggers: hr.services.eventTriggers,
      settings: hr.services.settings,
      viewPasses,
      operationIds: () => operationIds([HR_DOCUMENTATION, ACADEMY_DOCUMENTATION]),
      journal: openJournal(database, {
        dataDir: config.dataDir,
        busyTimeoutMs: config.sqliteBusyTimeoutMs,
        ...(log ? { log } : {}),
      }),
      requestLog: {
        enabled: config.requestLog,
        bodyBytes: config.requestLogBodyBytes,
        maxRows: config.requestLogMaxRows,
        retentionHours: config.requestLogRetentionHours,
        maxBytes: config.requestLogMaxBytes,
        bodies: config.requestLogBodies,
      },
      log,
      blobs,
      snapshotImportMaxBytes: config.snapshotImportMaxBytes,
      rebuildDerived: async (trx, tenant) => {
        if (tenant.kind === 'hr') await reindexArticles(trx, database.dialect, hrTenantId(tenant.id));
      },
      onTenantReplaced: (tenant, credentials) => {
        if (tenant.kind === 'academy') {
          academy.events.forgetTotals(academyTenantId(Number(tenant.id)));
          if (credentials) academy.academies.forgetAcademy(academyTenantId(Number(tenant.id)));
        } else if (credentials) hr.services.auth.forgetClient(hrTenantId(tenant.id));
      },
      onCredentialsChanged: async (tenant) => {
        if (tenant.kind === 'academy') academy.academies.forgetAcademy(academyTenantId(Number(tenant.id)));
        else await hr.services.auth.refresh();
      },
    }),
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
    // The request log's own file, which holds redacted calls (created 0600 like the database).
    for (const file of journalFiles(config.dataDir)) paths.push([file, '0600']);
  }
  if (!config.masterKey) paths.push([config.masterKeyFile, '0600']);
  return checkPermissions(paths);
}
