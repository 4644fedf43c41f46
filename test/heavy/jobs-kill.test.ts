/**
 * A job runner's process killed with SIGKILL in the middle of its jobs (src/platform/jobs/): another process
 * takes over the jobs it left running once their leases expire, every job ends done, and only the attempts cut
 * short by the kill ran twice (at least once, never lost). The jobs of an ordering key still start in id order.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { enqueue } from '../../src/platform/jobs/index.js';
import { dialects, freshDatabase, sleep, type TestDatabase } from '../support/harness.js';
import { ROOT } from '../support/root.js';

const CHILD = path.join(ROOT, 'test/support/job-child.ts');

interface Child {
  process: ChildProcess;
  exited: Promise<void>;
}

async function startChild(env: Record<string, string>): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: ROOT,
    env: { ...process.env, ...env, DATABASE_URL: env.DATABASE_URL ?? '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += String(chunk);
      if (out.includes('ready\n')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the job runner process exited (${code}) before it was ready`)));
  });
  return { process: child, exited };
}

async function until(check: () => Promise<boolean> | boolean, what: string, boundMs = 60_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > boundMs) assert.fail(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

for (const dialect of dialects()) {
  describe(`a job runner killed with SIGKILL (${dialect})`, () => {
    let tdb: TestDatabase;
    let database: Database;
    const children: Child[] = [];

    before(async () => {
      tdb = await freshDatabase(dialect);
      database = openDatabase({
        dataDir: tdb.env.ATRIUM_DATA_DIR as string,
        databaseUrl: tdb.env.DATABASE_URL,
        dbPoolSize: 4,
      });
      await migrateToLatest(database);
    });
    after(async () => {
      for (const child of children) child.process.kill('SIGKILL');
      await Promise.all(children.map((c) => c.exited));
      await database?.close();
      await tdb?.drop();
    });

    it('another process takes over its jobs after the lease; every job is done, the cut attempts ran twice', async () => {
      const effects = path.join(tdb.env.ATRIUM_DATA_DIR as string, 'effects.txt');
      fs.writeFileSync(effects, '');
      const env = { ...tdb.env, JOB_EFFECTS: effects, JOB_SLEEP_MS: '50', JOB_LEASE_MS: '1000' };
      const keyed: number[] = [];
      const all: number[] = [];
      for (let i = 0; i < 80; i++) {
        const key = i % 4 === 0 ? 'k' : null;
        const id = await enqueue(database.db, { queue: 'test.effect', payload: { i }, orderingKey: key });
        all.push(id);
        if (key) keyed.push(id);
      }
      const lines = () =>
        fs
          .readFileSync(effects, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => Number(line));

      const first = await startChild(env);
      children.push(first);
      await until(() => lines().length >= 20, 'the first process to run 20 jobs');
      first.process.kill('SIGKILL');
      await first.exited;
      const cut = (await database.db.selectFrom('jobs').select('id').where('status', '=', 'running').execute()).map(
        (r) => Number(r.id),
      );
      assert.ok(cut.length > 0, 'the kill left jobs running');

      const second = await startChild(env);
      children.push(second);
      await until(
        async () =>
          (await database.db.selectFrom('jobs').select('id').where('status', '<>', 'done').execute()).length === 0,
        'every job to be done',
      );
      second.process.kill('SIGTERM');
      await second.exited;

      const ran = lines();
      const times = new Map<number, number>();
      for (const id of ran) times.set(id, (times.get(id) ?? 0) + 1);
      assert.deepEqual(
        all.filter((id) => !times.has(id)),
        [],
        'every job ran',
      );
      const twice = [...times].filter(([, n]) => n > 1).map(([id]) => id);
      assert.deepEqual(
        twice.filter((id) => !cut.includes(id)),
        [],
        'only the attempts cut by the kill ran again',
      );
      assert.ok(
        [...times.values()].every((n) => n <= 2),
        'no job ran more than twice',
      );
      const rows = await database.db.selectFrom('jobs').select(['id', 'attempts', 'status']).execute();
      for (const row of rows) {
        const id = Number(row.id);
        assert.equal(row.status, 'done');
        assert.equal(Number(row.attempts), cut.includes(id) ? 2 : 1, `attempts of job ${id}`);
      }
      // The key's jobs started in id order; one cut by the kill started again before the next one.
      const keyedRuns = ran.filter((id) => keyed.includes(id));
      assert.deepEqual(
        keyedRuns.filter((id, i) => i === 0 || id !== keyedRuns[i - 1]),
        keyed,
        'the keyed jobs in id order',
      );
    });
  });
}
