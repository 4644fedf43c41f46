import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * The Document manager's distributions (docs/hr-api.md, "Distributions"): projects, the distributions of a file in
 * them (the file's blob), and each distribution's rows (an employee's pages: their split PDF, their document).
 * A project's and a distribution's `id` is its table's serial key, one sequence for every client.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  let projects = withSerialKey(db.schema.createTable('hr_distribution_projects'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('paper_configuration', 'varchar(255)', (c) => c.notNull())
    .addColumn('notifications_delivery', 'integer', (c) => c.notNull())
    .addColumn('group_paper_mailing', 'integer', (c) => c.notNull())
    .addColumn('restrict_access_to_group', 'integer', (c) => c.notNull())
    .addColumn('send_package_to_specific_organization', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)')
    .addColumn('automatic_validation', 'integer', (c) => c.notNull())
    .addColumn('has_paper_configuration_recipient_contact_been_used', 'integer', (c) => c.notNull());
  for (const column of PACKAGE_COLUMNS) projects = projects.addColumn(column, 'varchar(255)');
  await projects
    .addColumn('status', 'varchar(32)', (c) => c.notNull())
    .addColumn('validated_at', 'bigint')
    .addColumn('canceled_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('hr_distribution_projects_client')
    .on('hr_distribution_projects')
    .columns(['client_id', 'pk'])
    .execute();

  await withSerialKey(db.schema.createTable('hr_distributions'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('project_pk', 'bigint', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('distribution_type_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('file_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('filename', 'varchar(255)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('status', 'varchar(32)', (c) => c.notNull())
    .addColumn('error_id', 'varchar(36)')
    .addColumn('error_code', 'varchar(64)')
    .addColumn('error_type', 'varchar(16)')
    .addColumn('error_message', 'text')
    .addColumn('error_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('hr_distributions_client')
    .on('hr_distributions')
    .columns(['client_id', 'project_pk', 'pk'])
    .execute();
  await db.schema.createIndex('hr_distributions_list').on('hr_distributions').columns(['client_id', 'pk']).execute();

  await db.schema
    .createTable('hr_distribution_items')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('distribution_pk', 'bigint', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('external_id', 'varchar(255)')
    .addColumn('employee_id', 'varchar(64)')
    .addColumn('pages', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('error_code', 'varchar(64)')
    .addColumn('error_message', 'text')
    .addColumn('sha256', 'varchar(64)')
    .addColumn('size', 'bigint')
    .addColumn('document_id', 'varchar(36)')
    .addPrimaryKeyConstraint('hr_distribution_items_pk', ['client_id', 'distribution_pk', 'position'])
    .execute();
  // Blob references (platform/blobs/references.ts): the check before a blob is deleted looks them up.
  await db.schema.createIndex('hr_distributions_sha256').on('hr_distributions').column('sha256').execute();
  await db.schema.createIndex('hr_distribution_items_sha256').on('hr_distribution_items').column('sha256').execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}

const PACKAGE_COLUMNS = [
  'package_first_name',
  'package_last_name',
  'package_address',
  'package_address_2',
  'package_address_3',
  'package_postcode',
  'package_city',
  'package_country',
  'package_contact',
] as const;
