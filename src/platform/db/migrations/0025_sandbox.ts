import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * The sandbox controls of the admin API (docs/admin.md): fault rules per tenant, and the request log of the tenant
 * APIs.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('tenant_faults')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('tenant', 'varchar(100)', (c) => c.notNull())
    .addColumn('method', 'varchar(8)')
    .addColumn('operation_id', 'varchar(128)')
    .addColumn('path', 'varchar(512)')
    .addColumn('effect', 'text', (c) => c.notNull())
    .addColumn('probability', 'double precision', (c) => c.notNull())
    .addColumn('remaining_count', 'integer')
    .addColumn('until', 'bigint')
    .addColumn('applied_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tenant_faults_tenant').on('tenant_faults').column('tenant').execute();
  await withSerialKey(db.schema.createTable('request_log'), 'seq', dialect)
    .addColumn('tenant', 'varchar(100)', (c) => c.notNull())
    .addColumn('credential_id', 'varchar(64)')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('method', 'varchar(8)', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('operation_id', 'varchar(128)')
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('duration_ms', 'double precision', (c) => c.notNull())
    .addColumn('request_headers', 'text', (c) => c.notNull())
    .addColumn('request_body', 'text')
    .addColumn('response_headers', 'text', (c) => c.notNull())
    .addColumn('response_body', 'text')
    .addColumn('fault_id', 'varchar(36)')
    .addColumn('flags', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('request_log_tenant_seq').on('request_log').columns(['tenant', 'seq']).execute();
  await db.schema.createIndex('request_log_at').on('request_log').column('at').execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
