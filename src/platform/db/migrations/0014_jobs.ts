import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * The durable background jobs (platform/jobs/, docs/SCALING.md "Background jobs"): one row per job, enqueued in the
 * transaction of the write that causes it and claimed by the job runner of any process. `id` is the order (oldest
 * first, and the order of the jobs of one `ordering_key`).
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('jobs'), 'id', dialect)
    .addColumn('queue', 'varchar(100)', (c) => c.notNull())
    .addColumn('tenant', 'varchar(100)')
    .addColumn('ordering_key', 'varchar(255)')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer')
    .addColumn('give_up_at', 'bigint')
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('locked_by', 'varchar(100)')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  // The claim: due pending jobs, and running jobs whose lease has expired (partial indexes: finished jobs, the
  // bulk of the table, are in neither).
  await sql`create index jobs_pending_due on jobs (run_at) where status = 'pending'`.execute(db);
  await sql`create index jobs_running_lease on jobs (lease_until) where status = 'running'`.execute(db);
  // The head of each ordering key: the oldest of its unfinished jobs.
  await sql`create index jobs_ordering_open on jobs (ordering_key, id) where status in ('pending', 'running')`.execute(
    db,
  );
  // Listings (a tenant's jobs, newest first) and the pruning of finished jobs.
  await db.schema.createIndex('jobs_tenant').on('jobs').columns(['tenant', 'id']).execute();
  await db.schema.createIndex('jobs_finished').on('jobs').column('finished_at').execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
