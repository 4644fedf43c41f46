import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * Dataset imports in short transactions (docs/imports.md, "Dataset imports"): a dataset's values are the rows of
 * `hr_dataset_values` under its `values_key` (its own id until an import replaces them). An import stages its values
 * under a key of its own, a batch per transaction, and swaps the dataset's key in one short transaction; the rows
 * under a key no dataset uses any more are listed in `hr_dataset_value_discards` and deleted a batch at a time.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .alterTable('hr_datasets')
    .addColumn('values_key', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`update hr_datasets set values_key = id`.execute(db);
  await withSerialKey(db.schema.createTable('hr_dataset_value_discards'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('values_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('import_id', 'varchar(36)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_dataset_value_discards_uq', ['client_id', 'values_key'])
    .execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
