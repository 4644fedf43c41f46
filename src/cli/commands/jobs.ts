/** `atrium jobs …`: list, show, retry and cancel durable background jobs (cli/jobs.ts). */
import { type Command, InvalidArgumentError } from 'commander';
import type { JobsRequest } from '../jobs.js';
import { announce, command, examples, integerIn, nonEmpty, output, settings } from './shared.js';

const jobId = integerIn(1, 999_999_999, 'a job id (a positive integer)');

const JOB_STATUSES = ['pending', 'running', 'done', 'failed', 'cancelled'] as const;
type JobStatus = (typeof JOB_STATUSES)[number];

function jobStatus(value: string): JobStatus {
  if (!(JOB_STATUSES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`must be one of ${JOB_STATUSES.join(', ')}`);
  }
  return value as JobStatus;
}

/** `atrium jobs …`: platform/jobs/ over the configured database (cli/jobs.ts). */
async function jobsCommand(json: boolean, request: JobsRequest): Promise<void> {
  const config = settings();
  await announce(config, json);
  const { runJobsCommand } = await import('../jobs.js');
  const { data, text } = await runJobsCommand(config, request);
  output(json, data, text);
}

export function addJobsCommands(program: Command): void {
  const jobs = command(program, 'jobs', '<command> [options]', 'durable background jobs (docs/SCALING.md)')
    .helpCommand(false)
    .addHelpText('after', examples('atrium jobs list --status failed', 'atrium jobs retry 42'));

  command(
    jobs,
    'list',
    '[--queue Q] [--tenant T] [--status S] [--before ID] [--limit N] [--json]',
    'jobs, newest first',
  )
    .option('--queue <Q>', 'only this queue (webhook.delivery, …)', nonEmpty)
    .option('--tenant <T>', 'only this client or academy', nonEmpty)
    .option('--status <S>', 'only this status: pending, running, done, failed or cancelled', jobStatus)
    .option('--before <ID>', 'only jobs older than this id (the next page)', jobId)
    .option('--limit <N>', 'at most N jobs (default 50, at most 1000)', integerIn(1, 1000, 'from 1 to 1000'))
    .option('--json', 'print {"jobs": [{id, queue, tenant, status, attempts, run_at, last_error, …}]}')
    .addHelpText(
      'after',
      examples('atrium jobs list', 'atrium jobs list --status failed --queue webhook.delivery --json'),
    )
    .action(
      async (options: {
        queue?: string;
        tenant?: string;
        status?: JobStatus;
        before?: number;
        limit?: number;
        json?: boolean;
      }) => {
        const json = options.json === true;
        const filter = {
          ...(options.queue === undefined ? {} : { queue: options.queue }),
          ...(options.tenant === undefined ? {} : { tenant: options.tenant }),
          ...(options.status === undefined ? {} : { status: options.status }),
          ...(options.before === undefined ? {} : { beforeId: options.before }),
          ...(options.limit === undefined ? {} : { limit: options.limit }),
        };
        await jobsCommand(json, { command: 'list', filter });
      },
    );

  const one = [
    ['show', 'one job, with its payload'],
    ['retry', 'make a failed or cancelled job pending again, due now (one more attempt)'],
    ['cancel', 'cancel a pending or running job'],
  ] as const;
  for (const [name, description] of one) {
    command(jobs, name, '<id> [--json]', description)
      .argument('<id>', 'the job id', jobId)
      .option('--json', 'print {"job": {id, queue, status, attempts, …}}')
      .addHelpText('after', examples(`atrium jobs ${name} 42`))
      .action(async (id: number, options: { json?: boolean }) => {
        await jobsCommand(options.json === true, { command: name, id });
      });
  }
}
