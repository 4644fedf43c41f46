import type { CreateTableBuilder, Kysely } from 'kysely';
import type { DialectName } from '../database.js';

// Migrations see the database untyped: they describe how it changes, not how it is used.
type AnyDb = Kysely<Record<string, unknown>>;

/** An auto-increment integer key, spelled the way each dialect wants it. */
export function withSerialKey<T extends string>(
  table: CreateTableBuilder<T, never>,
  column: string,
  dialect: DialectName,
): CreateTableBuilder<T, never> {
  return dialect === 'postgres'
    ? table.addColumn(column, 'bigserial', (c) => c.primaryKey())
    : table.addColumn(column, 'integer', (c) => c.primaryKey().autoIncrement());
}

export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('settings')
    .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('retired_at', 'bigint')
    .execute();

  await withSerialKey(db.schema.createTable('auth_events'), 'seq', dialect)
    .addColumn('kind', 'varchar(40)', (c) => c.notNull())
    .addColumn('ref', 'varchar(200)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_events_created').on('auth_events').column('created_at').execute();

  await db.schema
    .createTable('hr_clients')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('hr_applications')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('secret_hash', 'varchar(128)', (c) => c.notNull())
    .addColumn('read_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('revoked_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('hr_applications_client').on('hr_applications').column('client_id').execute();

  await withSerialKey(db.schema.createTable('hr_organizations'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(255)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'varchar(255)')
    .addColumn('parent_organization_id', 'varchar(255)')
    .addColumn('corporate_name', 'text')
    .addColumn('address1', 'text')
    .addColumn('address2', 'text')
    .addColumn('zip_code', 'text')
    .addColumn('city', 'text')
    .addColumn('country', 'text')
    .addColumn('contact_firstname', 'text')
    .addColumn('contact_lastname', 'text')
    .addColumn('contact_email', 'text')
    .addColumn('contact_phone_number', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_organizations_client_id_uq', ['client_id', 'id'])
    .addForeignKeyConstraint(
      'hr_organizations_parent_fk',
      ['client_id', 'parent_organization_id'],
      'hr_organizations',
      ['client_id', 'id'],
    )
    .execute();
  await db.schema
    .createIndex('hr_organizations_parent')
    .on('hr_organizations')
    .columns(['client_id', 'parent_organization_id', 'pk'])
    .execute();
  await db.schema
    .createIndex('hr_organizations_client_pk')
    .on('hr_organizations')
    .columns(['client_id', 'pk'])
    .execute();

  await withSerialKey(db.schema.createTable('hr_organization_groups'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(255)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_organization_groups_client_id_uq', ['client_id', 'id'])
    .execute();
  await db.schema
    .createIndex('hr_organization_groups_client_pk')
    .on('hr_organization_groups')
    .columns(['client_id', 'pk'])
    .execute();

  await db.schema
    .createTable('hr_organization_group_members')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('group_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('organization_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('hr_organization_group_members_pk', ['client_id', 'group_id', 'organization_id'])
    .addForeignKeyConstraint(
      'hr_organization_group_members_group_fk',
      ['client_id', 'group_id'],
      'hr_organization_groups',
      ['client_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'hr_organization_group_members_org_fk',
      ['client_id', 'organization_id'],
      'hr_organizations',
      ['client_id', 'id'],
    )
    .execute();
  await db.schema
    .createIndex('hr_organization_group_members_org')
    .on('hr_organization_group_members')
    .columns(['client_id', 'organization_id'])
    .execute();
}
