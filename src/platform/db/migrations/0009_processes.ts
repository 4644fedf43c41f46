import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * People Assist process automation: process templates and their task
 * templates, processes (with a per-client reference counter), their tasks,
 * the files tasks hold (blobs, see docs/storage.md) and validation events.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('hr_process_templates'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(255)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('public_title', 'varchar(255)')
    .addColumn('description', 'text')
    .addColumn('automatic_archiving', 'integer', (c) => c.notNull())
    .addColumn('restrictions', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_process_templates_client_id_uq', ['client_id', 'id'])
    .execute();
  await db.schema
    .createIndex('hr_process_templates_client_pk')
    .on('hr_process_templates')
    .columns(['client_id', 'pk'])
    .execute();

  await withSerialKey(db.schema.createTable('hr_task_templates'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('process_template_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('id', 'varchar(255)', (c) => c.notNull())
    .addColumn('type', 'varchar(20)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('assigned_to', 'varchar(10)', (c) => c.notNull())
    .addColumn('depends_on_id', 'varchar(255)')
    .addColumn('fetch_previous_data', 'integer', (c) => c.notNull())
    .addColumn('role_id', 'varchar(255)')
    .addColumn('email_notifications', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('filename', 'text')
    .addColumn('sha256', 'varchar(64)', (c) => c.references('blobs.sha256'))
    .addColumn('size', 'bigint')
    .addColumn('content_type', 'varchar(255)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_task_templates_client_template_id_uq', ['client_id', 'process_template_id', 'id'])
    .execute();
  await db.schema.createIndex('hr_task_templates_sha256').on('hr_task_templates').column('sha256').execute();

  await db.schema
    .createTable('hr_process_counters')
    .addColumn('client_id', 'varchar(64)', (c) => c.primaryKey().references('hr_clients.id'))
    .addColumn('last_number', 'bigint', (c) => c.notNull())
    .execute();

  await withSerialKey(db.schema.createTable('hr_processes'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('reference', 'varchar(32)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('public_title', 'varchar(255)')
    .addColumn('description', 'text')
    .addColumn('employee_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('creator_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('process_template_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('publication_date', 'varchar(10)')
    .addColumn('due_date', 'varchar(10)')
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('published', 'integer', (c) => c.notNull())
    .addColumn('employee_tasks_count', 'integer', (c) => c.notNull())
    .addColumn('company_tasks_count', 'integer', (c) => c.notNull())
    .addColumn('done_employee_tasks_count', 'integer', (c) => c.notNull())
    .addColumn('done_company_tasks_count', 'integer', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_processes_client_reference_uq', ['client_id', 'reference'])
    .execute();
  await db.schema.createIndex('hr_processes_client_pk').on('hr_processes').columns(['client_id', 'pk']).execute();
  await db.schema
    .createIndex('hr_processes_employee')
    .on('hr_processes')
    .columns(['client_id', 'employee_id'])
    .execute();

  await withSerialKey(db.schema.createTable('hr_tasks'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('process_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('template_task_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('type', 'varchar(20)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('assigned_to', 'varchar(10)', (c) => c.notNull())
    .addColumn('depends_on_id', 'varchar(36)')
    .addColumn('role_id', 'varchar(255)')
    .addColumn('fetch_previous_data', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('due_date', 'varchar(10)')
    .addColumn('reminder_offset', 'integer')
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('form_data', 'text', (c) => c.notNull())
    .addColumn('has_requested_changes', 'integer', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .addColumn('completed_by_id', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('hr_tasks_client_pk').on('hr_tasks').columns(['client_id', 'pk']).execute();
  await db.schema.createIndex('hr_tasks_process').on('hr_tasks').columns(['client_id', 'process_id']).execute();

  await withSerialKey(db.schema.createTable('hr_task_files'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('task_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('field_id', 'varchar(255)')
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull().references('blobs.sha256'))
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('hr_task_files_task').on('hr_task_files').columns(['client_id', 'task_id']).execute();
  await db.schema.createIndex('hr_task_files_sha256').on('hr_task_files').column('sha256').execute();

  await withSerialKey(db.schema.createTable('hr_task_validation_events'), 'id', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('task_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('reviewed_task_id', 'varchar(36)')
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('completed_by_id', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('hr_task_validation_events_task')
    .on('hr_task_validation_events')
    .columns(['client_id', 'task_id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of [
    'hr_task_validation_events',
    'hr_task_files',
    'hr_tasks',
    'hr_processes',
    'hr_process_counters',
    'hr_task_templates',
    'hr_process_templates',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
