import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../database.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * Each logged call's time on its tenant's clock (`tenant_at`), next to the installation's (`at`): verification's
 * `since` and `until` are the tenant's time (docs/admin.md, "Verification"). Calls logged before read as `at`.
 */
export async function up(db: AnyDb, _dialect: DialectName): Promise<void> {
  await db.schema.alterTable('request_log').addColumn('tenant_at', 'bigint').execute();
  await sql`update request_log set tenant_at = at`.execute(db);
}
