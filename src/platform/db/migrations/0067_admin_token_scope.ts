import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * Operator tokens limited to some tenants (docs/admin.md, "Tokens scoped to tenants"): `tenants`, a JSON array of
 * `kind/id` (null: every tenant, as every token made before), and `read_only` (1: no change but reading).
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema.alterTable('admin_tokens').addColumn('tenants', 'text').execute();
  await db.schema
    .alterTable('admin_tokens')
    .addColumn('read_only', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Every text column of PostgreSQL sorts and compares in the C collation, as SQLite's do (migration 0010).
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
