import { sql } from 'kysely';
import { CapReachedError } from '../errors.js';
import { type Db, dialectOf } from './database.js';

/**
 * The first key of the two-key advisory locks a cap check takes on PostgreSQL ('CAPS' in ASCII): apart from the job
 * queue's ordering locks (platform/jobs/store.ts), so the two never collide.
 */
const CAP_LOCK_CLASS = 0x43415053;

/** A per-tenant cap on things running at once (docs/RELIABILITY.md, "No tenant can stall another"). */
export interface TenantCap {
  /** Names the lock and the message: `imports`, `dataset imports`, `campaigns`. */
  what: string;
  /** The most the tenant may have running (the setting's value). */
  limit: number;
  /** The setting that holds it, named in the refusal. */
  setting: string;
}

/**
 * On PostgreSQL, takes the lock of one tenant's cap (`what`) until the transaction `db` ends: the writers that count
 * and then add under that cap run one after another. Nothing on SQLite, where one transaction writes at a time.
 */
export async function lockTenantCap(db: Db, tenant: string, what: string): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(${CAP_LOCK_CLASS}, hashtext(${`${what}:${tenant}`}))`.execute(db);
}

/** The `Retry-After` of a refusal: a running one frees its slot when it ends, which its own status shows. */
export const CAP_RETRY_AFTER_SECONDS = 10;

/**
 * Refuses (`CapReachedError`, 429 on the HR API) a write that would give the tenant one more than `cap.limit`
 * running, before it writes anything. Called first in the write's transaction (`db`). On PostgreSQL it first takes a
 * lock per tenant and cap, held until the transaction ends, so that two writers cannot both count the same free
 * slot; on SQLite one transaction writes at a time (another process's commit between the count and the write fails
 * the write, which is retried from the start).
 */
export async function checkTenantCap(
  db: Db,
  tenant: string,
  cap: TenantCap,
  running: () => Promise<number>,
): Promise<void> {
  await lockTenantCap(db, tenant, cap.what);
  const count = await running();
  if (count >= cap.limit) {
    throw new CapReachedError(
      `This client already has ${count} ${cap.what} running, the most allowed (${cap.setting}=${cap.limit}): retry once one of them has ended.`,
      CAP_RETRY_AFTER_SECONDS,
    );
  }
}
