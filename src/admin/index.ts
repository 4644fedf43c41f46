import type { BlobStore } from '../platform/blobs/store.js';
import { type Db, dialectOf } from '../platform/db/database.js';
import { UnitOfWork } from '../platform/db/unit-of-work.js';
import type { ViewPasses } from '../platform/security/view-pass.js';
import type { Clock } from '../platform/time.js';
import { AdminAuditRepository } from './audit/repository.js';
import { AdminAuditService } from './audit/service.js';
import { TenantClocksRepository } from './clocks/repository.js';
import { ClocksService } from './clocks/service.js';
import { AdminEventsService, type HrEventTriggers } from './events/service.js';
import { TenantFaultsRepository } from './faults/repository.js';
import { FaultsService } from './faults/service.js';
import { ReportService } from './report/service.js';
import type { Journal } from './request-log/journal.js';
import { RequestLogRepository } from './request-log/repository.js';
import { RequestLogService, type RequestLogSettings } from './request-log/service.js';
import { AdminSessionsRepository } from './sessions/repository.js';
import { AdminSessionsService } from './sessions/service.js';
import { AdminSettingsService, type HrSettings } from './settings/service.js';
import type { RebuildDerived } from './snapshots/portable-import.js';
import { PortableSnapshotsService } from './snapshots/portable-service.js';
import { SnapshotsRepository } from './snapshots/repository.js';
import { SnapshotsService } from './snapshots/service.js';
import type { TenantRef } from './tenant-ref.js';
import { type AcademyTenants, AdminTenantsService, type HrTenants } from './tenants/service.js';
import { AdminTokensRepository } from './tokens/repository.js';
import { AdminTokensService } from './tokens/service.js';
import { ViewPassesService } from './view-passes/service.js';
import { AdminWebhooksService, type HrWebhooks } from './webhooks/service.js';

/**
 * The admin side of Atrium (docs/admin.md): operators' tokens, the admin audit log, the tenants as the admin API
 * addresses them, their clocks, their fault rules, the request log and their snapshots. The admin API (`/admin/v1`,
 * plugin.ts) is served on them.
 */
export function createAdmin(context: {
  db: Db;
  clock: Clock;
  tenants: HrTenants;
  academies: AcademyTenants;
  /** The HR API's webhooks (an operator's redelivery). */
  webhooks: HrWebhooks;
  /** The HR API's audit trail (an operator's event trigger). */
  eventTriggers: HrEventTriggers;
  /** The HR API's client settings (an operator's change, a staged configuration update). */
  settings: HrSettings;
  /** The view passes the tenant APIs accept (the console's read-only access). */
  viewPasses: ViewPasses;
  /** Every operationId of the tenant APIs (a fault rule may name one). */
  operationIds: () => ReadonlySet<string>;
  requestLog: RequestLogSettings;
  /** Where the request log is kept (request-log/journal.ts). */
  journal: Journal;
  log?: { warn(obj: object, msg: string): void } | undefined;
  blobs: Pick<BlobStore, 'deleteIfUnreferenced' | 'read' | 'put'>;
  /** The largest portable snapshot file an import accepts (1 GiB unless given). */
  snapshotImportMaxBytes?: number;
  /** Rebuilds a tenant's derived rows a portable file leaves out (its articles' full-text rows). */
  rebuildDerived?: RebuildDerived;
  /** After a snapshot restore or a reset commits: this process's caches of the tenant forget it. */
  onTenantReplaced?: (tenant: TenantRef, credentials: boolean) => void;
  /** After the admin API revokes or rotates a tenant's credential: this process's credential caches catch up. */
  onCredentialsChanged?: (tenant: TenantRef) => Promise<void> | void;
}) {
  const dialect = dialectOf(context.db);
  const work = new UnitOfWork(context.db, (db) => ({
    tokens: new AdminTokensRepository(db),
    audit: new AdminAuditRepository(db),
    clocks: new TenantClocksRepository(db),
    faults: new TenantFaultsRepository(db),
    snapshots: new SnapshotsRepository(db, dialect),
    sessions: new AdminSessionsRepository(db),
  }));
  const requestLog = new RequestLogRepository(context.journal, context.db);
  const adminTokens = new AdminTokensService(work, context.clock);
  const adminTenants = new AdminTenantsService(
    context.tenants,
    context.academies,
    work.read.audit,
    context.clock,
    context.onCredentialsChanged,
  );
  const snapshots = new SnapshotsService(work, context.clock, dialect, context.blobs, context.onTenantReplaced);
  return {
    adminTokens,
    adminSessions: new AdminSessionsService(work, adminTokens, context.clock),
    adminAudit: new AdminAuditService(work.read.audit),
    adminTenants,
    clocks: new ClocksService(work, context.clock),
    faults: new FaultsService(work, context.clock, context.operationIds),
    requestLog: new RequestLogService(requestLog, context.requestLog, context.clock, context.log),
    /** Where the request log is kept: its own SQLite file, or the tenants' PostgreSQL database. */
    requestLogJournal: context.journal,
    reports: new ReportService(requestLog),
    snapshots,
    portableSnapshots: new PortableSnapshotsService(
      work,
      snapshots,
      adminTenants,
      dialect,
      context.blobs,
      context.clock,
      { importMaxBytes: context.snapshotImportMaxBytes ?? 1_073_741_824 },
      context.rebuildDerived,
    ),
    viewPasses: new ViewPassesService(context.viewPasses, context.clock),
    adminWebhooks: new AdminWebhooksService(context.webhooks, work.read.audit, context.clock),
    adminEvents: new AdminEventsService(context.eventTriggers, work.read.audit, context.clock),
    adminSettings: new AdminSettingsService(context.settings, work.read.audit, context.clock),
  };
}

export type AdminServices = ReturnType<typeof createAdmin>;
