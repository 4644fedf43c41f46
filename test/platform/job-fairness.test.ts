/**
 * The fair claim (src/platform/jobs/fair.ts; docs/SCALING.md, "Background jobs") on both databases: free slots go
 * to the tenant with the fewest jobs running, in every process, then to the job due longest, so a tenant with a
 * long backlog cannot hold back another's job, and a retried job queues behind work that became due before it.
 * Time is a test clock moved by hand; the assertions read the claims and the `jobs` rows, never a duration.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { claimJobs } from '../../src/platform/jobs/claim.js';
import { enqueue, type Job, JobRunner, RetryJobError } from '../../src/platform/jobs/index.js';
import { dialects, freshDatabase, type TestDatabase } from '../support/harness.js';

const T0 = Date.UTC(2026, 0, 1);
const QUEUE = 'test.fair';

for (const dialect of dialects()) {
  describe(`fair job claims (${dialect})`, () => {
    let tdb: TestDatabase;
    let database: Database;
    let now = T0;

    const claim = (limit: number, lockedBy = 'runner-1') =>
      claimJobs(database.db, {
        dialect,
        queues: [QUEUE],
        limit,
        now,
        leaseMs: 60_000,
        lockedBy,
        exhausted: () => false,
      });
    const add = (tenant: string | null, extra: { orderingKey?: string; runAt?: number } = {}) =>
      enqueue(database.db, { queue: QUEUE, tenant, payload: { tenant }, ...extra }, now);
    const tenants = (jobs: Job[]) => jobs.map((j) => j.tenant);

    before(async () => {
      tdb = await freshDatabase(dialect);
      database = openDatabase({
        dataDir: tdb.env.ATRIUM_DATA_DIR as string,
        databaseUrl: tdb.env.DATABASE_URL,
        dbPoolSize: 4,
      });
      await migrateToLatest(database);
    });
    beforeEach(async () => {
      await database.db.deleteFrom('jobs').execute();
      now = T0;
    });
    after(async () => {
      await database?.close();
      await tdb?.drop();
    });

    it("tenant B's one job is claimed in the first round, though tenant A queued 30 before it", async () => {
      for (let i = 0; i < 30; i++) await add('A');
      now += 1;
      const b = await add('B');
      now += 1;
      const first = await claim(2);
      assert.deepEqual(tenants(first), ['A', 'B'], "one slot each: A's oldest, then B's");
      assert.equal(first[1]?.id, b);
      // One slot at a time (a runner whose attempts end one by one): B's job ends and B queues another; it is
      // next, though A's have waited longer, as A runs one and B none.
      await database.db.updateTable('jobs').set({ status: 'done', locked_by: null }).where('id', '=', b).execute();
      const b2 = await add('B');
      const next = await claim(1);
      assert.equal(next[0]?.id, b2, 'B runs none now, A one: the slot is B’s');
      // With no other tenant due, A takes every slot.
      const rest = await claim(4);
      assert.deepEqual(tenants(rest), ['A', 'A', 'A', 'A']);
      const running = await database.db
        .selectFrom('jobs')
        .select(['tenant', (eb) => eb.fn.countAll<number>().as('n')])
        .where('status', '=', 'running')
        .groupBy('tenant')
        .orderBy('tenant')
        .execute();
      assert.deepEqual(
        running.map((r) => [r.tenant, Number(r.n)]),
        [
          ['A', 5],
          ['B', 1],
        ],
      );
    });

    it('round-robin within one claim: three tenants share six slots two each, the server’s own jobs as a tenant', async () => {
      for (let i = 0; i < 10; i++) await add('A');
      for (let i = 0; i < 10; i++) await add(null);
      for (let i = 0; i < 10; i++) await add('C');
      const claimed = await claim(6);
      assert.deepEqual(tenants(claimed), ['A', null, 'C', 'A', null, 'C']);
    });

    it("jobs running in another process count against their tenant's share", async () => {
      for (let i = 0; i < 6; i++) await add('A');
      // Another process holds three of A's jobs.
      assert.deepEqual(tenants(await claim(3, 'runner-2')), ['A', 'A', 'A']);
      now += 1000;
      await add('B');
      await add('B');
      // A's remaining jobs have waited longer, but A runs 3 and B none: the first two slots are B's.
      assert.deepEqual(tenants(await claim(4, 'runner-1')), ['B', 'B', 'A', 'A']);
    });

    it("the heads of ordering keys are shared the same way: one tenant's 20 webhooks do not hold back another's", async () => {
      for (let i = 0; i < 20; i++) {
        for (let j = 0; j < 3; j++) await add('A', { orderingKey: `webhook:a${i}` });
      }
      now += 1;
      const b = await add('B', { orderingKey: 'webhook:b' });
      const claimed = await claim(4);
      assert.deepEqual(tenants(claimed), ['A', 'B', 'A', 'A']);
      assert.equal(claimed[1]?.id, b);
    });

    it("a retried job does not jump ahead of another tenant's job that became due before its retry", async () => {
      let fail = true;
      const runner = new JobRunner({
        db: database.db,
        dialect,
        clock: { now: () => now },
        handlers: {
          [QUEUE]: () => {
            if (fail) throw new RetryJobError('receiver down', now + 1000);
          },
        },
      });
      const a = await add('A');
      assert.equal(await runner.runDue(), 1);
      const retried = await database.db.selectFrom('jobs').selectAll().where('id', '=', a).executeTakeFirstOrThrow();
      assert.equal(retried.status, 'pending');
      assert.equal(Number(retried.run_at), T0 + 1000);
      // B's job is enqueued after A's (a larger id) but is due before A's retry.
      now += 500;
      const b = await add('B');
      now += 1500;
      fail = false;
      const claimed = await claim(1);
      assert.equal(claimed[0]?.id, b, "B's job has been due since T0+500, A's retry only since T0+1000");
      assert.deepEqual(tenants(await claim(1)), ['A']);
    });

    it('a tenant holds at most its share of a runner’s slots: the slot left over runs another tenant’s job while its own hang', async () => {
      const release: (() => void)[] = [];
      const started: (string | null)[] = [];
      let bRan: () => void = () => {};
      const bDone = new Promise<void>((resolve) => {
        bRan = resolve;
      });
      const runner = new JobRunner({
        db: database.db,
        dialect,
        clock: { now: () => now },
        concurrency: 4,
        pollIntervalMs: 5,
        handlers: {
          [QUEUE]: (job: Job<{ tenant: string | null }>) => {
            started.push(job.tenant);
            if (job.tenant === 'B') {
              bRan();
              return;
            }
            // A's deliveries hang (a receiver that never answers) until the test lets them go.
            return new Promise<void>((resolve) => release.push(resolve));
          },
        },
      });
      for (let i = 0; i < 10; i++) await add('A');
      runner.start();
      try {
        while (started.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
        // Give the runner more polls: A still gets no fourth slot.
        for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 5));
        assert.deepEqual(started, ['A', 'A', 'A'], 'A holds three of the four slots, one fewer than the runner has');
        assert.equal(runner.running, 3);
        await add('B');
        runner.wake();
        await bDone;
        assert.deepEqual(started, ['A', 'A', 'A', 'B'], "B's job ran while every one of A's was still hanging");
        const running = await database.db
          .selectFrom('jobs')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', 'running')
          .where('tenant', '=', 'A')
          .executeTakeFirstOrThrow();
        assert.equal(Number(running.n), 3);
      } finally {
        for (const r of release) r();
        const stopping = runner.stop();
        // Jobs claimed as A's first three ended may hang too: let them go as they start.
        const drain = setInterval(() => {
          for (const r of release.splice(0)) r();
        }, 5);
        await stopping;
        clearInterval(drain);
      }
    });

    it('the share is a setting: at the runner’s concurrency one tenant takes every slot; the claim counts what the runner holds', async () => {
      for (let i = 0; i < 6; i++) await add('A');
      await add('B');
      const share = { max: 3, held: new Map<string | null, number>([['A', 2]]) };
      const claimed = await claimJobs(database.db, {
        dialect,
        queues: [QUEUE],
        limit: 4,
        now,
        leaseMs: 60_000,
        lockedBy: 'runner-1',
        share,
        exhausted: () => false,
      });
      assert.deepEqual(tenants(claimed), ['A', 'B'], 'A holds two of its three already: one more, then B; no third');
      await database.db.deleteFrom('jobs').execute();
      for (let i = 0; i < 4; i++) await add('A');
      let peak = 0;
      const counting = new JobRunner({
        db: database.db,
        dialect,
        clock: { now: () => now },
        concurrency: 4,
        slotsPerTenant: 4,
        handlers: {
          [QUEUE]: async () => {
            await new Promise((resolve) => setImmediate(resolve));
            peak = Math.max(peak, counting.running);
          },
        },
      });
      assert.equal(await counting.runDue(), 4);
      assert.equal(peak, 4, 'all four of A’s jobs ran at once');
    });
  });
}
