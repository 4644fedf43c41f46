/**
 * The durable job runner (src/platform/jobs/, docs/SCALING.md "Background jobs") on both databases: enqueueing in
 * the caller's transaction, retries with backoff, deadlines, ordering keys, leases taken over from a dead claimer,
 * a stale claimer's result discarded, and two runners on one database running each job once. Time is a test clock
 * moved by hand; the assertions read the `jobs` rows.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { CompiledQuery, Kysely, SqliteDialect, type Transaction } from 'kysely';
import { ConfigError, loadConfig } from '../../src/platform/config.js';
import { type Database, openDatabase, Sqlite, sqlitePath } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import type { Tables } from '../../src/platform/db/schema.js';
import { inTransaction } from '../../src/platform/db/transaction.js';
import { claimJobs } from '../../src/platform/jobs/claim.js';
import {
  backoffDelay,
  cancelJob,
  createJobRunner,
  enqueue,
  getJob,
  type Job,
  type JobContext,
  type JobLog,
  JobRunner,
  type JobRunnerOptions,
  listJobs,
  PermanentJobError,
  RetryJobError,
  retryJob,
} from '../../src/platform/jobs/index.js';
import { dialects, freshDatabase, sleep, type TestDatabase } from '../support/harness.js';

const T0 = Date.UTC(2026, 0, 1);

class TestClock {
  t = T0;
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

/** Records log lines, to check what a runner said. */
function recorder(): JobLog & { lines: { level: string; message: string; fields: object }[] } {
  const lines: { level: string; message: string; fields: object }[] = [];
  const at = (level: string) => (fields: object, message: string) => {
    lines.push({ level, message, fields });
  };
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

/** Waits until `check` holds, polling; fails with `what` after a generous bound. */
async function until(check: () => Promise<boolean> | boolean, what: string, boundMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > boundMs) assert.fail(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

function gate(): { promise: Promise<void>; open(): void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

function open(tdb: TestDatabase): Database {
  return openDatabase({
    dataDir: tdb.env.ATRIUM_DATA_DIR as string,
    databaseUrl: tdb.env.DATABASE_URL,
    dbPoolSize: 8,
  });
}

describe('job settings', () => {
  it('ATRIUM_JOB_CONCURRENCY and ATRIUM_JOB_POLL_MS: defaults, bounds, and what createJobRunner takes from them', () => {
    const defaults = loadConfig({});
    assert.equal(defaults.jobConcurrency, 4);
    assert.equal(defaults.jobPollMs, 500);
    const set = loadConfig({ ATRIUM_JOB_CONCURRENCY: '16', ATRIUM_JOB_POLL_MS: '50' });
    assert.equal(set.jobConcurrency, 16);
    assert.equal(set.jobPollMs, 50);
    assert.throws(() => loadConfig({ ATRIUM_JOB_CONCURRENCY: '0' }), ConfigError);
    assert.throws(() => loadConfig({ ATRIUM_JOB_POLL_MS: '5' }), ConfigError);
    const runner = createJobRunner({ db: {} as Database['db'], dialect: 'sqlite' }, set, { handlers: {} });
    assert.ok(runner instanceof JobRunner);
  });

  it('ATRIUM_JOB_SLOTS_PER_TENANT: unset by default (the runner keeps one slot for other tenants), bounded', () => {
    assert.equal(loadConfig({}).jobSlotsPerTenant, undefined);
    assert.equal(loadConfig({ ATRIUM_JOB_SLOTS_PER_TENANT: '4' }).jobSlotsPerTenant, 4);
    assert.throws(() => loadConfig({ ATRIUM_JOB_SLOTS_PER_TENANT: '0' }), ConfigError);
    assert.throws(() => loadConfig({ ATRIUM_JOB_SLOTS_PER_TENANT: 'all' }), ConfigError);
  });
});

for (const dialect of dialects()) {
  describe(`durable jobs (${dialect})`, () => {
    let tdb: TestDatabase;
    let database: Database;
    let clock: TestClock;
    const runners: JobRunner[] = [];
    const runner = (options: Partial<JobRunnerOptions> & Pick<JobRunnerOptions, 'handlers'>) => {
      const r = new JobRunner({ db: database.db, dialect, clock, pollIntervalMs: 10, ...options });
      runners.push(r);
      return r;
    };
    const row = async (id: number) =>
      database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const count = async () =>
      Number(
        (
          await database.db
            .selectFrom('jobs')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    before(async () => {
      tdb = await freshDatabase(dialect);
      database = open(tdb);
      await migrateToLatest(database);
    });
    beforeEach(async () => {
      // Bounded: a failed test may leave a handler waiting forever; it must not take the next tests with it.
      for (const r of runners.splice(0)) await r.stop({ timeoutMs: 5000 });
      await database.db.deleteFrom('jobs').execute();
      clock = new TestClock();
    });
    after(async () => {
      for (const r of runners.splice(0)) await r.stop({ timeoutMs: 5000 });
      await database?.close();
      await tdb?.drop();
    });

    it('a job enqueued in a transaction that rolls back leaves no row and never runs', async () => {
      const calls: number[] = [];
      await assert.rejects(
        inTransaction(database.db, async (trx) => {
          await enqueue(trx, { queue: 'test.echo', payload: { n: 1 } }, clock.now());
          assert.equal(Number((await trx.selectFrom('jobs').select('id').execute()).length), 1, 'inside: one row');
          throw new Error('the write failed');
        }),
        /the write failed/,
      );
      assert.equal(await count(), 0, 'no job row after the rollback');
      const r = runner({ handlers: { 'test.echo': (job) => void calls.push(job.id) } });
      assert.equal(await r.runDue(), 0);
      assert.deepEqual(calls, []);
    });

    it('a committed job runs exactly once, with its payload decoded once, and is recorded done', async () => {
      const seen: Job<{ n: number; tags: string[] }>[] = [];
      const r = runner({ handlers: { 'test.echo': (job) => void seen.push(job) } });
      const id = await inTransaction(database.db, async (trx) => {
        const id = await enqueue(
          trx,
          { queue: 'test.echo', payload: { n: 7, tags: ['a'] }, tenant: 'c1' },
          clock.now(),
        );
        if (dialect === 'postgres') {
          // Not visible to a runner before the commit (on SQLite the runner would wait for the one connection).
          assert.equal(await r.runDue(), 0, 'nothing claimable before the commit');
        }
        return id;
      });
      r.start();
      r.wake();
      await until(async () => (await row(id)).status === 'done', 'the job to be done');
      await r.stop();
      assert.equal(seen.length, 1, 'the handler ran once');
      assert.equal(seen[0]?.id, id);
      assert.deepEqual(seen[0]?.payload, { n: 7, tags: ['a'] });
      assert.equal(seen[0]?.attempts, 1);
      const done = await row(id);
      assert.equal(done.status, 'done');
      assert.equal(Number(done.attempts), 1);
      assert.equal(Number(done.finished_at), clock.now());
      assert.equal(done.tenant, 'c1');
      assert.equal(done.locked_by, null);
      assert.equal(done.lease_until, null);
      assert.equal(done.last_error, null);
      assert.equal(await r.runDue(), 0, 'nothing left to run');
      assert.equal(seen.length, 1, 'still once');
    });

    it("a handler's recorded writes commit in the transaction that ends its attempt, or not at all", async () => {
      // What a handler records (here a job of a log queue nobody runs) commits with the attempt's outcome.
      const note = (trx: Parameters<Parameters<JobContext['record']>[0]>[0], text: string) =>
        enqueue(trx, { queue: 'test.log', payload: { text } }, clock.now());
      const notes = async () =>
        (await listJobs(database.db, { queue: 'test.log' })).map((j) => (j.payload as { text: string }).text).sort();
      let failRecord = false;
      const r = runner({
        handlers: {
          'test.noted': {
            handle: (job: Job<{ fail: boolean }>, context: JobContext) => {
              context.record((trx) => note(trx, `attempt ${job.attempts} of ${job.id}`));
              if (failRecord) context.record(() => Promise.reject(new Error('the record could not be written')));
              if (job.payload.fail) throw new Error('refused');
            },
            backoff: { baseMs: 60_000 },
          },
        },
      });
      const ok = await enqueue(database.db, { queue: 'test.noted', payload: { fail: false } }, clock.now());
      const ko = await enqueue(database.db, { queue: 'test.noted', payload: { fail: true } }, clock.now());
      assert.equal(await r.runDue(), 2);
      assert.equal((await row(ok)).status, 'done');
      assert.equal((await row(ko)).status, 'pending', 'the failure is retried later');
      assert.equal((await row(ko)).last_error, 'refused');
      assert.deepEqual(
        await notes(),
        [`attempt 1 of ${ok}`, `attempt 1 of ${ko}`],
        'recorded with success and failure',
      );
      // A record that cannot be written takes the outcome with it: the job stays running until its lease expires.
      failRecord = true;
      const lost = await enqueue(database.db, { queue: 'test.noted', payload: { fail: false } }, clock.now());
      assert.equal(await r.runDue(), 1);
      const after = await row(lost);
      assert.equal(after.status, 'running', 'no outcome without its record');
      assert.equal(Number(after.attempts), 1);
      assert.deepEqual(await notes(), [`attempt 1 of ${ok}`, `attempt 1 of ${ko}`], 'nor the first record');
    });

    it('a failed attempt is retried with exponential backoff and full jitter until it succeeds', async () => {
      const backoff = { baseMs: 1000, factor: 2, capMs: 1_000_000 };
      const r = runner({
        random: () => 0.5,
        handlers: {
          'test.flaky': {
            backoff,
            handle: (job) => {
              if (job.attempts < 3) throw new Error(`boom ${job.attempts}`);
            },
          },
        },
      });
      const id = await enqueue(database.db, { queue: 'test.flaky', payload: null }, clock.now());
      const start = clock.now();
      assert.equal(await r.runDue(), 1);
      let state = await row(id);
      assert.equal(state.status, 'pending');
      assert.equal(Number(state.attempts), 1);
      assert.equal(state.last_error, 'boom 1');
      assert.equal(Number(state.run_at), start + 500, 'half of base × factor⁰ (random 0.5)');
      assert.equal(state.locked_by, null);
      clock.advance(499);
      assert.equal(await r.runDue(), 0, 'not due before its backoff');
      clock.advance(1);
      assert.equal(await r.runDue(), 1);
      state = await row(id);
      assert.equal(state.status, 'pending');
      assert.equal(Number(state.attempts), 2);
      assert.equal(state.last_error, 'boom 2');
      assert.equal(Number(state.run_at), clock.now() + 1000, 'half of base × factor¹');
      clock.advance(1000);
      assert.equal(await r.runDue(), 1);
      state = await row(id);
      assert.equal(state.status, 'done');
      assert.equal(Number(state.attempts), 3);
      assert.equal(state.last_error, 'boom 2', 'the last failure stays recorded');
      assert.equal(Number(state.finished_at), clock.now());
      // The cap bounds the wait, however many attempts.
      assert.equal(backoffDelay(40, { baseMs: 1000, factor: 2, capMs: 60_000 }, 0.999), 59_940);
      assert.equal(backoffDelay(1, backoff, 0), 0);
    });

    it('a handler sets its next attempt with RetryJobError or a returned retryAt', async () => {
      const r = runner({
        handlers: {
          'test.hint': (job) => {
            if (job.attempts === 1) throw new RetryJobError('rate limited', clock.now() + 42_000);
            if (job.attempts === 2) return { retryAt: clock.now() + 7000 };
            return undefined;
          },
        },
      });
      const id = await enqueue(database.db, { queue: 'test.hint', payload: {} }, clock.now());
      await r.runDue();
      let state = await row(id);
      assert.equal(Number(state.run_at), clock.now() + 42_000);
      assert.equal(state.last_error, 'RetryJobError: rate limited');
      clock.advance(42_000);
      await r.runDue();
      state = await row(id);
      assert.equal(state.status, 'pending');
      assert.equal(Number(state.run_at), clock.now() + 7000);
      clock.advance(7000);
      await r.runDue();
      state = await row(id);
      assert.equal(state.status, 'done');
      assert.equal(Number(state.attempts), 3);
    });

    it('gives up after its deadline, after its attempts, or at once on a PermanentJobError: failed', async () => {
      const r = runner({
        random: () => 0.99,
        handlers: {
          'test.down': {
            backoff: { baseMs: 4000, factor: 2, capMs: 1_000_000 },
            handle: (job) => {
              throw new Error(`down (attempt ${job.attempts})`);
            },
          },
          'test.gone': () => {
            throw new PermanentJobError('endpoint gone');
          },
        },
      });
      const start = clock.now();
      const byDeadline = await enqueue(
        database.db,
        { queue: 'test.down', payload: 1, giveUpAfterMs: 10_000 },
        clock.now(),
      );
      const byAttempts = await enqueue(database.db, { queue: 'test.down', payload: 2, maxAttempts: 2 }, clock.now());
      const gone = await enqueue(database.db, { queue: 'test.gone', payload: 3 }, clock.now());
      assert.equal(await r.runDue(), 3);
      assert.equal(Number((await row(byDeadline)).run_at), start + 3960, '0.99 × 4000');
      const permanent = await row(gone);
      assert.equal(permanent.status, 'failed');
      assert.equal(Number(permanent.attempts), 1);
      assert.equal(permanent.last_error, 'PermanentJobError: endpoint gone');
      clock.advance(3960);
      assert.equal(await r.runDue(), 2);
      // The next attempt would start at 3960 + 7920 = 11 880 ms, past the 10 000 ms deadline.
      const late = await row(byDeadline);
      assert.equal(late.status, 'failed');
      assert.equal(Number(late.attempts), 2);
      assert.equal(Number(late.finished_at), start + 3960);
      assert.equal(late.last_error, 'down (attempt 2)');
      assert.equal(Number(late.give_up_at), start + 10_000);
      const spent = await row(byAttempts);
      assert.equal(spent.status, 'failed');
      assert.equal(Number(spent.attempts), 2);
      clock.advance(1_000_000);
      assert.equal(await r.runDue(), 0, 'a failed job is never attempted again by itself');
    });

    it('a queue’s onGiveUp runs in the transaction that fails a job for good, and only then', async () => {
      const seen: { payload: unknown; status: string }[] = [];
      const onGiveUp = async (job: Job, trx: Transaction<Tables>) => {
        // In the failing transaction: the job reads as failed there already.
        const { status } = await trx
          .selectFrom('jobs')
          .select('status')
          .where('id', '=', job.id)
          .executeTakeFirstOrThrow();
        seen.push({ payload: job.payload, status });
      };
      const r = runner({
        random: () => 0.99,
        handlers: {
          'test.giveup': {
            backoff: { baseMs: 4000, factor: 2, capMs: 1_000_000 },
            onGiveUp,
            handle: (job) => {
              if (job.payload === 'permanent') throw new PermanentJobError('gone');
              throw new Error('down');
            },
          },
        },
      });
      const twice = await enqueue(database.db, { queue: 'test.giveup', payload: 'twice', maxAttempts: 2 }, clock.now());
      await enqueue(database.db, { queue: 'test.giveup', payload: 'permanent' }, clock.now());
      const dead = await enqueue(database.db, { queue: 'test.giveup', payload: 'dead', maxAttempts: 1 }, clock.now());
      await database.db
        .updateTable('jobs')
        .set({ status: 'running', attempts: 1, locked_by: 'dead-process', lease_until: clock.now() - 1 })
        .where('id', '=', dead)
        .execute();
      await r.runDue();
      assert.deepEqual(
        seen.map((s) => s.payload).sort(),
        ['dead', 'permanent'],
        'a retried attempt does not give up; a permanent error and a dead process’s spent job do',
      );
      assert.equal((await row(twice)).status, 'pending');
      clock.advance(10_000);
      await r.runDue();
      assert.deepEqual(seen.map((s) => s.payload).sort(), ['dead', 'permanent', 'twice']);
      assert.deepEqual(new Set(seen.map((s) => s.status)), new Set(['failed']));
      clock.advance(1_000_000);
      await r.runDue();
      assert.equal(seen.length, 3, 'once per job');
    });

    it('jobs with one ordering key run one at a time in id order, even with concurrency 4', async () => {
      const started: number[] = [];
      const running = new Map<string, number>();
      const overlaps: string[] = [];
      const r = runner({
        concurrency: 4,
        handlers: {
          'test.ordered': async (job: Job<{ key: string | null }>) => {
            const key = job.payload.key ?? `none-${job.id}`;
            running.set(key, (running.get(key) ?? 0) + 1);
            if ((running.get(key) ?? 0) > 1) overlaps.push(`${key} #${job.id}`);
            if (job.payload.key === 'k') started.push(job.id);
            await sleep(15);
            running.set(key, (running.get(key) ?? 0) - 1);
          },
        },
      });
      const keyed: number[] = [];
      const others: number[] = [];
      for (let i = 0; i < 5; i++) {
        keyed.push(
          await enqueue(database.db, { queue: 'test.ordered', payload: { key: 'k' }, orderingKey: 'k' }, clock.now()),
        );
        others.push(await enqueue(database.db, { queue: 'test.ordered', payload: { key: null } }, clock.now()));
      }
      r.start();
      await until(async () => (await listJobs(database.db, { status: 'done', limit: 100 })).length === 10, 'all done');
      await r.stop();
      assert.deepEqual(started, keyed, 'the keyed jobs started in id order');
      assert.deepEqual(overlaps, [], 'no two jobs of one key ran at once');
    });

    it("a key whose head keeps failing holds back only its own jobs, not another key's", async () => {
      const ran: string[] = [];
      const r = runner({
        random: () => 0.5,
        handlers: {
          'test.keys': (job: Job<string>) => {
            ran.push(job.payload);
            if (job.payload === 'a1') throw new Error('a1 fails');
          },
        },
      });
      const a1 = await enqueue(database.db, { queue: 'test.keys', payload: 'a1', orderingKey: 'a' }, clock.now());
      const a2 = await enqueue(database.db, { queue: 'test.keys', payload: 'a2', orderingKey: 'a' }, clock.now());
      const b1 = await enqueue(database.db, { queue: 'test.keys', payload: 'b1', orderingKey: 'b' }, clock.now());
      assert.equal(await r.runDue(), 2);
      assert.deepEqual(ran, ['a1', 'b1']);
      assert.equal((await row(b1)).status, 'done', 'the other key was not delayed');
      const held = await row(a2);
      assert.equal(held.status, 'pending');
      assert.equal(Number(held.attempts), 0, 'a2 waits behind its failing head');
      clock.advance(10_000);
      assert.equal(await r.runDue(), 1, 'only the head is retried');
      assert.equal(Number((await row(a2)).attempts), 0);
      // Once the head is finished (here cancelled), the next job of the key goes.
      assert.equal((await cancelJob(database.db, a1, clock.now()))?.status, 'cancelled');
      assert.equal(await r.runDue(), 1);
      assert.equal((await row(a2)).status, 'done');
      assert.deepEqual(ran, ['a1', 'b1', 'a1', 'a2']);
    });

    it("takes over a running job whose lease expired (a crashed claimer's), counting the lost attempt", async () => {
      const calls: number[] = [];
      const r = runner({ leaseMs: 60_000, handlers: { 'test.lease': (job) => void calls.push(job.id) } });
      const crashed = await enqueue(database.db, { queue: 'test.lease', payload: 'x' }, clock.now());
      const alive = await enqueue(database.db, { queue: 'test.lease', payload: 'y' }, clock.now());
      const spent = await enqueue(database.db, { queue: 'test.lease', payload: 'z', maxAttempts: 1 }, clock.now());
      const claimedBy = (id: number, by: string, leaseUntil: number) =>
        database.db
          .updateTable('jobs')
          .set({ status: 'running', attempts: 1, locked_by: by, lease_until: leaseUntil })
          .where('id', '=', id)
          .execute();
      await claimedBy(crashed, 'dead-process', clock.now() - 1);
      await claimedBy(alive, 'live-process', clock.now() + 30_000);
      await claimedBy(spent, 'dead-process', clock.now() - 1);
      assert.equal(await r.runDue(), 1);
      assert.deepEqual(calls, [crashed]);
      const taken = await row(crashed);
      assert.equal(taken.status, 'done');
      assert.equal(Number(taken.attempts), 2, 'the lost attempt counts');
      assert.match(taken.last_error ?? '', /lease expired during attempt 1/);
      const live = await row(alive);
      assert.equal(live.status, 'running', 'a lease still valid is left alone');
      assert.equal(live.locked_by, 'live-process');
      const none = await row(spent);
      assert.equal(none.status, 'failed', 'no attempt left after the lost one');
      assert.match(none.last_error ?? '', /lease expired during attempt 1 .*; no attempt left/);
      clock.advance(30_000);
      assert.equal(await r.runDue(), 1, 'the other lease expires in its turn');
      assert.deepEqual(calls, [crashed, alive]);
    });

    it('a claimer whose lease was taken over cannot complete the job, and its heartbeat says so', async () => {
      const logA = recorder();
      const releaseA = gate();
      const releaseB = gate();
      let contextA: { heartbeat(): Promise<boolean>; signal: AbortSignal } | undefined;
      const a = runner({
        id: 'runner-a',
        leaseMs: 1000,
        log: logA,
        handlers: {
          'test.slow': async (_job, context) => {
            contextA = context;
            await releaseA.promise;
          },
        },
      });
      const b = runner({ id: 'runner-b', leaseMs: 1000, handlers: { 'test.slow': () => releaseB.promise } });
      const id = await enqueue(database.db, { queue: 'test.slow', payload: {} }, clock.now());
      const aDone = a.runDue();
      await until(() => contextA !== undefined, 'runner A to start the attempt');
      assert.equal((await row(id)).locked_by, 'runner-a');
      assert.equal(await contextA?.heartbeat(), true, 'a heartbeat renews a held lease');
      assert.equal(Number((await row(id)).lease_until), clock.now() + 1000);
      clock.advance(1001);
      const bDone = b.runDue();
      await until(async () => (await row(id)).locked_by === 'runner-b', 'runner B to take the job over');
      releaseA.open();
      await aDone;
      let state = await row(id);
      assert.equal(state.status, 'running', "A's success was not written");
      assert.equal(state.locked_by, 'runner-b');
      assert.equal(Number(state.attempts), 2);
      assert.ok(
        logA.lines.some((l) => l.level === 'warn' && /claim lost/.test(l.message)),
        'runner A logged that its claim was lost',
      );
      assert.equal(await contextA?.heartbeat(), false);
      assert.equal(contextA?.signal.aborted, true);
      releaseB.open();
      await bDone;
      state = await row(id);
      assert.equal(state.status, 'done');
      assert.equal(Number(state.finished_at), clock.now());
    });

    it('the claim reads through indexes: no statement scans the jobs table, whatever the backlog', async (t) => {
      if (dialect !== 'sqlite') {
        // PostgreSQL's planner may rightly scan a table this small; its plans are its own business.
        t.skip('SQLite query plans');
        return;
      }
      // A backlog like a webhook's: many queued jobs behind two keys' heads, finished jobs, and a few unkeyed.
      const keyed: number[] = [];
      for (let i = 0; i < 300; i++) {
        keyed.push(
          await enqueue(database.db, { queue: 'test.plan', payload: {}, orderingKey: `k${i % 2}` }, clock.now()),
        );
      }
      for (let i = 0; i < 5; i++) await enqueue(database.db, { queue: 'test.plan', payload: {} }, clock.now());
      await database.db.updateTable('jobs').set({ status: 'done' }).where('id', 'in', keyed.slice(0, 100)).execute();
      // The claim's statements as SQLite runs them, from a logging handle of our own on the same file (the
      // claim's reads are prepared queries, compiled once: no plugin sees them being built).
      const seen: CompiledQuery[] = [];
      const file = sqlitePath(tdb.env.ATRIUM_DATA_DIR as string);
      const logged = new Kysely<Tables>({
        dialect: new SqliteDialect({ database: new Sqlite(file) }),
        log: (event) => {
          seen.push(event.query);
        },
      });
      t.after(() => logged.destroy());
      const claimed = await claimJobs(logged, {
        dialect,
        queues: ['test.plan'],
        limit: 4,
        now: clock.now(),
        leaseMs: 60_000,
        lockedBy: 'plan-test',
        exhausted: () => false,
      });
      assert.deepEqual(
        claimed.map((j) => j.orderingKey ?? j.id),
        ['k0', 'k1', (keyed.at(-1) as number) + 1, (keyed.at(-1) as number) + 2],
        "the two keys' heads (the 101st and 102nd jobs), then the oldest unkeyed jobs",
      );
      const selects = seen.filter((query) => /^\s*select\b/i.test(query.sql));
      assert.ok(
        selects.length >= 5,
        `the claim's reads were seen: a probe, its three reads and the running count (${selects.length})`,
      );
      for (const query of selects) {
        const plan = await database.db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
        );
        // Scans of the recursive walk (`k`), of a subquery's own rows (`d`, the fair claim's window) and of the
        // partial index of running jobs (a few per process: migration 0042) read no table.
        const scans = plan.rows
          .map((r) => r.detail)
          .filter((d) => /^SCAN (?!k\b|d\b|\(subquery-\d+\)|j USING (COVERING )?INDEX jobs_running_tenant\b)/.test(d));
        assert.deepEqual(scans, [], `no table scan in: ${query.sql}`);
      }
    });

    it('lists, gets, retries and cancels jobs', async () => {
      const r = runner({
        handlers: {
          'test.admin': (job: Job<number>) => {
            if (job.payload === 1 && job.attempts === 1) throw new PermanentJobError('no');
          },
        },
      });
      const ids: number[] = [];
      for (let i = 1; i <= 4; i++) {
        ids.push(
          await enqueue(
            database.db,
            { queue: 'test.admin', payload: i, tenant: i % 2 ? 'odd' : 'even', runAt: clock.now() + (i === 4 ? 1 : 0) },
            clock.now(),
          ),
        );
      }
      const [one, two, three, four] = ids as [number, number, number, number];
      assert.equal((await cancelJob(database.db, three, clock.now()))?.status, 'cancelled');
      assert.equal(await cancelJob(database.db, three, clock.now()), undefined, 'already finished');
      assert.equal(await r.runDue(), 2);
      assert.deepEqual(
        (await listJobs(database.db, { tenant: 'odd' })).map((j) => [j.id, j.status]),
        [
          [three, 'cancelled'],
          [one, 'failed'],
        ],
      );
      assert.deepEqual(
        (await listJobs(database.db, { status: ['pending', 'done'] })).map((j) => j.id),
        [four, two],
      );
      assert.deepEqual(
        (await listJobs(database.db, { queue: 'test.admin', beforeId: three, limit: 1 })).map((j) => j.id),
        [two],
      );
      const got = await getJob<number>(database.db, one);
      assert.equal(got?.payload, 1);
      assert.equal(got?.lastError, 'PermanentJobError: no');
      assert.equal(await getJob(database.db, 999_999), undefined);
      assert.equal(await retryJob(database.db, two, clock.now()), undefined, 'a done job is not retried');
      assert.equal(await retryJob(database.db, four, clock.now()), undefined, 'a pending job is not retried');
      assert.equal((await row(four)).status, 'pending');
      const retried = await retryJob(database.db, one, clock.now());
      assert.equal(retried?.status, 'pending');
      assert.equal(retried?.finishedAt, null);
      assert.equal(await r.runDue(), 1);
      assert.equal((await row(one)).status, 'done');
      assert.equal(Number((await row(one)).attempts), 2);
    });

    if (dialect === 'postgres') {
      it('enqueuers of one ordering key take their ids in commit order (the key is locked until commit)', async () => {
        const events: string[] = [];
        const hold = gate();
        const first = inTransaction(database.db, async (trx) => {
          const id = await enqueue(trx, { queue: 'test.order', payload: 1, orderingKey: 'w' }, clock.now());
          events.push('first enqueued');
          await hold.promise;
          events.push('first commits');
          return id;
        });
        await until(() => events.length === 1, 'the first enqueue');
        const second = enqueue(database.db, { queue: 'test.order', payload: 2, orderingKey: 'w' }, clock.now()).then(
          (id) => {
            events.push('second enqueued');
            return id;
          },
        );
        // However long the first transaction stays open, the second waits for it.
        await sleep(300);
        hold.open();
        const [a, b] = await Promise.all([first, second]);
        assert.deepEqual(events, ['first enqueued', 'first commits', 'second enqueued']);
        assert.ok(a < b, `ids ${a} < ${b}`);
      });
    }

    it('two runners on separate connections run each of 300 jobs exactly once, keys in order', async () => {
      // On SQLite both connections live in this one process, whose event loop a connection waiting for the write
      // lock blocks (better-sqlite3 is synchronous): when the other holds it across an await, the wait lasts the
      // busy timeout and the transaction is retried. Slower than two processes (test/heavy/jobs-kill), same
      // outcome.
      const other = open(tdb);
      try {
        const calls = new Map<number, number>();
        const starts = new Map<string, number[]>();
        const running = new Map<string, number>();
        const overlaps: string[] = [];
        const handle = async (job: Job<{ key: string | null }>) => {
          calls.set(job.id, (calls.get(job.id) ?? 0) + 1);
          const key = job.orderingKey;
          if (key !== null) {
            starts.set(key, [...(starts.get(key) ?? []), job.id]);
            running.set(key, (running.get(key) ?? 0) + 1);
            if ((running.get(key) ?? 0) > 1) overlaps.push(`${key} #${job.id}`);
          }
          await sleep(job.id % 3);
          if (key !== null) running.set(key, (running.get(key) ?? 0) - 1);
        };
        const ids: number[] = [];
        const keyed = new Map<string, number[]>();
        await inTransaction(database.db, async (trx) => {
          for (let i = 0; i < 300; i++) {
            const key = i % 2 === 0 ? `key-${i % 20}` : null;
            const id = await enqueue(trx, { queue: 'test.many', payload: { key }, orderingKey: key });
            ids.push(id);
            if (key) keyed.set(key, [...(keyed.get(key) ?? []), id]);
          }
        });
        const r1 = new JobRunner({
          db: database.db,
          dialect,
          concurrency: 4,
          pollIntervalMs: 5,
          handlers: { 'test.many': handle },
        });
        const r2 = new JobRunner({
          db: other.db,
          dialect,
          concurrency: 4,
          pollIntervalMs: 5,
          handlers: { 'test.many': handle },
        });
        r1.start();
        r2.start();
        try {
          await until(
            async () => (await listJobs(database.db, { status: 'done', limit: 1000 })).length === 300,
            'all 300 jobs done',
            120_000,
          );
        } finally {
          await Promise.all([r1.stop(), r2.stop()]);
        }
        assert.equal(calls.size, 300);
        assert.deepEqual(
          ids.filter((id) => calls.get(id) !== 1),
          [],
          'jobs run other than exactly once',
        );
        assert.deepEqual(overlaps, [], 'no two jobs of one key ran at once');
        for (const [key, order] of keyed) assert.deepEqual(starts.get(key), order, `${key} in id order`);
        const attempts = await database.db.selectFrom('jobs').select('attempts').where('attempts', '<>', 1).execute();
        assert.deepEqual(attempts, [], 'every job took one attempt');
      } finally {
        await other.close();
      }
    });
  });
}
