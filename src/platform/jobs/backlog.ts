import type { Db } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import type { JobsDb } from './store.js';

// The open jobs of a key are read through the partial index `jobs_ordering_open` (ordering_key, id, where status is
// pending or running): the `in` term names its condition, so that SQLite uses it; the second keeps the waiting ones.
const waitingOfKey = prepared((db: Db, p: { key: string }) =>
  db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ordering_key', '=', p.key)
    .where('status', 'in', ['pending', 'running'])
    .where('status', '=', 'pending'),
);

/**
 * Keeps at most `keep` jobs of an ordering key waiting (`pending`): cancels the oldest beyond them, in the caller's
 * transaction, with `reason` as their `last_error`, and answers them (id and decoded payload), oldest first (none,
 * nearly always: one count through an index). A running job is neither counted nor touched. Callers enqueue first, then trim, under the
 * key's lock (`enqueue` takes it on PostgreSQL), so that the count sees every committed job of the key.
 */
export async function trimBacklog<P = unknown>(
  db: JobsDb,
  orderingKey: string,
  keep: number,
  reason: string,
  at: number,
): Promise<{ id: number; payload: P }[]> {
  const row = await waitingOfKey.first(db as Db, { key: orderingKey });
  const over = Number(row?.n ?? 0) - keep;
  if (over <= 0) return [];
  const oldest = await db
    .selectFrom('jobs')
    .select(['id', 'payload'])
    .where('ordering_key', '=', orderingKey)
    .where('status', 'in', ['pending', 'running'])
    .where('status', '=', 'pending')
    .orderBy('id')
    .limit(over)
    .execute();
  const ids = oldest.map((r) => Number(r.id));
  if (ids.length === 0) return [];
  // Under the key's lock no other writer touches its waiting jobs; a claim may, between the select and this update
  // on PostgreSQL: a job claimed meanwhile stays running (and is not in the answer).
  const cancelled = await db
    .updateTable('jobs')
    .set({ status: 'cancelled', last_error: reason, finished_at: at, updated_at: at })
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .returning('id')
    .execute();
  const done = new Set(cancelled.map((r) => Number(r.id)));
  return oldest
    .filter((r) => done.has(Number(r.id)))
    .map((r) => ({ id: Number(r.id), payload: JSON.parse(r.payload) as P }));
}
