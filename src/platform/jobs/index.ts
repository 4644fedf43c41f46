/**
 * Durable background jobs (docs/SCALING.md, "Background jobs"): `enqueue` in the transaction of the write that
 * causes a job, a `JobRunner` in each server process to run them, and plain functions over the table.
 */
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { JobRunner, type JobRunnerOptions } from './runner.js';

export { trimBacklog } from './backlog.js';
export {
  type Backoff,
  backoffDelay,
  DEFAULT_BACKOFF,
  DEFAULT_LEASE_MS,
  DEFAULT_MAX_ATTEMPTS,
  type JobContext,
  type JobHandler,
  type JobLog,
  JobRunner,
  type JobRunnerOptions,
  PermanentJobError,
  type QueueOptions,
  type RetryHint,
  RetryJobError,
} from './runner.js';
export {
  cancelJob,
  enqueue,
  getJob,
  type Job,
  type JobFilter,
  type JobStatus,
  type JobsDb,
  listJobs,
  type NewJob,
  pruneJobs,
  retryJob,
} from './store.js';

/**
 * A runner over the server's database with the configured concurrency and poll interval: the integration calls
 * `start()` once the server listens and `stop()` before the database closes, and `wake()` after committing an
 * enqueue. Nothing creates one yet: no queue has a handler.
 */
export function createJobRunner(
  database: Pick<Database, 'db' | 'dialect'>,
  config: Pick<Config, 'jobConcurrency' | 'jobPollMs'> & Partial<Pick<Config, 'jobSlotsPerTenant'>>,
  options: Omit<JobRunnerOptions, 'db' | 'dialect' | 'concurrency' | 'pollIntervalMs' | 'slotsPerTenant'>,
): JobRunner {
  return new JobRunner({
    ...options,
    db: database.db,
    dialect: database.dialect,
    concurrency: config.jobConcurrency,
    ...(config.jobSlotsPerTenant === undefined ? {} : { slotsPerTenant: config.jobSlotsPerTenant }),
    pollIntervalMs: config.jobPollMs,
  });
}
