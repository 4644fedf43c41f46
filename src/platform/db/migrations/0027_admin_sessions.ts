import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * Sign-in sessions of the admin API (docs/admin.md, "Sessions"): an operator token exchanged for a cookie, for the
 * console. Only the hash of the session's cookie is stored; its CSRF token is derived from the cookie, not stored.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('admin_sessions')
    .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('token_id', 'varchar(36)', (c) => c.notNull().references('admin_tokens.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('admin_sessions_expires_at').on('admin_sessions').column('expires_at').execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
