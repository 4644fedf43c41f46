import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * The Document manager: folders and document types of both kinds (employee
 * and company), the documents themselves (their bytes are blobs, see
 * docs/storage.md) and the organizations each document is attached to.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('hr_folders'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('id', 'varchar(255)', (c) => c.notNull())
    .addColumn('parent_folder_id', 'varchar(255)')
    .addColumn('label', 'varchar(255)', (c) => c.notNull())
    .addColumn('localized_labels', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_folders_client_kind_id_uq', ['client_id', 'kind', 'id'])
    .execute();

  await withSerialKey(db.schema.createTable('hr_document_types'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('id', 'varchar(255)', (c) => c.notNull())
    .addColumn('label', 'varchar(255)', (c) => c.notNull())
    .addColumn('localized_labels', 'text', (c) => c.notNull())
    .addColumn('folder_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_document_types_client_kind_id_uq', ['client_id', 'kind', 'id'])
    .execute();
  await db.schema
    .createIndex('hr_document_types_client_pk')
    .on('hr_document_types')
    .columns(['client_id', 'kind', 'pk'])
    .execute();

  await withSerialKey(db.schema.createTable('hr_documents'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('id', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('employee_id', 'varchar(36)')
    .addColumn('document_type_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)')
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull().references('blobs.sha256'))
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'varchar(255)', (c) => c.notNull())
    .addColumn('date', 'varchar(10)')
    .addColumn('effective_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('external_reference', 'varchar(255)')
    .addColumn('origin', 'varchar(32)', (c) => c.notNull())
    .addColumn('origin_details', 'varchar(32)')
    .addColumn('sender_id', 'varchar(64)')
    .addColumn('trashed_at', 'bigint')
    .addColumn('expiry_date', 'varchar(10)')
    .addColumn('expiration_date', 'varchar(10)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('hr_documents_client_pk')
    .on('hr_documents')
    .columns(['client_id', 'kind', 'pk'])
    .execute();
  await db.schema
    .createIndex('hr_documents_employee')
    .on('hr_documents')
    .columns(['client_id', 'employee_id'])
    .execute();
  await db.schema
    .createIndex('hr_documents_external_reference')
    .on('hr_documents')
    .columns(['client_id', 'kind', 'external_reference'])
    .execute();
  await db.schema.createIndex('hr_documents_sha256').on('hr_documents').column('sha256').execute();

  await db.schema
    .createTable('hr_document_organizations')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('document_id', 'varchar(36)', (c) => c.notNull().references('hr_documents.id').onDelete('cascade'))
    .addColumn('organization_id', 'varchar(255)', (c) => c.notNull())
    .addPrimaryKeyConstraint('hr_document_organizations_pk', ['document_id', 'organization_id'])
    .execute();
  await db.schema
    .createIndex('hr_document_organizations_org')
    .on('hr_document_organizations')
    .columns(['client_id', 'organization_id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('hr_document_organizations').execute();
  await db.schema.dropTable('hr_documents').execute();
  await db.schema.dropTable('hr_document_types').execute();
  await db.schema.dropTable('hr_folders').execute();
}
