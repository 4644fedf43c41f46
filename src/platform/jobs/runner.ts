/**
 * The job runner: polls the `jobs` table, claims due jobs (store.ts, `claimJobs`) up to its concurrency, runs each
 * one's handler, and writes how the attempt ended, only while its claim still holds. Jobs are delivered at least
 * once: an attempt whose process dies is taken over when its lease expires, so a handler must tolerate running
 * twice (an idempotency key on what it sends). docs/SCALING.md, "Background jobs".
 */
import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { DialectName } from '../db/database.js';
import type { Tables } from '../db/schema.js';
import { inLightTransaction } from '../db/transaction.js';
import { wallClock } from '../time.js';
import { claimJobs } from './claim.js';
import { type Claim, completeJob, failJob, type Job, renewLease } from './store.js';

/** What a handler may use while it runs. */
export interface JobContext {
  /** Aborted when the attempt's claim is lost (a heartbeat found the lease taken over, or the job cancelled). */
  signal: AbortSignal;
  /**
   * Extends the lease by the runner's `leaseMs` from now; a handler that may run longer than the lease calls it
   * regularly. False when the claim was lost: the handler should stop, its result will be discarded.
   */
  heartbeat(): Promise<boolean>;
  /** How long a lease holds (ms): a handler renewing it on a timer does so a few times per lease, not more. */
  leaseMs: number;
  /**
   * Queues writes that describe this attempt (what it sent, what came back) to run in the transaction that ends
   * it: its completion, its retry or its failure. The handler's record and the job's new status then commit
   * together, in one commit instead of two. They run even when the claim was lost (the attempt happened), and are
   * lost with the outcome if that transaction fails, in which case the lease expires and the job runs again.
   */
  record(write: (trx: Transaction<Tables>) => Promise<unknown>): void;
}

/** Returned by a handler: the job is not done, and its next attempt is due at `retryAt` (counted as an attempt). */
export interface RetryHint {
  retryAt: number;
}

// biome-ignore lint/suspicious/noExplicitAny: a queue's payload type is its handler's business.
export type JobHandler<P = any> = (
  job: Job<P>,
  context: JobContext,
) => Promise<undefined | RetryHint> | undefined | RetryHint | Promise<void> | void;

/** Thrown by a handler: the attempt failed, and the next one should start at `retryAt` (a `Retry-After`). */
export class RetryJobError extends Error {
  override name = 'RetryJobError';
  constructor(
    message: string,
    readonly retryAt: number,
  ) {
    super(message);
  }
}

/** Thrown by a handler: the job can never succeed (a webhook's endpoint is gone); it fails with no further attempt. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

/** Exponential backoff with full jitter: attempt n waits a random time in [0, min(capMs, baseMs × factor^(n-1))). */
export interface Backoff {
  baseMs: number;
  factor: number;
  capMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 1000, factor: 2, capMs: 3_600_000 };
/** Attempts of a job that names neither its attempts nor a deadline, in a queue that names no attempts either. */
export const DEFAULT_MAX_ATTEMPTS = 25;
export const DEFAULT_LEASE_MS = 5 * 60_000;

/** The wait before the attempt after attempt `attempt` (1 for the first), given a random number in [0, 1). */
export function backoffDelay(attempt: number, backoff: Backoff, random: number): number {
  const ceiling = Math.min(backoff.capMs, backoff.baseMs * backoff.factor ** Math.max(0, attempt - 1));
  return Math.floor(random * ceiling);
}

/** A queue's handler and its retry rules. */
// biome-ignore lint/suspicious/noExplicitAny: as JobHandler.
export interface QueueOptions<P = any> {
  handle: JobHandler<P>;
  backoff?: Partial<Backoff>;
  /** Attempts of a job that does not name its own (default 25 when the job has no deadline either). */
  maxAttempts?: number;
  /** The deadline of a job that does not name its own: this long after it was enqueued (24 h for webhooks). */
  giveUpAfterMs?: number;
  /**
   * Run in the transaction that fails a job for good (no attempt left, or a permanent error; also when a job whose
   * process died had spent its attempts): what the job stood for ends too (a campaign `failed`).
   */
  onGiveUp?: GiveUpHandler<P>;
}

