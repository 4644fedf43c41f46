import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * Electronic signature (docs/hr-api.md, "Electronic signature"): signature processes (their PDF as it was uploaded
 * and, once someone signed, as signed: both blobs), their signers, and the outbox of mail Atrium would have sent.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('hr_signature_processes'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('signature_type_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('location', 'varchar(255)', (c) => c.notNull())
    .addColumn('expiry_date', 'varchar(10)')
    .addColumn('expires_at', 'bigint')
    .addColumn('notify_on_signature', 'integer', (c) => c.notNull())
    .addColumn('notify_on_refusal', 'integer', (c) => c.notNull())
    .addColumn('document_type_id', 'varchar(100)')
    .addColumn('document_metadata', 'text', (c) => c.notNull())
    .addColumn('document_date', 'varchar(10)')
    .addColumn('cancellation_comment', 'varchar(255)')
    .addColumn('file_number', 'varchar(32)', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('notify_employee_ids', 'text', (c) => c.notNull())
    .addColumn('external_id', 'varchar(255)')
    .addColumn('auto_send', 'varchar(16)', (c) => c.notNull())
    .addColumn('callback_url', 'varchar(2048)')
    .addColumn('state', 'varchar(20)', (c) => c.notNull())
    .addColumn('sender_id', 'varchar(64)')
    .addColumn('filename', 'varchar(255)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('page_count', 'integer', (c) => c.notNull())
    .addColumn('signed_sha256', 'varchar(64)')
    .addColumn('signed_size', 'bigint')
    .addColumn('archived_document_id', 'varchar(36)')
    .addColumn('signing_started_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_signature_processes_client_id_uq', ['client_id', 'id'])
    .execute();
  await db.schema
    .createIndex('hr_signature_processes_created')
    .on('hr_signature_processes')
    .columns(['client_id', 'created_at', 'pk'])
    .execute();

  await db.schema
    .createTable('hr_signature_process_organizations')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('signature_process_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('organization_id', 'varchar(255)', (c) => c.notNull())
    .addPrimaryKeyConstraint('hr_signature_process_organizations_pk', [
      'client_id',
      'signature_process_id',
      'organization_id',
    ])
    .execute();
  await db.schema
    .createIndex('hr_signature_process_organizations_org')
    .on('hr_signature_process_organizations')
    .columns(['client_id', 'organization_id'])
    .execute();

  await withSerialKey(db.schema.createTable('hr_signers'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('signature_process_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('first_name', 'varchar(70)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(70)', (c) => c.notNull())
    .addColumn('type', 'varchar(20)', (c) => c.notNull())
    .addColumn('signature_positions', 'text', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)')
    .addColumn('employee_id', 'varchar(64)')
    .addColumn('language', 'varchar(10)')
    .addColumn('email_address', 'varchar(254)')
    .addColumn('mobile_phone_number', 'varchar(50)')
    .addColumn('signing_order', 'integer', (c) => c.notNull())
    .addColumn('access_code_hash', 'varchar(64)')
    .addColumn('sms_notification', 'integer', (c) => c.notNull())
    .addColumn('two_factor_auth', 'text')
    .addColumn('message', 'varchar(550)')
    .addColumn('send_signed_document', 'integer', (c) => c.notNull())
    .addColumn('state', 'varchar(20)', (c) => c.notNull())
    .addColumn('signed_at', 'bigint')
    .addColumn('signature_name', 'varchar(140)')
    .addColumn('refusal_comment', 'varchar(550)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_signers_client_id_uq', ['client_id', 'id'])
    .execute();
  await db.schema
    .createIndex('hr_signers_process')
    .on('hr_signers')
    .columns(['client_id', 'signature_process_id', 'signing_order', 'pk'])
    .execute();

  await withSerialKey(db.schema.createTable('hr_outbox'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('kind', 'varchar(60)', (c) => c.notNull())
    .addColumn('to_address', 'varchar(254)')
    .addColumn('to_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('related_id', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_outbox_client_id_uq', ['client_id', 'id'])
    .execute();
  await db.schema.createIndex('hr_outbox_created').on('hr_outbox').columns(['client_id', 'pk']).execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
