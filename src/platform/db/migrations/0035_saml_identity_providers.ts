import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * SAML identity providers (docs/hr-api.md, "SAML identity providers"): a client's IdP settings, stored as given.
 * Two partial unique indexes keep at most one active provider per scope (an unset scope counts as one scope) and
 * per name, whatever writes run at the same time.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('hr_saml_identity_providers'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('entity_id', 'varchar(1024)', (c) => c.notNull())
    .addColumn('sso_endpoint', 'varchar(2048)', (c) => c.notNull())
    .addColumn('x509_certificate', 'text', (c) => c.notNull())
    .addColumn('activated', 'integer', (c) => c.notNull())
    .addColumn('enable_sp_session', 'integer', (c) => c.notNull())
    .addColumn('next_logout_url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('scope', 'varchar(16)')
    .addColumn('workflow_type', 'varchar(16)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hr_saml_identity_providers_id', ['client_id', 'id'])
    .execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
  await sql`create unique index hr_saml_identity_providers_active_scope
    on hr_saml_identity_providers (client_id, coalesce(scope, '')) where activated = 1`.execute(db);
  await sql`create unique index hr_saml_identity_providers_active_name
    on hr_saml_identity_providers (client_id, name) where activated = 1`.execute(db);
}
