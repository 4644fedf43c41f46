import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/** Custom fields, employees, their registration references and custom field values. */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('hr_custom_fields'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(255)', (c) => c.notNull())
    .addColumn('label', 'varchar(255)', (c) => c.notNull())
    .addColumn('type', 'varchar(10)', (c) => c.notNull())
    .addColumn('authorized_values', 'text', (c) => c.notNull())
    .addColumn('hierarchical', 'integer', (c) => c.notNull())
    .addColumn('default_value', 'text')
    .addColumn('localized_labels', 'text', (c) => c.notNull())
    .addColumn('visible', 'integer', (c) => c.notNull())
    .addColumn('allow_access_restrictions', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_custom_fields_client_id_uq', ['client_id', 'id'])
    .execute();

  await withSerialKey(db.schema.createTable('hr_employees'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(64)', (c) => c.notNull())
    .addColumn('external_id', 'varchar(255)')
    .addColumn('firstname', 'varchar(255)', (c) => c.notNull())
    .addColumn('lastname', 'varchar(255)', (c) => c.notNull())
    .addColumn('email', 'varchar(320)')
    .addColumn('language', 'varchar(35)')
    .addColumn('maidenname', 'varchar(255)')
    .addColumn('middlename', 'varchar(255)')
    .addColumn('country', 'varchar(2)')
    .addColumn('starting_date', 'varchar(10)')
    .addColumn('mobile_phone_number', 'varchar(64)')
    .addColumn('birth_date', 'varchar(10)')
    .addColumn('address1', 'varchar(255)')
    .addColumn('address2', 'varchar(255)')
    .addColumn('address3', 'varchar(255)')
    .addColumn('zip_code', 'varchar(64)')
    .addColumn('city', 'varchar(255)')
    .addColumn('state', 'varchar(255)')
    .addColumn('saml_token_hash', 'varchar(128)')
    .addColumn('synchronized_at', 'bigint')
    .addColumn('synchronization_application', 'varchar(40)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_employees_client_id_uq', ['client_id', 'id'])
    .addUniqueConstraint('hr_employees_client_external_uq', ['client_id', 'external_id'])
    .execute();
  await db.schema
    .createIndex('hr_employees_client_created')
    .on('hr_employees')
    .columns(['client_id', 'created_at', 'pk'])
    .execute();

  await db.schema
    .createTable('hr_employee_registrations')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('employee_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('organization_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('employee_number', 'varchar(255)', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('departure_date', 'varchar(10)')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('hr_employee_registrations_pk', ['client_id', 'employee_id', 'organization_id'])
    .addUniqueConstraint('hr_employee_registrations_number_uq', ['client_id', 'organization_id', 'employee_number'])
    .addForeignKeyConstraint(
      'hr_employee_registrations_employee_fk',
      ['client_id', 'employee_id'],
      'hr_employees',
      ['client_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .addForeignKeyConstraint('hr_employee_registrations_org_fk', ['client_id', 'organization_id'], 'hr_organizations', [
      'client_id',
      'id',
    ])
    .execute();
  await db.schema
    .createIndex('hr_employee_registrations_org')
    .on('hr_employee_registrations')
    .columns(['client_id', 'organization_id'])
    .execute();

  await db.schema
    .createTable('hr_employee_custom_values')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('employee_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('custom_field_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('hr_employee_custom_values_pk', ['client_id', 'employee_id', 'custom_field_id'])
    .addForeignKeyConstraint(
      'hr_employee_custom_values_employee_fk',
      ['client_id', 'employee_id'],
      'hr_employees',
      ['client_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('hr_employee_custom_values_field')
    .on('hr_employee_custom_values')
    .columns(['client_id', 'custom_field_id', 'value'])
    .execute();
}
