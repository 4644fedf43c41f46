/**
 * `atrium jobs list | show | retry | cancel`: the durable background jobs (platform/jobs/, docs/SCALING.md
 * "Background jobs"), read and changed in the database the settings name. Imported only when one of them runs.
 */
import type { Config } from '../platform/config.js';
import { openDatabase } from '../platform/db/database.js';
import { migrateToLatest } from '../platform/db/migrate.js';
import { cancelJob, getJob, type Job, type JobFilter, listJobs, retryJob } from '../platform/jobs/index.js';
import { wallClock } from '../platform/time.js';
import { CliError } from './failure.js';

export type JobsRequest = { command: 'list'; filter: JobFilter } | { command: 'show' | 'retry' | 'cancel'; id: number };

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A job as the command prints it (instants in ISO 8601); the payload only when asked (`show`). */
function wire(job: Job, withPayload: boolean): Record<string, unknown> {
  return {
    id: job.id,
    queue: job.queue,
    tenant: job.tenant,
    ordering_key: job.orderingKey,
    status: job.status,
    attempts: job.attempts,
    max_attempts: job.maxAttempts,
    give_up_at: iso(job.giveUpAt),
    run_at: iso(job.runAt),
    lease_until: iso(job.leaseUntil),
    locked_by: job.lockedBy,
    last_error: job.lastError,
    created_at: iso(job.createdAt),
    updated_at: iso(job.updatedAt),
    finished_at: iso(job.finishedAt),
    ...(withPayload ? { payload: job.payload } : {}),
  };
}

function line(job: Job): string {
  const error = job.lastError ? `  last error: ${job.lastError.split('\n')[0]}` : '';
  return `${job.id}  ${job.queue}  ${job.status}  attempts ${job.attempts}  run at ${iso(job.runAt)}${error}`;
}

/** Runs one jobs command; returns its JSON document and its human-readable text. */
export async function runJobsCommand(config: Config, request: JobsRequest): Promise<{ data: object; text: string }> {
  const database = openDatabase(config);
  try {
    await migrateToLatest(database);
    const db = database.db;
    if (request.command === 'list') {
      const jobs = await listJobs(db, request.filter);
      return {
        data: { jobs: jobs.map((job) => wire(job, false)) },
        text: jobs.length === 0 ? 'no jobs' : jobs.map(line).join('\n'),
      };
    }
    const { id } = request;
    const before = await getJob(db, id);
    if (!before) throw new CliError(`no job ${id}`);
    if (request.command === 'show') {
      return { data: { job: wire(before, true) }, text: JSON.stringify(wire(before, true), null, 2) };
    }
    const changed =
      request.command === 'retry' ? await retryJob(db, id, wallClock()) : await cancelJob(db, id, wallClock());
    if (!changed) {
      const rule =
        request.command === 'retry'
          ? 'only a failed or cancelled job can be retried'
          : 'only a pending or running job can be cancelled';
      throw new CliError(`job ${id} is ${before.status}: ${rule}`);
    }
    return {
      data: { job: wire(changed, false) },
      text: request.command === 'retry' ? `job ${id} is pending again` : `job ${id} cancelled`,
    };
  } finally {
    await database.close();
  }
}
