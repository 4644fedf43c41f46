/**
 * The `jobs` table: enqueueing in the caller's transaction, the claim and the ends of an attempt (used by the
 * runner, runner.ts), and the plain functions over the table a command line or an admin route needs (list, get,
 * retry, cancel, prune). docs/SCALING.md, "Background jobs".
 */
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { type Db, dialectOf } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import type { Tables } from '../db/schema.js';
import { inTransaction } from '../db/transaction.js';
import { wallClock } from '../time.js';
import type { JobStatus, JobsTable } from './tables.js';

export type { JobStatus } from './tables.js';

/** A database handle or a transaction's: what `enqueue` writes with. */
export type JobsDb = Kysely<Tables> | Transaction<Tables>;

/** A job as the runner and the listing functions give it: the payload decoded, instants in epoch ms. */
export interface Job<P = unknown> {
  id: number;
  queue: string;
  tenant: string | null;
  orderingKey: string | null;
  payload: P;
  status: JobStatus;
  /** Attempts started, this one included while it runs. */
  attempts: number;
  maxAttempts: number | null;
  giveUpAt: number | null;
  runAt: number;
  leaseUntil: number | null;
  lockedBy: string | null;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

export interface NewJob<P = unknown> {
  /** The job's kind: the runner calls the handler registered under this name. */
  queue: string;
  /** Anything JSON can hold; the handler gets it decoded. */
  payload: P;
  /** The client or academy the job belongs to (for listings). */
  tenant?: string | null;
  /**
   * Jobs with the same key run one at a time, in the order they were enqueued (id order): a job waits while an
   * older one of its key is pending or running. Keys are global across queues: name them (`webhook:<id>`).
   */
  orderingKey?: string | null;
  /** The first attempt's earliest start (default: at once). */
  runAt?: number;
  /** No attempt after this many (default: the queue's `maxAttempts` when no deadline is given). */
  maxAttempts?: number | null;
  /** No attempt starts after this instant. */
  giveUpAt?: number | null;
  /** Or the deadline relative to the enqueue: `giveUpAt = now + giveUpAfterMs`. */
  giveUpAfterMs?: number;
}

/** The longest `last_error` kept. */
export const LAST_ERROR_LENGTH = 2000;

/**
 * The first key of the two-key advisory locks taken by `enqueue` on PostgreSQL ('JOBS' in ASCII): the two-key
 * space does not overlap the one-key space other locks (Kysely's migration lock) use.
 */
const ORDERING_LOCK_CLASS = 0x4a4f4253;

export function toJob<P = unknown>(row: Selectable<JobsTable>): Job<P> {
  return {
    id: Number(row.id),
    queue: row.queue,
    tenant: row.tenant,
    orderingKey: row.ordering_key,
    payload: JSON.parse(row.payload) as P,
    status: row.status,
    attempts: Number(row.attempts),
    maxAttempts: row.max_attempts === null ? null : Number(row.max_attempts),
    giveUpAt: row.give_up_at === null ? null : Number(row.give_up_at),
    runAt: Number(row.run_at),
    leaseUntil: row.lease_until === null ? null : Number(row.lease_until),
    lockedBy: row.locked_by,
    lastError: row.last_error,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
  };
}

// Every enqueue and every end of an attempt runs these: built once (platform/db/prepared.ts).
const insertJob = prepared(
  (
    db: Db,
    p: {
      queue: string;
      tenant: string | null;
      orderingKey: string | null;
      payload: string;
      maxAttempts: number | null;
      giveUpAt: number | null;
      runAt: number;
      at: number;
    },
  ) =>
    db
      .insertInto('jobs')
      .values({
        queue: p.queue,
        tenant: p.tenant,
        ordering_key: p.orderingKey,
        payload: p.payload,
        status: 'pending',
        attempts: 0,
        max_attempts: p.maxAttempts,
        give_up_at: p.giveUpAt,
        run_at: p.runAt,
        lease_until: null,
        locked_by: null,
        last_error: null,
        created_at: p.at,
        updated_at: p.at,
        finished_at: null,
      })
      .returning('id'),
);
/** The end of an attempt, written only while the claim holds (`Claim`). */
const endAttempt = <S extends JobStatus>(status: S) =>
  prepared(
    (
      db: Db,
      p: { id: number; lockedBy: string; attempt: number; at: number; runAt: number | null; lastError: string | null },
    ) =>
      db
        .updateTable('jobs')
        .set({
          status,
          // Done or failed: finished now; pending again: due at `runAt` (the column is then left as it was).
          ...(status === 'pending' ? { run_at: p.runAt as number } : { finished_at: p.at }),
          ...(status === 'done' ? {} : { last_error: p.lastError }),
          updated_at: p.at,
          lease_until: null,
          locked_by: null,
        })
        .where('id', '=', p.id)
        .where('locked_by', '=', p.lockedBy)
        .where('attempts', '=', p.attempt)
        .where('status', '=', 'running'),
  );
const completeAttempt = endAttempt('done');
const retryAttempt = endAttempt('pending');
const failAttempt = endAttempt('failed');

/**
 * Adds a job with the caller's handle, so it commits or rolls back with the write that causes it: pass the
 * transaction of that write (a unit of work's `tx`). No runner sees the job before the commit; `runner.wake()`
 * after the commit starts it without waiting for the next poll. Returns the job's id.
 *
 * With an ordering key on PostgreSQL, the transaction first takes an advisory lock on the key, held until it
 * commits: two transactions enqueueing for one key then take their ids in the order they commit, so a job can
 * never become visible behind a younger one of its key that already ran (ids come from a sequence, which hands
 * them out at insert time, not at commit). Enqueuers of one key wait for each other's commits; one transaction
 * enqueueing for two keys in the opposite order of another may deadlock, which `inTransaction` retries. On
 * SQLite, with one writer at a time, ids are always in commit order. Given a plain handle (not a transaction),
 * the lock and the insert run in a transaction of their own.
 *
 * `at` is the enqueue's time (`created_at`, and `run_at` without `runAt`): the runner's clock, the installation's
 * (`clock.wall()`), for a job that should be due at once; the wall clock when left out.
 */
export async function enqueue<P>(db: JobsDb, job: NewJob<P>, at: number = wallClock()): Promise<number> {
  const payload = JSON.stringify(job.payload);
  if (payload === undefined) throw new TypeError('a job payload must be JSON (got undefined)');
  const giveUpAt = job.giveUpAt ?? (job.giveUpAfterMs === undefined ? null : at + job.giveUpAfterMs);
  const insert = async (handle: JobsDb) => {
    const row = await insertJob.first(handle as Db, {
      queue: job.queue,
      tenant: job.tenant ?? null,
      orderingKey: job.orderingKey ?? null,
      payload,
      maxAttempts: job.maxAttempts ?? null,
      giveUpAt,
      runAt: job.runAt ?? at,
      at,
    });
    if (!row) throw new Error('the job insert returned no id');
    return Number(row.id);
  };
  const key = job.orderingKey;
  if (key == null || dialectOf(db as Db) !== 'postgres') return insert(db);
  return inTransaction(db as Kysely<Tables>, async (trx) => {
    await sql`select pg_advisory_xact_lock(${ORDERING_LOCK_CLASS}, hashtext(${key}))`.execute(trx);
    return insert(trx);
  });
}

/** One job, or undefined. */
export async function getJob<P = unknown>(db: JobsDb, id: number): Promise<Job<P> | undefined> {
  const row = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toJob<P>(row) : undefined;
}

export interface JobFilter {
  queue?: string;
  tenant?: string;
  status?: JobStatus | JobStatus[];
  orderingKey?: string;
  /** Keyset paging, newest first: the jobs with a smaller id than this one. */
  beforeId?: number;
  /** At most this many (default 50, at most 1000). */
  limit?: number;
}

/** Jobs matching the filter, newest first. */
export async function listJobs(db: JobsDb, filter: JobFilter = {}): Promise<Job[]> {
  const statuses = filter.status === undefined ? [] : [filter.status].flat();
  const rows = await db
    .selectFrom('jobs')
    .selectAll()
    .$if(filter.queue !== undefined, (q) => q.where('queue', '=', filter.queue as string))
    .$if(filter.tenant !== undefined, (q) => q.where('tenant', '=', filter.tenant as string))
    .$if(statuses.length > 0, (q) => q.where('status', 'in', statuses))
    .$if(filter.orderingKey !== undefined, (q) => q.where('ordering_key', '=', filter.orderingKey as string))
    .$if(filter.beforeId !== undefined, (q) => q.where('id', '<', filter.beforeId as number))
    .orderBy('id', 'desc')
    .limit(Math.max(1, Math.min(1000, Math.trunc(filter.limit ?? 50))))
    .execute();
  return rows.map((row) => toJob(row));
}

/**
 * Makes a failed or cancelled job pending again, due at `at`. Its attempts are kept (they are its history), so a
 * job past its attempts or its deadline gets one more attempt. It may run out of the order of its key: younger
 * jobs of the key went on when it failed. A pending job is not touched: it already waits for its own time (a
 * signature's expiry due in 15 days must not run now). Returns the job, or undefined when no job with this id is
 * failed or cancelled.
 */
export async function retryJob(db: JobsDb, id: number, at: number = wallClock()): Promise<Job | undefined> {
  const row = await db
    .updateTable('jobs')
    .set({ status: 'pending', run_at: at, finished_at: null, lease_until: null, locked_by: null, updated_at: at })
    .where('id', '=', id)
    .where('status', 'in', ['failed', 'cancelled'])
    .returningAll()
    .executeTakeFirst();
  return row ? toJob(row) : undefined;
}

/**
 * Cancels a pending or running job. A running attempt is not interrupted by the database, but its handler's
 * `signal` aborts at its next heartbeat and its result is discarded. Returns the job, or undefined when no job
 * with this id is pending or running.
 */
export async function cancelJob(db: JobsDb, id: number, at: number = wallClock()): Promise<Job | undefined> {
  const row = await db
    .updateTable('jobs')
    .set({ status: 'cancelled', finished_at: at, lease_until: null, locked_by: null, updated_at: at })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'running'])
    .returningAll()
    .executeTakeFirst();
  return row ? toJob(row) : undefined;
}

