import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * Document generation (docs/hr-api.md, "Document generation"): templates and their versions (each version a DOCX
 * blob), generated documents (one row per generation request, sync or async), campaigns with one row per dataset
 * row, and each client's V1→V2 syntax migration.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('hr_docgen_templates'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('locale', 'varchar(16)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('is_injectable', 'integer', (c) => c.notNull())
    .addColumn('validity_start_date', 'varchar(10)')
    .addColumn('validity_end_date', 'varchar(10)')
    .addColumn('restrictions', 'text', (c) => c.notNull())
    .addColumn('latest_version', 'integer', (c) => c.notNull())
    .addColumn('active_version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_docgen_templates_id', ['client_id', 'id'])
    .execute();

  await db.schema
    .createTable('hr_docgen_template_versions')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('template_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('syntax_version', 'varchar(2)', (c) => c.notNull())
    .addColumn('format', 'varchar(8)', (c) => c.notNull())
    .addColumn('output_format', 'text', (c) => c.notNull())
    .addColumn('template_information', 'text', (c) => c.notNull())
    .addColumn('fragment_mapping', 'text', (c) => c.notNull())
    .addColumn('placeholders', 'text', (c) => c.notNull())
    .addColumn('field_typings', 'text', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('pdf_sha256', 'varchar(64)')
    .addColumn('filename', 'varchar(255)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('hr_docgen_template_versions_pk', ['client_id', 'template_id', 'version'])
    .execute();
  await db.schema
    .createIndex('hr_docgen_template_versions_sha256')
    .on('hr_docgen_template_versions')
    .column('sha256')
    .execute();
  await db.schema
    .createIndex('hr_docgen_template_versions_pdf_sha256')
    .on('hr_docgen_template_versions')
    .column('pdf_sha256')
    .execute();

  await withSerialKey(db.schema.createTable('hr_docgen_generations'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('request_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('request_status', 'varchar(16)', (c) => c.notNull())
    .addColumn('template_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('template_version', 'integer', (c) => c.notNull())
    .addColumn('format', 'varchar(8)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('strict', 'integer', (c) => c.notNull())
    .addColumn('async', 'integer', (c) => c.notNull())
    .addColumn('context', 'text')
    .addColumn('payload', 'text')
    .addColumn('employee_id', 'varchar(64)')
    .addColumn('document_type_id', 'varchar(255)')
    .addColumn('errors', 'text', (c) => c.notNull())
    .addColumn('failure', 'text')
    .addColumn('upload_id', 'varchar(36)')
    .addColumn('sha256', 'varchar(64)')
    .addColumn('pdf_sha256', 'varchar(64)')
    .addColumn('size', 'bigint')
    .addColumn('pages', 'integer')
    .addColumn('archived_document_id', 'varchar(64)')
    .addColumn('vaulted_at', 'bigint')
    .addColumn('generation_started_at', 'bigint')
    .addColumn('generation_finished_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_docgen_generations_id', ['client_id', 'id'])
    .addUniqueConstraint('hr_docgen_generations_request', ['client_id', 'request_id'])
    .execute();
  await db.schema.createIndex('hr_docgen_generations_sha256').on('hr_docgen_generations').column('sha256').execute();
  await db.schema
    .createIndex('hr_docgen_generations_pdf_sha256')
    .on('hr_docgen_generations')
    .column('pdf_sha256')
    .execute();

  await withSerialKey(db.schema.createTable('hr_docgen_campaigns'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('template_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('template_version', 'integer', (c) => c.notNull())
    .addColumn('output_action', 'varchar(16)', (c) => c.notNull())
    .addColumn('format', 'varchar(8)', (c) => c.notNull())
    .addColumn('creator_ref', 'varchar(255)')
    .addColumn('document_type_id', 'varchar(255)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('row_count', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)')
    .addColumn('size', 'bigint')
    .addColumn('started_at', 'bigint')
    .addColumn('ended_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_docgen_campaigns_id', ['client_id', 'id'])
    .execute();
  await db.schema.createIndex('hr_docgen_campaigns_sha256').on('hr_docgen_campaigns').column('sha256').execute();

  await db.schema
    .createTable('hr_docgen_campaign_rows')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('campaign_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('row_index', 'integer', (c) => c.notNull())
    .addColumn('employee_id', 'varchar(64)')
    .addColumn('ref', 'varchar(255)')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('sha256', 'varchar(64)')
    .addColumn('document_id', 'varchar(64)')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('hr_docgen_campaign_rows_pk', ['client_id', 'campaign_id', 'row_index'])
    .execute();
  await db.schema
    .createIndex('hr_docgen_campaign_rows_sha256')
    .on('hr_docgen_campaign_rows')
    .column('sha256')
    .execute();

  await db.schema
    .createTable('hr_docgen_migrations')
    .addColumn('client_id', 'varchar(64)', (c) => c.primaryKey().references('hr_clients.id'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('auto_start', 'integer', (c) => c.notNull())
    .addColumn('runs', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('ended_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
