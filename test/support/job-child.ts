/**
 * A job runner in a process of its own, for test/heavy/jobs-kill.test.ts: runs the `test.effect` queue on
 * the database of its environment (DATABASE_URL, else SQLite in ATRIUM_DATA_DIR) until killed. Each attempt appends
 * `<job id>\n` to JOB_EFFECTS (its effect, done before the outcome is written), then takes JOB_SLEEP_MS.
 */
import fs from 'node:fs';
import { openDatabase } from '../../src/platform/db/database.js';
import { JobRunner } from '../../src/platform/jobs/index.js';

const effects = process.env.JOB_EFFECTS as string;
const sleepMs = Number(process.env.JOB_SLEEP_MS ?? 20);
const database = openDatabase({
  dataDir: process.env.ATRIUM_DATA_DIR as string,
  databaseUrl: process.env.DATABASE_URL || undefined,
  dbPoolSize: 4,
});
const runner = new JobRunner({
  db: database.db,
  dialect: database.dialect,
  concurrency: 4,
  pollIntervalMs: 20,
  leaseMs: Number(process.env.JOB_LEASE_MS ?? 500),
  handlers: {
    'test.effect': async (job) => {
      fs.appendFileSync(effects, `${job.id}\n`);
      await new Promise((resolve) => setTimeout(resolve, sleepMs));
    },
  },
  log: {
    info() {},
    warn() {},
    error(fields, message) {
      process.stderr.write(`${message} ${JSON.stringify(fields)}\n`);
    },
  },
});
runner.start();
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void runner.stop().then(() => database.close().then(() => process.exit(0)));
});
