import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * HR datasets (docs/hr-api.md, "Datasets"): hierarchical value lists, each with up to ten dimensions (levels) and
 * 300,000 values whose ids are their dotted paths (`uk.london`).
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('hr_datasets'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(100)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('localized_names', 'text', (c) => c.notNull())
    .addColumn('dimensions', 'text', (c) => c.notNull())
    .addColumn('values_count', 'integer', (c) => c.notNull())
    .addColumn('last_import_status', 'varchar(16)')
    .addColumn('last_import_result', 'varchar(16)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_datasets_client_id_uq', ['client_id', 'id'])
    .execute();

  await withSerialKey(db.schema.createTable('hr_dataset_values'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('dataset_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('id', 'varchar(1100)', (c) => c.notNull())
    .addColumn('code', 'varchar(100)', (c) => c.notNull())
    .addColumn('parent_id', 'varchar(1100)')
    .addColumn('depth', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('localized_names', 'text', (c) => c.notNull())
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_dataset_values_id_uq', ['client_id', 'dataset_id', 'id'])
    .execute();
  await db.schema
    .createIndex('hr_dataset_values_name')
    .on('hr_dataset_values')
    .columns(['client_id', 'dataset_id', 'name', 'pk'])
    .execute();
  await db.schema
    .createIndex('hr_dataset_values_parent')
    .on('hr_dataset_values')
    .columns(['client_id', 'dataset_id', 'parent_id', 'name', 'pk'])
    .execute();
  await db.schema
    .createIndex('hr_dataset_values_depth')
    .on('hr_dataset_values')
    .columns(['client_id', 'dataset_id', 'depth', 'name', 'pk'])
    .execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
