import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/** The Document manager's inbox (docs/hr-api.md, "Inbox"): items and the files sent with them (blobs). */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('hr_inbox_items'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('creator_email', 'varchar(254)')
    .addColumn('to_users_ids', 'text', (c) => c.notNull())
    .addColumn('to_inbox_id', 'varchar(255)')
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('creator_id', 'varchar(64)')
    .addColumn('send_notification', 'integer', (c) => c.notNull())
    .addColumn('origin', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_inbox_items_client_id_uq', ['client_id', 'id'])
    .execute();
  await db.schema.createIndex('hr_inbox_items_created').on('hr_inbox_items').columns(['client_id', 'pk']).execute();
  await db.schema
    .createTable('hr_inbox_item_files')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('inbox_item_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('filename', 'varchar(255)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'varchar(255)', (c) => c.notNull())
    .addPrimaryKeyConstraint('hr_inbox_item_files_pk', ['client_id', 'inbox_item_id', 'position'])
    .execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
