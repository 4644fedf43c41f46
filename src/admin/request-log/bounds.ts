import type { Db } from '../../platform/db/database.js';

/** A tenant's share of the log: at most `maxRows` calls and `maxBytes` bytes (docs/admin.md, "Request log"). */
export interface LogCaps {
  maxRows: number;
  maxBytes: number;
}

/** Rows read at a time while looking for the oldest calls to delete. */
const SCAN = 500;

/** Adds to (or, negative, takes from) a tenant's count and bytes; answers them as they are now. */
async function addUsage(
  trx: Db,
  tenant: string,
  calls: number,
  bytes: number,
): Promise<{ calls: number; bytes: number }> {
  const row = await trx
    .insertInto('request_log_usage')
    .values({ tenant, calls, bytes })
    .onConflict((oc) =>
      oc.column('tenant').doUpdateSet((eb) => ({
        calls: eb('request_log_usage.calls', '+', calls),
        bytes: eb('request_log_usage.bytes', '+', bytes),
      })),
    )
    .returning(['calls', 'bytes'])
    .executeTakeFirstOrThrow();
  return { calls: Number(row.calls), bytes: Number(row.bytes) };
}

/**
 * Deletes a tenant's calls up to `edge` (its oldest) and takes them from its usage: counted from what the delete
 * removed, so a call another process deleted meanwhile is not taken twice.
 */
async function deleteUpTo(trx: Db, tenant: string, edge: number): Promise<void> {
  const gone = await trx
    .deleteFrom('request_log')
    .where('tenant', '=', tenant)
    .where('seq', '<=', edge)
    .returning('bytes')
    .execute();
  const bytes = gone.reduce((sum, r) => sum + Number(r.bytes), 0);
  if (gone.length > 0) await addUsage(trx, tenant, -gone.length, -bytes);
}

/**
 * In the transaction that wrote a tenant's new calls (`calls` of them, `bytes` in all): adds them to its usage and, if
 * that passes a cap, deletes its oldest calls until it holds no more than both caps (the new ones too, if a single
 * batch is larger than a cap). The usage row, updated first, is the tenant's lock: two processes bound a tenant one
 * after the other.
 */
export async function boundTenant(trx: Db, tenant: string, calls: number, bytes: number, caps: LogCaps): Promise<void> {
  const usage = await addUsage(trx, tenant, calls, bytes);
  let overRows = usage.calls - caps.maxRows;
  let overBytes = usage.bytes - caps.maxBytes;
  let edge: number | undefined;
  while (overRows > 0 || overBytes > 0) {
    let q = trx.selectFrom('request_log').select(['seq', 'bytes']).where('tenant', '=', tenant);
    if (edge !== undefined) q = q.where('seq', '>', edge);
    const oldest = await q.orderBy('seq').limit(SCAN).execute();
    if (oldest.length === 0) break;
    for (const row of oldest) {
      edge = Number(row.seq);
      overRows -= 1;
      overBytes -= Number(row.bytes);
      if (overRows <= 0 && overBytes <= 0) break;
    }
  }
  if (edge !== undefined) await deleteUpTo(trx, tenant, edge);
}

/**
 * Empties a tenant's log (`DELETE …/requests`) in the caller's transaction: takes its usage row first (the writer's
 * lock), deletes every call, and sets its usage to nothing. A batch another process is writing meanwhile waits for
 * the row, then adds its own calls: they stay, and are counted. Answers how many calls were deleted.
 */
export async function clearTenant(trx: Db, tenant: string): Promise<number> {
  await addUsage(trx, tenant, 0, 0);
  const gone = await trx.deleteFrom('request_log').where('tenant', '=', tenant).executeTakeFirst();
  await trx.updateTable('request_log_usage').set({ calls: 0, bytes: 0 }).where('tenant', '=', tenant).execute();
  return Number(gone.numDeletedRows);
}

/** Rows deleted per statement by the retention sweep. */
const SWEEP_CHUNK = 5_000;

/**
 * Deletes the calls older than `before`, tenant by tenant, a chunk per transaction that first takes the tenant's
 * usage row (the order the writer takes them in too), then takes the deleted calls from it.
 */
export async function sweepOlderThan(db: Db, before: number): Promise<number> {
  const tenants = await db.selectFrom('request_log').select('tenant').distinct().where('at', '<', before).execute();
  let deleted = 0;
  for (const { tenant } of tenants) {
    for (;;) {
      const n = await db.transaction().execute(async (trx) => {
        await addUsage(trx, tenant, 0, 0);
        const gone = await trx
          .deleteFrom('request_log')
          .where('seq', 'in', (eb) =>
            eb
              .selectFrom('request_log')
              .select('seq')
              .where('tenant', '=', tenant)
              .where('at', '<', before)
              .limit(SWEEP_CHUNK),
          )
          .returning('bytes')
          .execute();
        const bytes = gone.reduce((sum, r) => sum + Number(r.bytes), 0);
        if (gone.length > 0) await addUsage(trx, tenant, -gone.length, -bytes);
        return gone.length;
      });
      deleted += n;
      if (n < SWEEP_CHUNK) break;
    }
  }
  return deleted;
}
