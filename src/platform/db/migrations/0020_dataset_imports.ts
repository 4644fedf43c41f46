import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/** HR dataset imports (docs/hr-api.md, "Dataset imports"): a CSV that replaces a dataset's values, run by a job. */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('hr_dataset_imports'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('dataset_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('filename', 'varchar(255)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('result', 'varchar(16)')
    .addColumn('creator_id', 'varchar(64)')
    .addColumn('total_dimensions_count', 'integer', (c) => c.notNull())
    .addColumn('total_values_count', 'integer', (c) => c.notNull())
    .addColumn('stats', 'text', (c) => c.notNull())
    .addColumn('report', 'text', (c) => c.notNull())
    .addColumn('job_id', 'bigint')
    .addColumn('started_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_dataset_imports_client_id_uq', ['client_id', 'id'])
    .execute();
  await db.schema.createIndex('hr_dataset_imports_sha256').on('hr_dataset_imports').column('sha256').execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
