import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * A client's settings (`GET /client`, `GET /settings/…`) as changed from their defaults, and the configuration
 * updates an operator stages for `POST /platform_updates` (docs/hr-api.md, "Client and settings").
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('hr_client_settings')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().primaryKey().references('hr_clients.id'))
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('hr_config_updates')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(64)', (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('applied_at', 'bigint')
    .addPrimaryKeyConstraint('hr_config_updates_pk', ['client_id', 'id'])
    .execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
