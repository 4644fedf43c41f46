import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * HR webhooks (docs/hr-api.md, "Webhooks"): the subscriptions (their signature keys sealed with the master key),
 * the deliveries the audit trail queues for them (each sent by a job, platform/jobs) and every attempt.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('hr_webhooks'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('callback_url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull())
    .addColumn('signature_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_webhooks_client_id_uq', ['client_id', 'id'])
    .execute();
  await db.schema.createIndex('hr_webhooks_active').on('hr_webhooks').columns(['client_id', 'is_active']).execute();

  await withSerialKey(db.schema.createTable('hr_webhook_deliveries'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('webhook_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('event_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('event_type', 'varchar(120)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('job_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_webhook_deliveries_client_id_uq', ['client_id', 'id'])
    .execute();
  await db.schema
    .createIndex('hr_webhook_deliveries_webhook')
    .on('hr_webhook_deliveries')
    .columns(['client_id', 'webhook_id', 'pk'])
    .execute();

  await withSerialKey(db.schema.createTable('hr_webhook_attempts'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('delivery_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('webhook_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('response_code', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('response_excerpt', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('hr_webhook_attempts_webhook')
    .on('hr_webhook_attempts')
    .columns(['client_id', 'webhook_id', 'created_at', 'pk'])
    .execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
