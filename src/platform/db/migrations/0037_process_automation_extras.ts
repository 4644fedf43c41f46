import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * Process automation extras (docs/hr-api.md, "Process automation"): PDF templates (a PDF, its signature zones and
 * its form mapping; the PDF is a blob) and the post-process actions of processes (inboxes that receive the
 * process's documents when it ends).
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('hr_pdf_templates'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(255)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('document_type_id', 'varchar(255)')
    .addColumn('signature_zones', 'text', (c) => c.notNull())
    .addColumn('form_mapping', 'text', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'varchar(255)', (c) => c.notNull())
    .addColumn('page_count', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_pdf_templates_client_id_uq', ['client_id', 'id'])
    .execute();
  await withSerialKey(db.schema.createTable('hr_process_post_actions'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('process_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('ids', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_process_post_actions_client_id_uq', ['client_id', 'id'])
    .execute();
  await db.schema
    .createIndex('hr_process_post_actions_process')
    .on('hr_process_post_actions')
    .columns(['client_id', 'process_id'])
    .execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
