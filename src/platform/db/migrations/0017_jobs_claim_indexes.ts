import { type Kysely, sql } from 'kysely';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * The job claim's reads of unkeyed due jobs (platform/jobs/store.ts, `claimJobs`) get partial indexes of their own.
 * Migration 0014's `jobs_pending_due` and `jobs_running_lease` held every pending or running job, keyed ones too,
 * so the claim read past every queued webhook delivery (a job with an ordering key) to find the unkeyed ones: about
 * 80 µs a claim with 400 deliveries queued, and a webhook's backlog can be far longer. Keyed jobs are found through
 * `jobs_ordering_open`, head by head.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`drop index jobs_pending_due`.execute(db);
  await sql`drop index jobs_running_lease`.execute(db);
  await sql`create index jobs_unkeyed_due on jobs (run_at) where status = 'pending' and ordering_key is null`.execute(
    db,
  );
  await sql`create index jobs_unkeyed_lease on jobs (lease_until) where status = 'running' and ordering_key is null`.execute(
    db,
  );
}
