import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { BlobStore } from '../../platform/blobs/store.js';
import type { DialectName } from '../../platform/db/database.js';
import type { Tables } from '../../platform/db/schema.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import type { Clock } from '../../platform/time.js';
import type { TenantRef } from '../tenant-ref.js';
import type { AdminTenantsService } from '../tenants/service.js';
import { PortableExporter } from './portable-export.js';
import { type Imported, PortableImporter, type RebuildDerived } from './portable-import.js';
import { readKeys } from './portable-keys.js';
import { spool, verify } from './portable-verify.js';
import type { SnapshotsService, SnapshotsWork } from './service.js';

/** What an import answers: the file's origin and what was written. */
export interface ImportOutcome extends Imported {
  tenant: TenantRef;
  source: { tenant: string; snapshot: string; createdAt: string };
}

/** A clone: the new tenant, its fresh credentials (shown once), and what was copied. */
export interface CloneOutcome extends ImportOutcome {
  name: string;
  application?: { application_id: string; application_secret: string; client_id: string };
  apikey?: string;
  superAdminId?: number;
}

type Tenants = Pick<AdminTenantsService, 'createClient' | 'createApplication' | 'createAcademy'>;

/**
 * Portable snapshots (docs/admin.md, "Portable snapshots"): a saved snapshot exported as one file, a file imported
 * into a tenant of any installation on either database, and a tenant cloned into a new one with fresh credentials.
 */
export class PortableSnapshotsService {
  private readonly exporter: PortableExporter;
  private readonly importer: PortableImporter;

  constructor(
    private readonly work: UnitOfWork<Tables, SnapshotsWork>,
    private readonly snapshots: SnapshotsService,
    private readonly tenants: Tenants,
    private readonly dialect: DialectName,
    blobs: Pick<BlobStore, 'read' | 'put' | 'deleteIfUnreferenced'>,
    clock: Clock,
    private readonly settings: { importMaxBytes: number },
    rebuild: RebuildDerived = async () => {},
  ) {
    this.exporter = new PortableExporter(work.read.snapshots.db, dialect, blobs);
    this.importer = new PortableImporter(work, dialect, blobs, clock, rebuild);
  }

  /** The snapshot `name` as a gzip'd portable file (a 404 before anything is sent when there is none). */
  async export(tenant: TenantRef, name: string): Promise<{ filename: string; stream: Readable }> {
    const snapshot = await this.snapshots.retrieve(tenant, name);
    const plan = await this.snapshots.plan(tenant.kind);
    const filename = `${tenant.kind}-${tenant.id.replace(/[^A-Za-z0-9._-]/g, '_')}-${name}.atrium-snapshot.gz`;
    return { filename, stream: this.exporter.stream(plan, snapshot) };
  }

  /** Replaces the tenant's rows with the file's, once the whole file is verified. */
  async import(tenant: TenantRef, body: Readable, actor: string): Promise<ImportOutcome> {
    const { dir, file } = await spool(body, this.settings.importMaxBytes);
    try {
      return await this.importFile(tenant, file, actor, 'tenant.snapshot_imported');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /**
   * A new tenant named `name`, a copy of `source` as it is now: a snapshot saved, exported to a temporary file,
   * imported into the new tenant, and deleted. The new tenant's credentials are its own, shown only in this answer.
   */
  async clone(source: TenantRef, name: string, actor: string): Promise<CloneOutcome> {
    const temporary = `clone-${randomUUID()}`;
    const { dir, file } = await this.snapshotFile(source, temporary, actor);
    try {
      const plan = await this.snapshots.plan(source.kind);
      await verify(file, plan, await readKeys(this.work.read.snapshots.db, this.dialect, plan));
      if (source.kind === 'hr') {
        const tenant = await this.tenants.createClient(name, actor);
        const application = await this.tenants.createApplication(tenant, name, false, actor);
        const imported = await this.importFile(tenant, file, actor, 'tenant.cloned', source.key);
        return { ...imported, name, application };
      }
      const { tenant, created } = await this.tenants.createAcademy(name, actor);
      const imported = await this.importFile(tenant, file, actor, 'tenant.cloned', source.key);
      const row = await this.work.read.snapshots.db
        .selectFrom('academies')
        .select('super_admin_id')
        .where('id', '=', Number(tenant.id) as never)
        .executeTakeFirst();
      return { ...imported, name, apikey: created.apikey, superAdminId: Number(row?.super_admin_id) };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async snapshotFile(source: TenantRef, name: string, actor: string): Promise<{ dir: string; file: string }> {
    await this.snapshots.create(source, name, actor);
    try {
      const { stream } = await this.export(source, name);
      const { dir, file } = await spool(stream, Number.MAX_SAFE_INTEGER);
      return { dir, file };
    } finally {
      await this.snapshots.remove(source, name, actor);
    }
  }

  private async importFile(
    tenant: TenantRef,
    file: string,
    actor: string,
    action: string,
    from?: string,
  ): Promise<ImportOutcome> {
    const plan = await this.snapshots.plan(tenant.kind);
    const keys = await readKeys(this.work.read.snapshots.db, this.dialect, plan);
    const inventory = await verify(file, plan, keys);
    const source = { tenant: inventory.header.tenant, snapshot: inventory.header.snapshot };
    const imported = await this.importer.apply(file, inventory, keys, plan, tenant, {
      actor,
      action,
      detail: from ? { source: from } : source,
    });
    this.snapshots.replaced(tenant);
    return { ...imported, tenant, source: { ...source, createdAt: inventory.header.created_at } };
  }
}
