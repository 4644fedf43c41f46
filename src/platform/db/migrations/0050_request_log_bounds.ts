import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * The request log bounded as it is written (docs/admin.md, "Request log"): each call's size (`bytes`, the UTF-8
 * length of its stored text), and each tenant's count and bytes (`request_log_usage`), kept by the transactions that
 * insert and delete calls, so the writer knows without a scan when a tenant passes its caps.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .alterTable('request_log')
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  const length = dialect === 'postgres' ? sql.raw('octet_length') : sql.raw('length');
  // SQLite's length() counts characters: the stored calls' sizes start close, and exact for new calls.
  await sql`update request_log set bytes = ${length}(path) + ${length}(request_headers) + ${length}(response_headers)
    + ${length}(flags) + coalesce(${length}(request_body), 0) + coalesce(${length}(response_body), 0)`.execute(db);
  await db.schema
    .createTable('request_log_usage')
    .addColumn('tenant', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('calls', 'bigint', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into request_log_usage (tenant, calls, bytes)
    select tenant, count(*), sum(bytes) from request_log group by tenant`.execute(db);
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
