import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * Tenant snapshots (the admin API; docs/admin.md, "Snapshots"): a snapshot per tenant and name, the saved rows of
 * each of the tenant's tables (one row per table, the rows as one JSON array), and the blobs its rows refer to,
 * which the snapshot keeps (a `BLOB_REFERENCES` table).
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('tenant_snapshots'), 'id', dialect)
    .addColumn('tenant', 'varchar(100)', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(255)', (c) => c.notNull())
    .addColumn('migration', 'varchar(255)', (c) => c.notNull())
    .addColumn('rows_count', 'bigint', (c) => c.notNull())
    .addColumn('files_count', 'bigint', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('tenant_snapshots_tenant_name', ['tenant', 'name'])
    .execute();
  await db.schema
    .createTable('tenant_snapshot_tables')
    .addColumn('snapshot_id', 'bigint', (c) => c.notNull().references('tenant_snapshots.id').onDelete('cascade'))
    .addColumn('table_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('columns', 'text', (c) => c.notNull())
    .addColumn('row_count', 'bigint', (c) => c.notNull())
    .addColumn('rows', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('tenant_snapshot_tables_pk', ['snapshot_id', 'table_name'])
    .execute();
  await db.schema
    .createTable('tenant_snapshot_files')
    .addColumn('snapshot_id', 'bigint', (c) => c.notNull().references('tenant_snapshots.id').onDelete('cascade'))
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('tenant_snapshot_files_pk', ['snapshot_id', 'sha256'])
    .execute();
  await db.schema.createIndex('tenant_snapshot_files_sha256').on('tenant_snapshot_files').column('sha256').execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
