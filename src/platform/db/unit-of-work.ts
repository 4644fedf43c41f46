import type { Kysely } from 'kysely';
import { inTransaction } from './transaction.js';

/**
 * A unit of work: the repositories a service needs, bound together to one connection or one transaction.
 *
 * A service is given a `UnitOfWork` instead of repositories. It reads through `read` (the repositories on the
 * database itself) and writes through `run`, whose callback receives every repository bound to one transaction:
 * everything the callback does commits together, or not at all. A service never creates a transaction, never
 * rebinds a repository (`using(trx)`), and never hands a transaction to another service; work that spans two
 * resources names both repositories in its bundle.
 *
 * `run` is `inTransaction`: a serialization failure, a deadlock or a busy SQLite database rolls the attempt back
 * and runs the callback again, so the callback must reach the database only through the repositories it is given
 * and keep no state from a failed attempt. Called inside another unit's transaction (a bundle bound by `run`),
 * it joins that transaction.
 */
export class UnitOfWork<DB, R> {
  /** The repositories outside any transaction, for reads. */
  readonly read: R;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly bind: (db: Kysely<DB>) => R,
  ) {
    this.read = bind(db);
  }

  /** Runs `work` in one transaction (retried as a whole on conflicts) with every repository bound to it. */
  run<T>(work: (tx: R) => Promise<T>): Promise<T> {
    return inTransaction(this.db as never, (trx) => work(this.bind(trx as never as Kysely<DB>)));
  }

  /** The same repositories bound to `db` (a transaction a caller already holds). */
  on(db: Kysely<DB>): UnitOfWork<DB, R> {
    return new UnitOfWork(db, this.bind);
  }
}