/** What a queue does when one of its jobs fails for good, in that transaction. */
// biome-ignore lint/suspicious/noExplicitAny: as JobHandler.
export type GiveUpHandler<P = any> = (job: Job<P>, trx: Transaction<Tables>) => Promise<void>;

/** What the runner logs through (a pino logger fits). */
export interface JobLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface JobRunnerOptions {
  db: Kysely<Tables>;
  dialect: DialectName;
  /** Every time the runner reads (due jobs, leases, backoff) comes from here; the wall clock when left out. */
  clock?: { now(): number };
  /** The jitter's random numbers in [0, 1) (default Math.random). */
  random?: () => number;
  /** By queue name: the handler, or the handler with its retry rules. Jobs of other queues are left alone. */
  // biome-ignore lint/suspicious/noExplicitAny: as JobHandler.
  handlers: Record<string, JobHandler<any> | QueueOptions<any>>;
  /** Attempts run at once by this runner (`ATRIUM_JOB_CONCURRENCY`, default 4). */
  concurrency?: number;
  /**
   * The most of its slots one tenant's jobs may hold at once (`ATRIUM_JOB_SLOTS_PER_TENANT`); by default one fewer
   * than `concurrency` (1 when it is 1), so one slot is always left for the other tenants.
   */
  slotsPerTenant?: number;
  /** How often it looks for due jobs when idle, in ms (`ATRIUM_JOB_POLL_MS`, default 500). */
  pollIntervalMs?: number;
  /** How long a claim holds without a heartbeat (default 5 minutes). */
  leaseMs?: number;
  log?: JobLog;
  /** Written to `locked_by` (default: host process id and random). */
  id?: string;
}

interface Queue {
  handle: JobHandler;
  backoff: Backoff;
  maxAttempts: number | undefined;
  giveUpAfterMs: number | undefined;
  onGiveUp: GiveUpHandler | undefined;
}

const silent: JobLog = { info() {}, warn() {}, error() {} };

function describeError(error: unknown): string {
  if (error instanceof Error) return error.name === 'Error' ? error.message : `${error.name}: ${error.message}`;
  return String(error);
}

/**
 * Runs the jobs of the queues it has handlers for. `start()` polls every `pollIntervalMs` (at once after
 * `wake()`, and whenever an attempt ends); `stop()` stops claiming and waits for the attempts running;
 * `runDue()` runs what is due now and returns, without the loop (tests, a command).
 */
export class JobRunner {
  readonly id: string;
  private readonly db: Kysely<Tables>;
  private readonly dialect: DialectName;
  private readonly clock: { now(): number };
  private readonly random: () => number;
  private readonly queues = new Map<string, Queue>();
  /** The queues' names, for the claim. */
  private readonly queueNames: readonly string[];
  private readonly concurrency: number;
  private readonly slotsPerTenant: number;
  /** Attempts running now, by tenant (the server's own jobs under null). */
  private readonly held = new Map<string | null, number>();
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly log: JobLog;
  private readonly active = new Map<number, { promise: Promise<void>; controller: AbortController }>();
  private loop: Promise<void> | undefined;
  private stopping = false;
  private woken = false;
  private sleeper: (() => void) | undefined;

  constructor(options: JobRunnerOptions) {
    this.db = options.db;
    this.dialect = options.dialect;
    this.clock = options.clock ?? { now: wallClock };
    this.random = options.random ?? Math.random;
    this.concurrency = Math.max(1, Math.trunc(options.concurrency ?? 4));
    this.slotsPerTenant = Math.min(
      this.concurrency,
      Math.max(1, Math.trunc(options.slotsPerTenant ?? this.concurrency - 1)),
    );
    this.pollIntervalMs = Math.max(1, options.pollIntervalMs ?? 500);
    this.leaseMs = Math.max(1, options.leaseMs ?? DEFAULT_LEASE_MS);
    this.log = options.log ?? silent;
    this.id = options.id ?? `${process.pid}-${randomBytes(6).toString('hex')}`;
    for (const [name, handler] of Object.entries(options.handlers)) {
      const queue = typeof handler === 'function' ? { handle: handler } : handler;
      this.queues.set(name, {
        handle: queue.handle,
        backoff: { ...DEFAULT_BACKOFF, ...queue.backoff },
        maxAttempts: queue.maxAttempts,
        giveUpAfterMs: queue.giveUpAfterMs,
        onGiveUp: 'onGiveUp' in queue ? queue.onGiveUp : undefined,
      });
    }
    this.queueNames = [...this.queues.keys()];
  }

