import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * People Assist requests (employee cases): custom statuses, macros, request
 * forms, the requests themselves with their organizations, files (request
 * attachments, comment attachments and form-field files: blobs), comments,
 * assignees and links, and the per-client request-number counter.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('pa_custom_statuses'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(100)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('pa_custom_statuses_client_id_uq', ['client_id', 'id'])
    .execute();

  await withSerialKey(db.schema.createTable('pa_macros'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(100)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('label', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('forms', 'text', (c) => c.notNull())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('custom_statuses', 'text', (c) => c.notNull())
    .addColumn('actions', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('pa_macros_client_id_uq', ['client_id', 'id'])
    .execute();

  await withSerialKey(db.schema.createTable('pa_request_forms'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(100)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('category_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('language_code', 'varchar(20)', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull())
    .addColumn('featured', 'integer', (c) => c.notNull())
    .addColumn('keywords', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('formidable', 'text', (c) => c.notNull())
    .addColumn('last_hits', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('pa_request_forms_client_id_uq', ['client_id', 'id'])
    .execute();
  await db.schema
    .createIndex('pa_request_forms_category')
    .on('pa_request_forms')
    .columns(['client_id', 'category_id'])
    .execute();

  await db.schema
    .createTable('pa_request_counters')
    .addColumn('client_id', 'varchar(64)', (c) => c.primaryKey().references('hr_clients.id'))
    .addColumn('last_number', 'bigint', (c) => c.notNull())
    .execute();

  await withSerialKey(db.schema.createTable('pa_requests'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('request_number', 'bigint', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('status_rank', 'integer', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('employee_id', 'varchar(36)')
    .addColumn('creator_id', 'varchar(64)')
    .addColumn('creator_kind', 'varchar(10)')
    .addColumn('closed_by_id', 'varchar(64)')
    .addColumn('organization_ids', 'text', (c) => c.notNull())
    .addColumn('form_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('category_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('form_data', 'text', (c) => c.notNull())
    .addColumn('due_date', 'varchar(10)')
    .addColumn('custom_status_id', 'varchar(100)')
    .addColumn('origin', 'varchar(20)', (c) => c.notNull())
    .addColumn('read_by_employee', 'integer', (c) => c.notNull())
    .addColumn('visible_by_employee', 'integer', (c) => c.notNull())
    .addColumn('public_comment_count', 'integer', (c) => c.notNull())
    .addColumn('internal_comment_count', 'integer', (c) => c.notNull())
    .addColumn('attachment_count', 'integer', (c) => c.notNull())
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('closed_at', 'bigint')
    .addColumn('archived_at', 'bigint')
    .addUniqueConstraint('pa_requests_client_number_uq', ['client_id', 'request_number'])
    .execute();
  for (const column of ['updated_at', 'created_at']) {
    await db.schema
      .createIndex(`pa_requests_${column}`)
      .on('pa_requests')
      .columns(['client_id', column, 'pk'])
      .execute();
  }
  await db.schema.createIndex('pa_requests_employee').on('pa_requests').columns(['client_id', 'employee_id']).execute();
  await db.schema.createIndex('pa_requests_category').on('pa_requests').columns(['client_id', 'category_id']).execute();

  await db.schema
    .createTable('pa_request_organizations')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('request_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('organization_id', 'varchar(255)', (c) => c.notNull())
    .addPrimaryKeyConstraint('pa_request_organizations_pk', ['request_id', 'organization_id'])
    .execute();
  await db.schema
    .createIndex('pa_request_organizations_org')
    .on('pa_request_organizations')
    .columns(['client_id', 'organization_id'])
    .execute();

  await withSerialKey(db.schema.createTable('pa_request_comments'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('id', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('request_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('creator_id', 'varchar(64)')
    .addColumn('creator_kind', 'varchar(10)')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('is_internal', 'integer', (c) => c.notNull())
    .addColumn('is_informative', 'integer', (c) => c.notNull())
    .addColumn('comment_source', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pa_request_comments_request')
    .on('pa_request_comments')
    .columns(['request_id', 'pk'])
    .execute();

  await withSerialKey(db.schema.createTable('pa_request_files'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('id', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('request_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('kind', 'varchar(12)', (c) => c.notNull())
    .addColumn('comment_id', 'varchar(36)')
    .addColumn('field_id', 'varchar(100)')
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull().references('blobs.sha256'))
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pa_request_files_request')
    .on('pa_request_files')
    .columns(['request_id', 'pk'])
    .execute();
  await db.schema.createIndex('pa_request_files_sha256').on('pa_request_files').column('sha256').execute();

  await withSerialKey(db.schema.createTable('pa_request_assignees'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('request_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('pa_request_assignees_uq', ['request_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('pa_request_assignees_user')
    .on('pa_request_assignees')
    .columns(['client_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('pa_request_links')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('request_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('linked_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('pa_request_links_pk', ['request_id', 'linked_id'])
    .execute();
  await db.schema.createIndex('pa_request_links_linked').on('pa_request_links').column('linked_id').execute();
}
