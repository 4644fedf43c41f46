/**
 * The claim's choice of jobs (store.ts, `claimJobs`): which due jobs get the free slots. Fair between tenants:
 * each slot goes to the tenant with the fewest jobs running now, in every process (its share of the slots), and
 * between tenants running as many, to the job that has been due longest. So one tenant uses every slot only while
 * no other tenant has a job due, and a job's place in line is the time it became due (a retry's is the end of its
 * backoff), never its age: a retried job does not go ahead of work another tenant queued meanwhile.
 * docs/SCALING.md, "Background jobs".
 */
import { type ExpressionBuilder, type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import type { Tables } from '../db/schema.js';
import type { JobStatus } from './tables.js';

// The statuses are literals, not parameters: only then can SQLite (and a generic PostgreSQL plan) prove the
// partial indexes' conditions (migrations 0014, 0017 and 0042) and use them, rather than scan every finished job.
export const PENDING = sql.lit<JobStatus>('pending');
export const RUNNING = sql.lit<JobStatus>('running');
export const DUE_COLUMNS = [
  'j.id',
  'j.queue',
  'j.status',
  'j.attempts',
  'j.max_attempts',
  'j.give_up_at',
  'j.created_at',
] as const;

/** Due at `now`: pending with its time come, or running with its lease expired. */
export const isDueAt = (now: number) => (eb: ExpressionBuilder<Tables & { j: Tables['jobs'] }, 'j'>) =>
  eb.or([
    eb.and([eb('j.status', '=', PENDING), eb('j.run_at', '<=', now)]),
    eb.and([eb('j.status', '=', RUNNING), eb('j.lease_until', '<=', now)]),
  ]);

/**
 * The ids of the heads of the ordering keys (the oldest unfinished job of each key), found by walking
 * `jobs_ordering_open` key by key: a recursive query in which each step seeks the next key, then that key's oldest
 * job. It costs a few index seeks per key with open jobs, however many jobs wait behind each: a webhook with
 * thousands of queued deliveries costs its head only.
 */
const HEADS = sql<number>`(
  with recursive k(ordering_key) as (
    select min(ordering_key) from jobs where status in (${PENDING}, ${RUNNING}) and ordering_key is not null
    union all
    select (
      select min(n.ordering_key) from jobs as n
      where n.status in (${PENDING}, ${RUNNING}) and n.ordering_key > k.ordering_key
    ) from k where k.ordering_key is not null
  )
  select (
    select min(h.id) from jobs as h where h.status in (${PENDING}, ${RUNNING}) and h.ordering_key = k.ordering_key
  ) from k where k.ordering_key is not null
)`;

/** A due job as the claim reads it: enough to claim it, or to fail it when its attempts are spent. */
export interface DueRow {
  id: number;
  queue: string;
  status: JobStatus;
  attempts: number;
  max_attempts: number | null;
  give_up_at: number | null;
  created_at: number;
  tenant: string | null;
  /** Since when it is due: its `run_at`, or for a running job whose lease expired, `lease_until`. */
  due_at: number;
}

type DueParams = { queues: readonly string[]; now: number };
type JobsWhere = (eb: ExpressionBuilder<Tables & { j: Tables['jobs'] }, 'j'>) => ReturnType<ReturnType<typeof isDueAt>>;

/**
 * The due jobs matching `where`, at most `limit` per tenant, each tenant's in the order they became due. The
 * window function numbers the due jobs only, which the partial indexes find (the heads of the keys; the unkeyed
 * due jobs): the same rows the claim read before it was fair, sorted by tenant rather than by id.
 */
function duePerTenant(limit: number, dueAt: RawBuilder<number>, where: (p: DueParams) => JobsWhere) {
  return prepared((db: Db, p: DueParams) =>
    db
      .selectFrom(
        db
          .selectFrom('jobs as j')
          .select([
            ...DUE_COLUMNS,
            'j.tenant',
            dueAt.as('due_at'),
            sql<number>`row_number() over (partition by j.tenant order by ${dueAt}, j.id)`.as('rank'),
          ])
          .where(where(p))
          .where('j.queue', 'in', p.queues)
          .as('d'),
      )
      .select(['d.id', 'd.queue', 'd.status', 'd.attempts', 'd.max_attempts', 'd.give_up_at', 'd.created_at'])
      .select(['d.tenant', 'd.due_at'])
      .where('d.rank', '<=', sql.lit(limit)),
  );
}

/**
 * The claim's three reads of due jobs, rather than one scan: the heads of the ordering keys that are due, unkeyed
 * pending jobs whose time has come, and unkeyed running jobs whose lease expired (migration 0017's partial indexes,
 * which hold no keyed job). Their limit is a literal, so each limit (the runner asks for its free slots) has its
 * queries, built once (platform/db/prepared.ts).
 */
function dueReads(limit: number) {
  const keyedDue = sql<number>`case when j.status = ${PENDING} then j.run_at else j.lease_until end`;
  return {
    keyed: duePerTenant(limit, keyedDue, (p) => (eb) => eb.and([eb('j.id', 'in', HEADS), isDueAt(p.now)(eb)])),
    pending: duePerTenant(
      limit,
      sql<number>`j.run_at`,
      (p) => (eb) =>
        eb.and([eb('j.status', '=', PENDING), eb('j.run_at', '<=', p.now), eb('j.ordering_key', 'is', null)]),
    ),
    running: duePerTenant(
      limit,
      sql<number>`j.lease_until`,
      (p) => (eb) =>
        eb.and([eb('j.status', '=', RUNNING), eb('j.lease_until', '<=', p.now), eb('j.ordering_key', 'is', null)]),
    ),
  };
}
const dueReadsByLimit = new Map<number, ReturnType<typeof dueReads>>();
function dueReadsFor(limit: number): ReturnType<typeof dueReads> {
  let reads = dueReadsByLimit.get(limit);
  if (!reads) {
    reads = dueReads(limit);
    dueReadsByLimit.set(limit, reads);
  }
  return reads;
}

/** Whether anything is due: an idle poll's probe, three index seeks, before any transaction. */
const anyDue = {
  keyed: prepared((db: Db, p: DueParams) =>
    db
      .selectFrom('jobs as j')
      .select('j.id')
      .where('j.id', 'in', HEADS)
      .where('j.queue', 'in', p.queues)
      .where(isDueAt(p.now))
      .limit(1),
  ),
  pending: prepared((db: Db, p: DueParams) =>
    db
      .selectFrom('jobs as j')
      .select('j.id')
      .where('j.status', '=', PENDING)
      .where('j.run_at', '<=', p.now)
      .where('j.ordering_key', 'is', null)
      .where('j.queue', 'in', p.queues)
      .limit(1),
  ),
  running: prepared((db: Db, p: DueParams) =>
    db
      .selectFrom('jobs as j')
      .select('j.id')
      .where('j.status', '=', RUNNING)
      .where('j.lease_until', '<=', p.now)
      .where('j.ordering_key', 'is', null)
      .where('j.queue', 'in', p.queues)
      .limit(1),
  ),
};

export async function anyJobDue(db: Db, params: DueParams): Promise<boolean> {
  return (
    (await anyDue.pending.first(db, params)) !== undefined ||
    (await anyDue.keyed.first(db, params)) !== undefined ||
    (await anyDue.running.first(db, params)) !== undefined
  );
}

/** Each tenant's jobs running now under a live lease, in every process (`jobs_running_tenant`, migration 0042). */
const runningByTenant = prepared((db: Db, p: { now: number }) =>
  db
    .selectFrom('jobs as j')
    .select(['j.tenant', (eb) => eb.fn.countAll<number>().as('n')])
    .where('j.status', '=', RUNNING)
    .where('j.lease_until', '>', p.now)
    .groupBy('j.tenant'),
);

/**
 * Up to `limit` due jobs in the order they should be claimed: slot after slot, the tenant with the fewest jobs
 * running (those running before the claim and those it has chosen), ties to the job due longest (then the oldest
 * id). Within a tenant, its jobs in the order they became due. The server's own jobs (no tenant) are one tenant.
 */
export async function fairDueJobs(db: Db, params: DueParams, limit: number, share?: TenantShare): Promise<DueRow[]> {
  const reads = dueReadsFor(limit);
  const rows = [
    ...(await reads.keyed.all(db, params)),
    ...(await reads.pending.all(db, params)),
    ...(await reads.running.all(db, params)),
  ];
  if (rows.length === 0) return [];
  const lines = new Map<string | null, DueRow[]>();
  for (const r of rows) {
    const row: DueRow = {
      ...r,
      id: Number(r.id),
      attempts: Number(r.attempts),
      due_at: Number(r.due_at),
      created_at: Number(r.created_at),
    };
    const line = lines.get(row.tenant);
    if (line) line.push(row);
    else lines.set(row.tenant, [row]);
  }
  for (const line of lines.values()) line.sort((a, b) => a.due_at - b.due_at || a.id - b.id);
  const load = new Map<string | null, number>();
  for (const r of await runningByTenant.all(db, { now: params.now })) load.set(r.tenant, Number(r.n));
  return pickFairly(lines, load, limit, share);
}

/**
 * The most slots of one runner a tenant may hold (`ATRIUM_JOB_SLOTS_PER_TENANT`), and how many it holds now. With
 * fewer than the runner's slots, one is always left for the other tenants: a tenant whose jobs hang (a webhook
 * receiver that never answers) cannot make another tenant's job wait for one of them to end.
 */
export interface TenantShare {
  max: number;
  held: ReadonlyMap<string | null, number>;
}

/**
 * The choice itself, over each tenant's line of due jobs (sorted) and its running count; with a share, no tenant
 * gets more than its share of this runner's slots.
 */
export function pickFairly(
  lines: Map<string | null, DueRow[]>,
  load: Map<string | null, number>,
  limit: number,
  share?: TenantShare,
): DueRow[] {
  const picked: DueRow[] = [];
  const next = new Map<string | null, number>();
  while (picked.length < limit) {
    let best: { tenant: string | null; row: DueRow; load: number } | undefined;
    for (const [tenant, line] of lines) {
      const taken = next.get(tenant) ?? 0;
      const row = line[taken];
      if (!row) continue;
      if (share && (share.held.get(tenant) ?? 0) + taken >= share.max) continue;
      const running = load.get(tenant) ?? 0;
      if (
        !best ||
        running < best.load ||
        (running === best.load &&
          (row.due_at < best.row.due_at || (row.due_at === best.row.due_at && row.id < best.row.id)))
      ) {
        best = { tenant, row, load: running };
      }
    }
    if (!best) break;
    picked.push(best.row);
    next.set(best.tenant, (next.get(best.tenant) ?? 0) + 1);
    load.set(best.tenant, best.load + 1);
  }
  return picked;
}