  /** Attempts running now. */
  get running(): number {
    return this.active.size;
  }

  /** Starts polling (no-op when started). */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.loop = this.poll().catch((error: unknown) => this.log.error({ err: error }, 'job runner stopped on an error'));
  }

  /**
   * Stops claiming and waits for the running attempts to end. After `timeoutMs` (default: no limit) it aborts
   * their signals and returns without them: their leases expire and another runner takes them over.
   */
  async stop(options: { timeoutMs?: number } = {}): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    this.loop = undefined;
    const running = Promise.all([...this.active.values()].map((a) => a.promise));
    if (options.timeoutMs === undefined) {
      await running;
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), options.timeoutMs);
    });
    const outcome = await Promise.race([running, late]);
    clearTimeout(timer);
    if (outcome === 'late') {
      for (const a of this.active.values()) a.controller.abort(new Error('the job runner stopped'));
      this.log.warn({ running: this.active.size }, 'job runner stopped with attempts still running');
    }
  }

  /** Looks for due jobs now instead of at the next poll (call it after committing an enqueue). */
  wake(): void {
    this.woken = true;
    const sleeper = this.sleeper;
    this.sleeper = undefined;
    sleeper?.();
  }

  /**
   * Runs every job due now, round after round (a job of an ordering key becomes due when the one before it ends),
   * until a round finds none; returns how many attempts ran. A failed attempt is retried in the same call only if
   * its backoff is zero.
   */
  async runDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const jobs = await this.claim(this.concurrency);
      if (jobs.length === 0) return total;
      total += jobs.length;
      await Promise.all(jobs.map((job) => this.launch(job)));
    }
  }

  private async poll(): Promise<void> {
    while (!this.stopping) {
      const free = this.concurrency - this.active.size;
      let more = false;
      if (free > 0) {
        try {
          const jobs = await this.claim(free);
          for (const job of jobs) void this.launch(job);
          // A full batch: more may be due (claimed again once a slot frees, or at once when slots remain).
          more = jobs.length === free && this.active.size < this.concurrency;
        } catch (error) {
          this.log.error({ err: error }, 'job claim failed');
        }
      }
      if (this.stopping) break;
      if (more) {
        // Let the event loop (HTTP requests) turn before the next claim.
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      await this.sleep(this.pollIntervalMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(timer);
        if (self.sleeper === done) self.sleeper = undefined;
        self.woken = false;
        resolve();
      }
      this.sleeper = done;
    });
  }

  private claim(limit: number): Promise<Job[]> {
    return claimJobs(this.db, {
      dialect: this.dialect,
      queues: this.queueNames,
      limit,
      now: this.clock.now(),
      leaseMs: this.leaseMs,
      lockedBy: this.id,
      share: { max: this.slotsPerTenant, held: this.held },
      exhausted: (job) => {
        const queue = this.queues.get(job.queue) as Queue;
        const { limit: max, deadline } = this.limits(queue, job);
        return (max !== null && job.attempts >= max) || (deadline !== null && this.clock.now() >= deadline);
      },
      gaveUp: (job, trx) => this.queues.get(job.queue)?.onGiveUp?.(job, trx) ?? Promise.resolve(),
    });
  }

  /** A job's attempt limit and deadline: its own, else its queue's; 25 attempts when neither names either. */
  private limits(
    queue: Queue,
    job: { maxAttempts: number | null; giveUpAt: number | null; createdAt: number },
  ): { limit: number | null; deadline: number | null } {
    const deadline = job.giveUpAt ?? (queue.giveUpAfterMs === undefined ? null : job.createdAt + queue.giveUpAfterMs);
    const limit = job.maxAttempts ?? queue.maxAttempts ?? (deadline === null ? DEFAULT_MAX_ATTEMPTS : null);
    return { limit, deadline };
  }

  private launch(job: Job): Promise<void> {
    const controller = new AbortController();
    this.held.set(job.tenant, (this.held.get(job.tenant) ?? 0) + 1);
    const promise = this.attempt(job, controller).finally(() => {
      this.active.delete(job.id);
      const held = (this.held.get(job.tenant) ?? 1) - 1;
      if (held > 0) this.held.set(job.tenant, held);
      else this.held.delete(job.tenant);
      // A slot is free, and the next job of its ordering key may be due.
      if (!this.stopping) this.wake();
    });
    this.active.set(job.id, { promise, controller });
    return promise;
  }

  private async attempt(job: Job, controller: AbortController): Promise<void> {
    const queue = this.queues.get(job.queue) as Queue;
    const claim: Claim = { id: job.id, lockedBy: this.id, attempt: job.attempts };
    const records: ((trx: Transaction<Tables>) => Promise<unknown>)[] = [];
    const recorded = async (trx: Transaction<Tables>) => {
      for (const write of records) await write(trx);
    };
    const context: JobContext = {
      record: (write) => {
        records.push(write);
      },
      signal: controller.signal,
      leaseMs: this.leaseMs,
      heartbeat: async () => {
        const at = this.clock.now();
        const held = await renewLease(this.db, claim, at, at + this.leaseMs);
        if (!held) controller.abort(new Error('the job claim was lost'));
        return held;
      },
    };
    let error: unknown;
    let retryAt: number | undefined;
    try {
      const result = await queue.handle(job, context);
      if (result && typeof result === 'object' && typeof result.retryAt === 'number') retryAt = result.retryAt;
    } catch (thrown) {
      error = thrown ?? new Error('the handler threw nothing');
      if (thrown instanceof RetryJobError) retryAt = thrown.retryAt;
    }
    const at = this.clock.now();
    const fields = { job: job.id, queue: job.queue, attempt: job.attempts };
    try {
      let held: boolean;
      if (error === undefined && retryAt === undefined) {
        held = await inLightTransaction(this.db, async (trx) => {
          await recorded(trx);
          return completeJob(trx, claim, at);
        });
      } else {
        const message = error === undefined ? 'the handler asked for a retry' : describeError(error);
        const next = this.nextAttempt(queue, job, error, at, retryAt);
        held = await inLightTransaction(this.db, async (trx) => {
          await recorded(trx);
          const failed = await failJob(trx, claim, at, message, next);
          if (failed && next === null) await queue.onGiveUp?.(job, trx);
          return failed;
        });
        // A permanent failure is expected (a refused address): one short line, without the stack.
        if (held && error instanceof PermanentJobError)
          this.log.warn({ ...fields, reason: message }, 'job failed for good');
        else if (held && next === null) this.log.error({ ...fields, err: error }, 'job failed: no attempt left');
        else if (held) this.log.warn({ ...fields, err: error, retryAt: next }, 'job attempt failed, retry scheduled');
      }
      if (!held) this.log.warn(fields, 'job claim lost before its attempt ended (lease expired or job cancelled)');
    } catch (writeError) {
      // The lease will expire and another attempt will run: at least once.
      this.log.error({ ...fields, err: writeError }, 'job outcome could not be written');
    }
  }

  /** When the attempt after a failed one starts, or null when the job fails for good. */
  private nextAttempt(queue: Queue, job: Job, error: unknown, at: number, hint: number | undefined): number | null {
    if (error instanceof PermanentJobError) return null;
    const { limit, deadline } = this.limits(queue, job);
    if (limit !== null && job.attempts >= limit) return null;
    const next = hint ?? at + backoffDelay(job.attempts, queue.backoff, this.random());
    if (deadline !== null && next > deadline) return null;
    return Math.max(next, at);
  }
}
