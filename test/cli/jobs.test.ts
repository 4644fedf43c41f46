/**
 * `atrium jobs list | show | retry | cancel` (src/cli/jobs.ts), run in-process against both databases: what each
 * prints and what it changes in the `jobs` table. Help and usage errors are checked in usage.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runJobsCommand } from '../../src/cli/jobs.js';
import { type Config, loadConfig } from '../../src/platform/config.js';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { enqueue, getJob } from '../../src/platform/jobs/index.js';
import { dialects, freshDatabase, type TestDatabase } from '../support/harness.js';

for (const dialect of dialects()) {
  describe(`atrium jobs (${dialect})`, () => {
    let tdb: TestDatabase;
    let config: Config;
    let database: Database;
    const ids: number[] = [];

    before(async () => {
      tdb = await freshDatabase(dialect);
      config = loadConfig({ ...tdb.env });
      database = openDatabase(config);
      await migrateToLatest(database);
      for (let i = 0; i < 3; i++) {
        ids.push(
          await enqueue(database.db, {
            queue: i === 2 ? 'other.queue' : 'webhook.delivery',
            payload: { n: i },
            tenant: 'client-1',
          }),
        );
      }
      await database.db
        .updateTable('jobs')
        .set({ status: 'failed', attempts: 3, last_error: 'HTTP 500\nbody', finished_at: Date.now() })
        .where('id', '=', ids[0] as number)
        .execute();
    });
    /**
     * The row as the command left it. The command writes through a connection of its own; on SQLite this one's
     * reads share a snapshot for a turn of the event loop (platform/db/database.ts, ReadBatch): let one pass.
     */
    const job = async (id: number) => {
      await new Promise((resolve) => setImmediate(resolve));
      return getJob(database.db, id);
    };
    after(async () => {
      await database?.close();
      await tdb?.drop();
    });

    it('list filters by queue and status, newest first, without payloads', async () => {
      const all = await runJobsCommand(config, { command: 'list', filter: {} });
      assert.deepEqual(
        (all.data as { jobs: { id: number }[] }).jobs.map((j) => j.id),
        [...ids].reverse(),
      );
      const failed = await runJobsCommand(config, {
        command: 'list',
        filter: { queue: 'webhook.delivery', status: 'failed' },
      });
      const jobs = (failed.data as { jobs: Record<string, unknown>[] }).jobs;
      assert.equal(jobs.length, 1);
      assert.equal(jobs[0]?.id, ids[0]);
      assert.equal(jobs[0]?.last_error, 'HTTP 500\nbody');
      assert.equal(jobs[0]?.payload, undefined, 'no payload in a listing');
      assert.match(String(jobs[0]?.created_at), /^\d{4}-\d\d-\d\dT/);
      assert.match(
        failed.text,
        new RegExp(`^${ids[0]}  webhook.delivery  failed  attempts 3  run at .*  last error: HTTP 500$`),
      );
    });

    it('show prints one job with its payload; an unknown id is a one-line failure', async () => {
      const shown = await runJobsCommand(config, { command: 'show', id: ids[1] as number });
      assert.deepEqual((shown.data as { job: { payload: unknown } }).job.payload, { n: 1 });
      await assert.rejects(runJobsCommand(config, { command: 'show', id: 999_999 }), /no job 999999/);
    });

    it('retry makes a failed job pending again; cancel cancels a pending one; both refuse other states', async () => {
      const [failed, pending] = ids as [number, number];
      const retried = await runJobsCommand(config, { command: 'retry', id: failed });
      assert.equal(retried.text, `job ${failed} is pending again`);
      const row = await job(failed);
      assert.equal(row?.status, 'pending');
      assert.equal(row?.finishedAt, null);
      assert.equal(row?.attempts, 3, 'its attempts are kept');

      await runJobsCommand(config, { command: 'cancel', id: pending });
      assert.equal((await job(pending))?.status, 'cancelled');
      await assert.rejects(
        runJobsCommand(config, { command: 'cancel', id: pending }),
        /job \d+ is cancelled: only a pending or running job can be cancelled/,
      );
      await database.db.updateTable('jobs').set({ status: 'done' }).where('id', '=', pending).execute();
      await assert.rejects(
        runJobsCommand(config, { command: 'retry', id: pending }),
        /job \d+ is done: only a failed or cancelled job can be retried/,
      );
    });

    it('retry refuses a pending job and leaves it due when it was (it does not run early)', async () => {
      const later = Date.now() + 15 * 86_400_000;
      const waiting = await enqueue(database.db, { queue: 'other.queue', payload: { n: 9 }, runAt: later });
      const before = await job(waiting);
      assert.equal(before?.status, 'pending');
      assert.equal(before?.runAt, later);
      await assert.rejects(runJobsCommand(config, { command: 'retry', id: waiting }), {
        name: 'CliError',
        exitCode: 1,
        message: `job ${waiting} is pending: only a failed or cancelled job can be retried`,
      });
      const afterwards = await job(waiting);
      assert.equal(afterwards?.status, 'pending');
      assert.equal(afterwards?.runAt, later, 'still due in 15 days');
      assert.equal(afterwards?.updatedAt, before?.updatedAt);
      assert.equal(afterwards?.attempts, 0);
    });
  });
}
