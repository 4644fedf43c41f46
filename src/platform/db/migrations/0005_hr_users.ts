import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/** HR roles and their granted permissions, HR users (managers) and their profiles (a role on a perimeter). */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('hr_roles'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(255)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_roles_client_id_uq', ['client_id', 'id'])
    .execute();
  await db.schema.createIndex('hr_roles_client_pk').on('hr_roles').columns(['client_id', 'pk']).execute();

  // One row per permission a role is granted; a permission without a row is false.
  await db.schema
    .createTable('hr_role_permissions')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('role_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('module', 'varchar(20)', (c) => c.notNull())
    .addColumn('permission', 'varchar(100)', (c) => c.notNull())
    .addPrimaryKeyConstraint('hr_role_permissions_pk', ['client_id', 'role_id', 'module', 'permission'])
    .addForeignKeyConstraint(
      'hr_role_permissions_role_fk',
      ['client_id', 'role_id'],
      'hr_roles',
      ['client_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('hr_role_permissions_permission')
    .on('hr_role_permissions')
    .columns(['client_id', 'module', 'permission'])
    .execute();

  await withSerialKey(db.schema.createTable('hr_users'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('external_id', 'varchar(50)')
    .addColumn('firstname', 'varchar(70)', (c) => c.notNull())
    .addColumn('lastname', 'varchar(70)', (c) => c.notNull())
    .addColumn('middlename', 'varchar(70)')
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('language', 'varchar(35)')
    .addColumn('timezone', 'varchar(64)')
    .addColumn('mobile_phone_number', 'varchar(64)')
    .addColumn('saml_token_hash', 'varchar(128)')
    .addColumn('first_login_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_users_client_id_uq', ['client_id', 'id'])
    .addUniqueConstraint('hr_users_client_external_id_uq', ['client_id', 'external_id'])
    .execute();
  // Email addresses are unique per client whatever their case.
  await db.schema
    .createIndex('hr_users_client_email_uq')
    .on('hr_users')
    .unique()
    .expression(sql`client_id, lower(email)`)
    .execute();
  await db.schema.createIndex('hr_users_client_pk').on('hr_users').columns(['client_id', 'pk']).execute();

  await db.schema
    .createTable('hr_user_profiles')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('role_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('operator', 'varchar(2)', (c) => c.notNull())
    .addColumn('organization_id', 'varchar(255)')
    .addColumn('organization_group_id', 'varchar(255)')
    .addColumn('custom_field_filters', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('hr_user_profiles_pk', ['client_id', 'id'])
    .addForeignKeyConstraint(
      'hr_user_profiles_user_fk',
      ['client_id', 'user_id'],
      'hr_users',
      ['client_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .addForeignKeyConstraint('hr_user_profiles_role_fk', ['client_id', 'role_id'], 'hr_roles', ['client_id', 'id'])
    .addForeignKeyConstraint('hr_user_profiles_org_fk', ['client_id', 'organization_id'], 'hr_organizations', [
      'client_id',
      'id',
    ])
    .addForeignKeyConstraint(
      'hr_user_profiles_group_fk',
      ['client_id', 'organization_group_id'],
      'hr_organization_groups',
      ['client_id', 'id'],
    )
    .execute();
  await db.schema
    .createIndex('hr_user_profiles_user')
    .on('hr_user_profiles')
    .columns(['client_id', 'user_id', 'position'])
    .execute();
  await db.schema
    .createIndex('hr_user_profiles_role')
    .on('hr_user_profiles')
    .columns(['client_id', 'role_id'])
    .execute();
  await db.schema
    .createIndex('hr_user_profiles_org')
    .on('hr_user_profiles')
    .columns(['client_id', 'organization_id'])
    .execute();
}
