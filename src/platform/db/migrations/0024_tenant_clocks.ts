import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * The tenants' own clocks (the admin API's clock control; docs/admin.md, "Clock"): a row per tenant whose time is
 * moved or frozen, read by every process.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('tenant_clocks')
    .addColumn('tenant', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('offset_ms', 'bigint', (c) => c.notNull())
    .addColumn('frozen_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
