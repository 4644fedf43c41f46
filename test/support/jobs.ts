/** Test helpers for the job runner's edge cases: jobs whose attempts a dead process spent. */
import type { Kysely } from 'kysely';
import type { Tables } from '../../src/platform/db/schema.js';

/**
 * As if the process that ran them died during their last attempt: a queue's pending jobs become running under an
 * expired lease, held by a process that is gone, with no attempt left. The next claim gives them up.
 */
export async function spendPendingJobs(db: Kysely<Tables>, queue: string): Promise<number> {
  const result = await db
    .updateTable('jobs')
    .set({ status: 'running', attempts: 5, max_attempts: 5, locked_by: 'dead-process', lease_until: 1 })
    .where('queue', '=', queue)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
