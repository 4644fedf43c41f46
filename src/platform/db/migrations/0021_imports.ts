import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/** HR imports (docs/hr-api.md, "Imports"): CSV files of employees, managers or organizations, applied by a job. */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('hr_imports'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('creator', 'varchar(64)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('filename', 'varchar(255)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('operation_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('loaded', 'integer', (c) => c.notNull())
    .addColumn('rows_count', 'integer', (c) => c.notNull())
    .addColumn('created_count', 'integer', (c) => c.notNull())
    .addColumn('updated_count', 'integer', (c) => c.notNull())
    .addColumn('errors_count', 'integer', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('job_id', 'bigint')
    .addColumn('started_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_imports_client_id_uq', ['client_id', 'id'])
    .execute();
  await db.schema.createIndex('hr_imports_sha256').on('hr_imports').column('sha256').execute();
  await db.schema
    .createIndex('hr_imports_created')
    .on('hr_imports')
    .columns(['client_id', 'created_at', 'pk'])
    .execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
