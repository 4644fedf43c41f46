import { type Kysely, sql } from 'kysely';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * The fair claim (platform/jobs/fair.ts) counts each tenant's running jobs, in every process, before it hands out
 * free slots: a partial index holds the running jobs only (a few per process), by tenant, so the count reads no
 * finished or pending job. `jobs.tenant` already says whose each job is (every enqueue names it; null for the
 * server's own jobs), so no backfill is needed.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`create index jobs_running_tenant on jobs (tenant, lease_until) where status = 'running'`.execute(db);
}
