import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Transaction } from 'kysely';
import { type Db, dialectOf, SQLITE_SYNCHRONOUS } from './database.js';
import type { Tables } from './schema.js';

/** Set while `withLightCommits` runs: the transactions started inside it are light ones. */
const lightScope = new AsyncLocalStorage<boolean>();

/** How many times a transaction is tried before its serialization failure reaches the caller. */
export const TRANSACTION_ATTEMPTS = 6;

/**
 * True when a driver error means "the same transaction would succeed if run
 * again": a PostgreSQL serialization failure (40001) or deadlock (40P01), or
 * SQLite's database lock still held by another process once the busy timeout
 * has passed (SQLITE_BUSY and its extended codes).
 */
export function isRetryableConflict(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  return code === '40001' || code === '40P01' || code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_');
}

function pause(attempt: number): Promise<void> {
  // 10, 20, 40, 80, 160 ms, each with up to as much again of jitter, so colliding writers spread out.
  const base = 10 * 2 ** (attempt - 1);
  return new Promise((resolve) => setTimeout(resolve, base + Math.random() * base));
}

/**
 * Runs `work` in one transaction and commits it. A serialization failure,
 * a deadlock or a busy SQLite database rolls the attempt back and runs
 * `work` again from the start (up to TRANSACTION_ATTEMPTS times, with a short
 * random pause), so callers never see them unless the conflict persists.
 * `work` may therefore run more than once: it must reach the database only
 * through `trx`, and keep no effects of a failed attempt.
 *
 * Called with a transaction (a repository already bound to one), it runs
 * `work` in that transaction: the outer caller owns the commit and the retry.
 */
export async function inTransaction<T>(db: Db, work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<Tables>);
  if (lightScope.getStore() === true) return inLightTransaction(db, work);
  return committed(db, work);
}

/** The retried transaction of `inTransaction`, committed at the connection's safety level. */
async function committed<T>(db: Db, work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt >= TRANSACTION_ATTEMPTS || !isRetryableConflict(error)) throw error;
      await pause(attempt);
    }
  }
}

/**
 * `inTransaction` for bookkeeping a crash may roll back harmlessly (a job's claim and its outcome): committed like
 * any transaction, visible to every reader at once and kept through a crash of the process (SIGKILL), but not
 * flushed to disk before it returns, so a power cut or an operating-system crash within a few milliseconds may
 * lose it. It then reverts to its state before (a job running again: at least once). The next ordinary commit
 * flushes it too (SQLite's WAL is written in order; so is PostgreSQL's). SQLite: `synchronous = NORMAL` for the
 * transaction's commit, on the connection held for it; PostgreSQL: `synchronous_commit = off` for it. Saves the
 * flush, about 200 µs of a SQLite commit's 300 on this machine type (docs/PERFORMANCE.md, "Webhooks").
 */
export async function inLightTransaction<T>(db: Db, work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<Tables>);
  if (dialectOf(db) === 'postgres') {
    return committed(db, async (trx) => {
      await sql`set local synchronous_commit = off`.execute(trx);
      return work(trx);
    });
  }
  // The safety level cannot change inside a transaction: it is set around it, on the one connection it uses.
  return db.connection().execute(async (connection) => {
    await sql`pragma synchronous = normal`.execute(connection);
    try {
      return await committed(connection, work);
    } finally {
      await sql.raw(`pragma synchronous = ${SQLITE_SYNCHRONOUS}`).execute(connection);
    }
  });
}

/**
 * Runs `work` with every transaction it starts committed as `inLightTransaction` does: kept through a crash of the
 * process, not flushed to disk before it returns. For a background job's rows, whose progress is stored with them
 * and which no caller was told of one by one (a bulk call's or an import's items): a power cut may lose the last
 * few milliseconds of rows with their progress, and the job, which then reverts to that state, applies them again.
 * The job's end, written outside `work` by an ordinary commit, flushes every row before it (the WAL is written in
 * order), so a job reported finished has all its rows on disk. Writes outside a transaction (autocommit) are not
 * affected.
 */
export function withLightCommits<T>(work: () => Promise<T>): Promise<T> {
  return lightScope.run(true, work);
}
