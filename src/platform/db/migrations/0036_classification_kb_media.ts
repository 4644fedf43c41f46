import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * Document classification (`/document_type_prediction_run`: each run, its status and its guesses) and the
 * knowledge base's media: the images uploaded for article bodies (`/article_resources/{id}`) and the "Media"
 * files (`/article_documents/{id}`), each holding its blob (BLOB_REFERENCES).
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('hr_document_type_prediction_runs'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('document_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('error_code', 'varchar(64)')
    .addColumn('guessed_document_types', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('completed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_document_type_prediction_runs_client_id_uq', ['client_id', 'id'])
    .execute();

  await withSerialKey(db.schema.createTable('hr_kb_article_resources'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('filename', 'varchar(255)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'varchar(255)', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_kb_article_resources_client_id_uq', ['client_id', 'id'])
    .execute();
  await db.schema
    .createIndex('hr_kb_article_resources_sha256')
    .on('hr_kb_article_resources')
    .column('sha256')
    .execute();

  await withSerialKey(db.schema.createTable('hr_kb_article_documents'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(255)', (c) => c.notNull())
    .addColumn('language_code', 'varchar(7)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('filename', 'varchar(255)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_kb_article_documents_client_id_uq', ['client_id', 'id'])
    .execute();
  await db.schema
    .createIndex('hr_kb_article_documents_sha256')
    .on('hr_kb_article_documents')
    .column('sha256')
    .execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
