import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * Antivirus scans of uploads (docs/hr-api.md, "Antivirus scans"): each scanned file, its verdict, and the blob it
 * holds while the scan is pending (the upload itself is only made once the file is clean).
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('hr_scans'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('file_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('filename', 'varchar(255)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'varchar(255)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('message', 'varchar(255)')
    .addColumn('retention_period', 'integer', (c) => c.notNull())
    .addColumn('callback_url', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('scanned_at', 'bigint')
    .addUniqueConstraint('hr_scans_client_id_uq', ['client_id', 'id'])
    .execute();
  // deleteIfUnreferenced looks a blob up by its checksum in every table of BLOB_REFERENCES.
  await db.schema.createIndex('hr_scans_sha256').on('hr_scans').column('sha256').execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