/** Deletes jobs finished (done, failed or cancelled) before `finishedBefore`; returns how many. */
export async function pruneJobs(db: JobsDb, finishedBefore: number): Promise<number> {
  const result = await db
    .deleteFrom('jobs')
    .where('finished_at', '<', finishedBefore)
    .where('status', 'in', ['done', 'failed', 'cancelled'])
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Which runner holds a job, and for which attempt: the condition every end of an attempt is written under. */
export interface Claim {
  id: number;
  lockedBy: string;
  attempt: number;
}

/** Ends an attempt with success. False when the claim was lost (lease taken over, job cancelled): nothing written. */
export async function completeJob(db: Kysely<Tables>, claim: Claim, now: number): Promise<boolean> {
  const result = await completeAttempt.execute(db, {
    id: claim.id,
    lockedBy: claim.lockedBy,
    attempt: claim.attempt,
    at: now,
    runAt: null,
    lastError: null,
  });
  return Number(result.numAffectedRows) === 1;
}

/**
 * Ends an attempt with a failure: pending again at `retryAt`, or `failed` when `retryAt` is null. False when the
 * claim was lost: nothing written.
 */
export async function failJob(
  db: Kysely<Tables>,
  claim: Claim,
  now: number,
  error: string,
  retryAt: number | null,
): Promise<boolean> {
  const lastError = error.length > LAST_ERROR_LENGTH ? error.slice(0, LAST_ERROR_LENGTH) : error;
  const params = { id: claim.id, lockedBy: claim.lockedBy, attempt: claim.attempt, at: now, runAt: retryAt, lastError };
  const result = await (retryAt === null ? failAttempt : retryAttempt).execute(db, params);
  return Number(result.numAffectedRows) === 1;
}

/** Extends a running attempt's lease to `leaseUntil`. False when the claim was lost (the attempt should stop). */
export async function renewLease(db: Kysely<Tables>, claim: Claim, now: number, leaseUntil: number): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ lease_until: leaseUntil, updated_at: now })
    .where('id', '=', claim.id)
    .where('locked_by', '=', claim.lockedBy)
    .where('attempts', '=', claim.attempt)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
