/**
 * Claiming due jobs (docs/SCALING.md, "Background jobs"): one short transaction that takes pending jobs whose time
 * has come and running ones whose lease expired, fairly between tenants (fair.ts).
 */
import type { Kysely, Transaction } from 'kysely';
import type { DialectName } from '../db/database.js';
import type { Tables } from '../db/schema.js';
import { inLightTransaction } from '../db/transaction.js';
import { anyJobDue, DUE_COLUMNS, type DueRow, fairDueJobs, isDueAt, type TenantShare } from './fair.js';
import { type Job, toJob } from './store.js';

export interface ClaimOptions {
  dialect: DialectName;
  /** The queues this runner has handlers for. */
  queues: readonly string[];
  limit: number;
  now: number;
  leaseMs: number;
  lockedBy: string;
  /** The runner's slots a tenant may hold, and how many each holds now (fair.ts, `TenantShare`). */
  share?: TenantShare;
  /** True when a job whose lease expired may not be attempted again (its attempts or deadline are spent). */
  exhausted(job: {
    queue: string;
    attempts: number;
    maxAttempts: number | null;
    giveUpAt: number | null;
    createdAt: number;
  }): boolean;
  /** Run in the claim's transaction for each job failed there for good (its attempts spent by dead processes). */
  gaveUp?: (job: Job, trx: Transaction<Tables>) => Promise<void>;
}

/**
 * Claims up to `limit` due jobs in one short transaction: pending jobs whose `run_at` has come, and running jobs
 * whose lease has expired (a process died or stalled: the attempt it started is counted, and the job is taken
 * over). Each is set running, under a lease until `now + leaseMs`, by `lockedBy`, its attempt counted. A taken-over
 * job whose attempts or deadline are spent is failed instead of claimed. When more jobs are due than `limit`, the
 * slots are shared fairly between tenants (fair.ts, `fairDueJobs`).
 *
 * Ordering keys: a job is claimable only if it is the head of its key, that is no older job of the key is pending
 * or running. Why this is enough under concurrency, on PostgreSQL (read committed): the candidates are locked `for
 * update skip locked`, so two claimers never take the same row (the second skips it, or, when the first has
 * committed, re-checks the row's new version, now running, and drops it). A job's head can only stop blocking it
 * by finishing (statuses move forward: pending ⇄ running → done | failed | cancelled), so a claimer that sees a
 * job as the head of its key sees a snapshot in which every older job of the key had finished. Two jobs of one key
 * can therefore never be running at once, and they start in id order. (An advisory lock per key at claim time was
 * the alternative; it adds a round trip per key and is not needed given the rule above. `enqueue` takes one so ids
 * follow commit order.) On SQLite the transaction is `begin immediate`: the one writer, so nothing interleaves.
 */
type Candidate = Pick<DueRow, 'id' | 'queue' | 'status' | 'attempts' | 'max_attempts' | 'give_up_at' | 'created_at'>;

export async function claimJobs(db: Kysely<Tables>, options: ClaimOptions): Promise<Job[]> {
  const { now, queues } = options;
  if (queues.length === 0 || options.limit <= 0) return [];
  const params = { queues, now };
  // An idle poll is plain reads: no transaction, and on SQLite no wait for the write lock (which blocks the
  // process's event loop while another process holds it).
  if (!(await anyJobDue(db, params))) return [];
  return inLightTransaction(db, async (trx) => {
    // The free slots, shared fairly between the tenants with jobs due (fair.ts).
    const found = await fairDueJobs(trx as Kysely<Tables>, params, options.limit, options.share);
    // On PostgreSQL the rows chosen are locked `for update skip locked`, and their being due is checked again on
    // the version locked: another claimer's job is skipped, or dropped once it runs under a fresh lease. The
    // fair order is kept: a row skipped leaves its slot free until the next claim.
    let candidates: readonly Candidate[] = found;
    if (options.dialect === 'postgres' && found.length > 0) {
      const locked = await trx
        .selectFrom('jobs as j')
        .select(DUE_COLUMNS)
        .where(
          'j.id',
          'in',
          found.map((c) => c.id),
        )
        .where(isDueAt(now))
        .forUpdate()
        .skipLocked()
        .execute();
      const byId = new Map(locked.map((row) => [Number(row.id), row]));
      candidates = found.flatMap((c) => {
        const row = byId.get(c.id);
        return row ? [{ ...row, id: c.id }] : [];
      });
    }
    const lease = { status: 'running' as const, lease_until: now + options.leaseMs, locked_by: options.lockedBy };
    const claimed: Job[] = [];
    const fresh: number[] = [];
    for (const c of candidates) {
      const id = Number(c.id);
      if (c.status === 'pending') {
        fresh.push(id);
        continue;
      }
      // A taken-over job (rare): its last error says what happened to the attempt that did not end.
      const attempts = Number(c.attempts);
      const spent = options.exhausted({
        queue: c.queue,
        attempts,
        maxAttempts: c.max_attempts === null ? null : Number(c.max_attempts),
        giveUpAt: c.give_up_at === null ? null : Number(c.give_up_at),
        createdAt: Number(c.created_at),
      });
      const expired = `lease expired during attempt ${attempts} (its process stopped or stalled)`;
      if (spent) {
        const failed = await trx
          .updateTable('jobs')
          .set({
            status: 'failed',
            finished_at: now,
            updated_at: now,
            lease_until: null,
            locked_by: null,
            last_error: `${expired}; no attempt left`,
          })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        if (options.gaveUp) await options.gaveUp(toJob(failed), trx);
        continue;
      }
      const row = await trx
        .updateTable('jobs')
        .set({ ...lease, attempts: attempts + 1, updated_at: now, last_error: expired })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      claimed.push(toJob(row));
    }
    if (fresh.length > 0) {
      const rows = await trx
        .updateTable('jobs')
        .set((eb) => ({ ...lease, attempts: eb('attempts', '+', 1), updated_at: now }))
        .where('id', 'in', fresh)
        .returningAll()
        .execute();
      claimed.push(...rows.map((row) => toJob(row)));
    }
    // In the fair order chosen.
    const order = new Map(candidates.map((c, i) => [c.id, i]));
    return claimed.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  });
}
