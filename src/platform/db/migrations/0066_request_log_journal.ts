import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * On SQLite the request log lives in its own file, `request-log.sqlite` (admin/request-log/journal.ts; docs/admin.md,
 * "Request log"): its tables leave the tenants' database, and the calls they held with them (the log is an
 * observation of calls, bounded and replaced as calls come, not tenant data). On PostgreSQL they stay.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  if (dialect !== 'sqlite') return;
  await db.schema.dropTable('request_log_usage').ifExists().execute();
  await db.schema.dropTable('request_log').ifExists().execute();
}
