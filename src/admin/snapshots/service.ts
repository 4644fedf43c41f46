import type { BlobStore } from '../../platform/blobs/store.js';
import type { DialectName } from '../../platform/db/database.js';
import { migrationNames } from '../../platform/db/migrate.js';
import type { Tables } from '../../platform/db/schema.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import type { Clock } from '../../platform/time.js';
import type { AdminAuditRepository } from '../audit/repository.js';
import type { TenantRef } from '../tenant-ref.js';
import { planFor, readSchema, type SnapshotPlan } from './catalogue.js';
import type { SnapshotDetail, SnapshotRecord, SnapshotsRepository } from './repository.js';

export interface SnapshotsWork {
  snapshots: SnapshotsRepository;
  audit: AdminAuditRepository;
}

/** What a restore or a reset answers. */
export interface ReplaceOutcome {
  tenant: TenantRef;
  snapshot: string | null;
  credentials: 'keep' | 'restore';
  deletedRows: number;
  restoredRows: number;
  cancelledJobs: number;
  /** Files nothing refers to any more, deleted after the commit. */
  deletedFiles: number;
}

/**
 * Tenant snapshots (docs/admin.md, "Snapshots"): save a tenant's whole state under a name, restore it, or empty the
 * tenant, while the server runs. A restore or a reset is one transaction (a reader sees the tenant before or after,
 * never between); each action is audited in its own transaction. `onReplaced` runs after a restore or a reset
 * commits, for this process's caches of the tenant.
 */
export class SnapshotsService {
  private plans: Promise<Record<'hr' | 'academy', SnapshotPlan>> | undefined;

  constructor(
    private readonly work: UnitOfWork<Tables, SnapshotsWork>,
    private readonly clock: Clock,
    private readonly dialect: DialectName,
    private readonly blobs: Pick<BlobStore, 'deleteIfUnreferenced'>,
    private readonly onReplaced: (tenant: TenantRef, credentials: boolean) => void = () => {},
  ) {}

  /** What a snapshot of each kind of tenant covers, read from the schema once. */
  plan(kind: TenantRef['kind']): Promise<SnapshotPlan> {
    this.plans ??= readSchema(this.work.read.snapshots.db, this.dialect).then((schema) => ({
      hr: planFor('hr', schema),
      academy: planFor('academy', schema),
    }));
    this.plans.catch(() => {
      this.plans = undefined;
    });
    return this.plans.then((p) => p[kind]);
  }

  /** After another writer (an import) replaced the tenant's rows: this process's caches of it forget them. */
  replaced(tenant: TenantRef): void {
    this.onReplaced(tenant, false);
  }

  list(tenant: TenantRef): Promise<SnapshotRecord[]> {
    return this.work.read.snapshots.list(tenant.key);
  }

  async retrieve(tenant: TenantRef, name: string): Promise<SnapshotDetail> {
    const found = await this.work.read.snapshots.find(tenant.key, name);
    if (!found) throw missing(tenant, name);
    return found;
  }

  /** Saves the tenant's state as `name`; a ConflictError when the tenant has a snapshot of that name. */
  async create(tenant: TenantRef, name: string, actor: string): Promise<SnapshotDetail> {
    const plan = await this.plan(tenant.kind);
    await this.work.run(async ({ snapshots, audit }) => {
      await snapshots.repeatableRead();
      if (await snapshots.find(tenant.key, name)) {
        throw new ConflictError(`The tenant has a snapshot named "${name}" already: delete it first.`);
      }
      const at = this.clock.wall();
      const saved = await snapshots.save(plan, tenantId(tenant), {
        tenant: tenant.key,
        name,
        at,
        actor,
        migration: migrationNames[migrationNames.length - 1] ?? '',
      });
      await audit.record({
        at,
        actor,
        action: 'tenant.snapshot_created',
        target: tenant.key,
        detail: { name, rows: saved.rowsCount, files: saved.filesCount },
      });
    });
    return this.retrieve(tenant, name);
  }

