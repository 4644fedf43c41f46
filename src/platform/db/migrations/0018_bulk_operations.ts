import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * HR bulk calls (`/employees/bulk`, `/users/bulk`; docs/hr-api.md, "Bulk calls"): one operation per call, one item
 * per element of its array, each settled (its result written) in the transaction that applies it, so a job taken
 * over after a crash applies only the items still pending.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('hr_bulk_operations'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('resource', 'varchar(32)', (c) => c.notNull())
    .addColumn('action', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('caller', 'text', (c) => c.notNull())
    .addColumn('job_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .addUniqueConstraint('hr_bulk_operations_client_id_uq', ['client_id', 'id'])
    .execute();

  await db.schema
    .createTable('hr_bulk_items')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('operation_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('item_index', 'integer', (c) => c.notNull())
    .addColumn('input', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('outcome', 'varchar(16)')
    .addColumn('message', 'text')
    .addColumn('result', 'text')
    .addColumn('resource_id', 'varchar(64)')
    .addColumn('settled_at', 'bigint')
    .addPrimaryKeyConstraint('hr_bulk_items_pk', ['client_id', 'operation_id', 'item_index'])
    .execute();
  await db.schema
    .createIndex('hr_bulk_items_status')
    .on('hr_bulk_items')
    .columns(['client_id', 'operation_id', 'status', 'item_index'])
    .execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
