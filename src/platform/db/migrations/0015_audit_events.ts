import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * The HR audit trail (`GET /events`): one row per successful write, recorded in the write's transaction, with the
 * resource as presented after the write and who made it (docs/hr-api.md, "Audit events").
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('hr_events'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('type', 'varchar(120)', (c) => c.notNull())
    .addColumn('resource_type', 'varchar(60)', (c) => c.notNull())
    .addColumn('action', 'varchar(60)', (c) => c.notNull())
    .addColumn('resource_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('actor_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('actor_id', 'varchar(255)')
    .addColumn('actor_name', 'text')
    .addColumn('actor_data', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_events_client_id_uq', ['client_id', 'id'])
    .execute();
  // Newest first, optionally from a date: the list's order is (created_at, pk) descending.
  await db.schema.createIndex('hr_events_recent').on('hr_events').columns(['client_id', 'created_at', 'pk']).execute();
  await db.schema
    .createIndex('hr_events_by_resource')
    .on('hr_events')
    .columns(['client_id', 'resource_id', 'created_at', 'pk'])
    .execute();
  await db.schema
    .createIndex('hr_events_by_type')
    .on('hr_events')
    .columns(['client_id', 'resource_type', 'action', 'created_at', 'pk'])
    .execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