  async remove(tenant: TenantRef, name: string, actor: string): Promise<void> {
    const files = await this.work.run(async ({ snapshots, audit }) => {
      const found = await snapshots.find(tenant.key, name);
      if (!found) throw missing(tenant, name);
      const kept = await snapshots.remove(found.id);
      await audit.record({
        at: this.clock.wall(),
        actor,
        action: 'tenant.snapshot_deleted',
        target: tenant.key,
        detail: { name },
      });
      return kept;
    });
    await this.sweep(files);
  }

  /** Puts the tenant back as the snapshot saved it; its credentials too with `credentials: 'restore'`. */
  async restore(
    tenant: TenantRef,
    name: string,
    credentials: 'keep' | 'restore',
    actor: string,
  ): Promise<ReplaceOutcome> {
    return this.replace(tenant, name, credentials, actor);
  }

  /** Empties the tenant: every row but its own and its credentials. */
  async reset(tenant: TenantRef, actor: string): Promise<ReplaceOutcome> {
    return this.replace(tenant, undefined, 'keep', actor);
  }

  private async replace(
    tenant: TenantRef,
    name: string | undefined,
    credentials: 'keep' | 'restore',
    actor: string,
  ): Promise<ReplaceOutcome> {
    const plan = await this.plan(tenant.kind);
    const done = await this.work.run(async ({ snapshots, audit }) => {
      let snapshotId: number | undefined;
      if (name !== undefined) {
        const found = await snapshots.find(tenant.key, name);
        if (!found) throw missing(tenant, name);
        snapshotId = found.id;
        checkSchema(plan, await snapshots.savedColumns(found.id), found.migration);
      }
      const at = this.clock.wall();
      const replaced = await snapshots.replace(
        plan,
        tenantId(tenant),
        tenant.key,
        snapshotId,
        credentials === 'restore',
        at,
      );
      await audit.record({
        at,
        actor,
        action: name === undefined ? 'tenant.reset' : 'tenant.snapshot_restored',
        target: tenant.key,
        detail: name === undefined ? {} : { name, credentials },
      });
      return replaced;
    });
    this.onReplaced(tenant, credentials === 'restore');
    const deletedFiles = await this.sweep(done.formerFiles);
    return {
      tenant,
      snapshot: name ?? null,
      credentials,
      deletedRows: done.deleted,
      restoredRows: done.inserted,
      cancelledJobs: done.cancelledJobs,
      deletedFiles,
    };
  }

  /** Deletes each blob nothing refers to any more (another tenant's rows, another snapshot keep theirs). */
  private async sweep(files: readonly string[]): Promise<number> {
    let deleted = 0;
    for (const sha256 of files) if (await this.blobs.deleteIfUnreferenced(sha256)) deleted++;
    return deleted;
  }
}

function missing(tenant: TenantRef, name: string): NotFoundError {
  return new NotFoundError('snapshot', name, `The tenant ${tenant.key} has no snapshot named "${name}".`);
}

/** The value of the tenant column: a client id, or an academy's number. */
function tenantId(tenant: TenantRef): string | number {
  return tenant.kind === 'academy' ? Number(tenant.id) : tenant.id;
}

/** A snapshot restores into the schema it was saved from: the same tables, with the same columns. */
function checkSchema(plan: SnapshotPlan, saved: Map<string, string[]>, migration: string): void {
  const expected = new Map([
    [plan.tenantRow.table, plan.tenantRow.columns],
    ...plan.tables.map((t) => [t.name, t.columns] as const),
  ]);
  const same =
    saved.size === expected.size &&
    [...expected].every(([table, columns]) => JSON.stringify(saved.get(table)) === JSON.stringify(columns));
  if (!same) {
    throw new ConflictError(
      `The snapshot was saved with another database schema (migration ${migration}): it cannot be restored; save it again.`,
    );
  }
}
