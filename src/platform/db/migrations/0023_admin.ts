import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * The operators of the admin API (docs/admin.md): their tokens, stored as SHA-256 hashes only, and the admin audit
 * log, one row per admin action.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('admin_tokens')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await withSerialKey(db.schema.createTable('admin_audit'), 'seq', dialect)
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'varchar(255)', (c) => c.notNull())
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('target', 'varchar(255)')
    .addColumn('detail', 'text', (c) => c.notNull())
    .execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
