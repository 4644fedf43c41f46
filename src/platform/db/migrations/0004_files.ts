import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * Stored files: the `blobs` index (one row per distinct content, keyed by its
 * SHA-256), the PostgreSQL byte store (`blob_chunks`, and `blob_staging` for
 * writes in progress), and the HR API's temporary uploads. See docs/storage.md.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const bytes = dialect === 'postgres' ? 'bytea' : 'blob';

  await db.schema
    .createTable('blobs')
    .addColumn('sha256', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  // PostgreSQL only in practice (the filesystem store keeps the bytes in files), created on both dialects alike.
  await db.schema
    .createTable('blob_chunks')
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull().references('blobs.sha256').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', bytes, (c) => c.notNull())
    .addPrimaryKeyConstraint('blob_chunks_pk', ['sha256', 'seq'])
    .execute();

  await db.schema
    .createTable('blob_staging')
    .addColumn('staging_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', bytes, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('blob_staging_pk', ['staging_id', 'seq'])
    .execute();
  await db.schema.createIndex('blob_staging_created').on('blob_staging').column('created_at').execute();

  // No foreign key to blobs: a consumed upload stays until it expires but no longer holds its blob,
  // which may be deleted before it (see BLOB_REFERENCES).
  await db.schema
    .createTable('hr_uploads')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
  await db.schema.createIndex('hr_uploads_expires').on('hr_uploads').column('expires_at').execute();
  await db.schema.createIndex('hr_uploads_sha256').on('hr_uploads').column('sha256').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('hr_uploads').execute();
  await db.schema.dropTable('blob_staging').execute();
  await db.schema.dropTable('blob_chunks').execute();
  await db.schema.dropTable('blobs').execute();
}
