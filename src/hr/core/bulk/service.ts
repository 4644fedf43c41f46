import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToIo } from 'node:timers/promises';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { withLightCommits } from '../../../platform/db/transaction.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { NotFoundError } from '../../../platform/errors.js';
import { compileBodyCheck } from '../../../platform/http/validation.js';
import { enqueue, type Job, type JobContext, type QueueOptions } from '../../../platform/jobs/index.js';
import type { Clock } from '../../../platform/time.js';
import { actingAs, afterWork, currentCaller } from '../../audit/actor.js';
import { bodyValidationError, domainErrorBody, type ErrorBody } from '../../errors.js';
import type {
  BulkAction,
  BulkOperation,
  BulkRepository,
  BulkResource,
  PendingBulkItem,
  SettledBulkItem,
} from './repository.js';

export type { BulkAction, BulkResource, PendingBulkItem } from './repository.js';

/** The job queue bulk calls run on. */
export const BULK_QUEUE = 'hr.bulk';

/** Items read per batch; the job yields to the server after each item. */
const BATCH = 50;
/**
 * The job renews its lease when this long has passed since it last did (checked after each item): well within any
 * lease (a minute by default), however slow the items are.
 */
const HEARTBEAT_MS = 250;
/**
 * Attempts of a bulk or import job: an attempt cut short (its process died, its lease was taken over) counts as
 * one, and applied items are never lost, so the limit only stops a job that keeps failing.
 */
export const MANY_ROWS_MAX_ATTEMPTS = 100;

/** What a bulk call's job carries: where to find the call. Its items are rows of their own. */
export interface BulkPayload {
  clientId: HrTenantId;
  operationId: string;
}

/** The repositories every bulk-capable resource's unit of work holds, so an item settles with its write. */
export interface BulkWork {
  bulk: BulkRepository;
}

/** A resource with a bulk path: it applies one item, settling it in the transaction of its write. */
export interface BulkTarget {
  apply(clientId: HrTenantId, action: BulkAction, item: PendingBulkItem): Promise<void>;
}

/** A bulk call and the items settled so far, for its status. */
export interface BulkReport {
  operation: BulkOperation;
  items: SettledBulkItem[];
}

/** An item that its schema or its own rules refuse before any write: its error body, as the single endpoint's. */
export class BulkItemRefused extends Error {
  override name = 'BulkItemRefused';
  constructor(readonly body: ErrorBody) {
    super(body.message);
  }
}

/** Thrown inside an item's transaction when another attempt settled it first: the write is rolled back. */
class AlreadySettled extends Error {
  override name = 'AlreadySettled';
}

/**
 * A check of one item against its schema, with the field errors of the single endpoint (unknown members dropped, as
 * the HR API's routes drop them). Throws {@link BulkItemRefused}.
 */
export function itemCheck(schema: object): (value: unknown) => void {
  const check = compileBodyCheck(schema, 'drop');
  return (value) => {
    const result = check(value);
    if (!result.ok) throw new BulkItemRefused(bodyValidationError(result.errors).body);
  };
}

/** Settles an item inside its write's transaction: `tx` is the target's unit of work, which holds `bulk`. */
export type Settle<W extends BulkWork> = (
  tx: W,
  outcome: 'created' | 'updated',
  result: unknown,
  resourceId: string,
) => Promise<void>;

/**
 * Applies one item of a bulk call for a target: `write` checks the item and writes it, calling `settle` in its
 * transaction, so the item's result commits with its write (a job taken over after a crash never applies it again).
 * An item the API's rules refuse settles as failed with the error body the single endpoint would answer; any other
 * error (the database) is thrown, and the job retries the item.
 */
export async function applyBulkItem<W extends BulkWork>(options: {
  work: UnitOfWork<Tables, W>;
  /** The clock the write stamps its rows with: the item's result is settled at the same time. */
  clock: Clock;
  clientId: HrTenantId;
  item: PendingBulkItem;
  /** `Employee`, `User`: the start of each success message. */
  noun: string;
  write: (settle: Settle<W>) => Promise<unknown>;
}): Promise<void> {
  const { work, clock, clientId, item, noun } = options;
  const settle: Settle<W> = async (tx, outcome, result, resourceId) => {
    const message = `${noun} record ${outcome} successfully.`;
    const settlement = { status: 'success' as const, outcome, message, result, resourceId };
    // The write's own clock (services stamp their rows with `clock.now()`).
    if (!(await tx.bulk.settle(clientId, item, settlement, clock.now()))) throw new AlreadySettled();
  };
  try {
    await options.write(settle);
  } catch (error) {
    if (error instanceof AlreadySettled) return;
    const body = error instanceof BulkItemRefused ? error.body : domainErrorBody(error);
    if (!body) throw error;
    const failure = { status: 'failed' as const, outcome: 'failed' as const, message: body.message, result: body };
    await work.run((tx) => tx.bulk.settle(clientId, item, { ...failure, resourceId: null }, clock.now()));
  }
}

/**
 * What an item, an import or a dataset import not yet applied says when its job failed for good (its attempts spent):
 * the cause is in the server's log, not on the wire.
 */
export const JOB_GAVE_UP = {
  code: 'job_failed',
  message: "Not applied: this call's background job failed on every attempt; the server's log says why.",
} as const;

/**
 * Bulk calls (reference §3a.7 and §5.3): the call is stored with its items and a job in one transaction and
 * answered at once with its `request_id`; the job applies the items in order, each in its own transaction with its
 * result; the status reads the results. docs/hr-api.md, "Bulk calls".
 */
export class BulkService {
  private targets: Partial<Record<BulkResource, BulkTarget>> = {};

  constructor(
    private readonly work: UnitOfWork<Tables, BulkWork>,
    private readonly clock: Clock,
    private readonly wake: () => void,
  ) {}

  /** Names the resource that applies a resource's items (the composition does it once both exist). */
  serve(resource: BulkResource, target: BulkTarget): void {
    this.targets[resource] = target;
  }

  /**
   * Stores a call and queues its job, in one transaction. Calls of one client run one after another, in the order
   * they were made (their jobs share an ordering key), so a PUT sent after a POST finds what the POST created.
   */
  async submit(
    clientId: HrTenantId,
    resource: BulkResource,
    action: BulkAction,
    items: readonly unknown[],
  ): Promise<string> {
    const id = randomUUID();
    const caller = currentCaller();
    await this.work.run(async ({ bulk }) => {
      const at = this.clock.now();
      const payload: BulkPayload = { clientId, operationId: id };
      const jobId = await enqueue(
        bulk.db,
        { queue: BULK_QUEUE, tenant: clientId, orderingKey: `hr-sync:${clientId}`, payload },
        at,
      );
      await bulk.insert(clientId, { id, resource, action, caller, jobId, createdAt: at }, items);
    });
    afterWork(this.wake);
    return id;
  }

  /** A call's progress and settled items; a call made at another resource's path is not found here. */
  async report(clientId: HrTenantId, resource: BulkResource, id: string): Promise<BulkReport> {
    const operation = await this.work.read.bulk.find(clientId, id);
    if (!operation || operation.resource !== resource) throw new NotFoundError('bulk request', id);
    return { operation, items: await this.work.read.bulk.settled(clientId, id) };
  }

  /**
   * Deletes the calls (and imports' rows) that ended more than `retentionDays` ago (`ATRIUM_BULK_RETENTION_DAYS`):
   * their status is then not found, an import's reports too. Run hourly by the server.
   */
  sweep(now: number, retentionDays: number): Promise<number> {
    return this.work.read.bulk.sweep(now - retentionDays * 86_400_000);
  }

  /**
   * The job queue's handler: applies the pending items of a call, in order, as the caller who made it. When the job
   * fails for good, the items still pending fail with `job_failed` and the call completes.
   */
  queue(): QueueOptions<BulkPayload> {
    return {
      handle: (job, context) => this.run(job, context),
      maxAttempts: MANY_ROWS_MAX_ATTEMPTS,
      onGiveUp: (job, trx) =>
        this.clock.runAs(`hr:${job.payload.clientId}`, async () => {
          await this.work
            .on(trx)
            .read.bulk.abandon(job.payload.clientId, job.payload.operationId, JOB_GAVE_UP, this.clock.now());
        }),
    };
  }

  private async run(job: Job<BulkPayload>, context: JobContext): Promise<void> {
    await this.applyPending(job.payload.clientId, job.payload.operationId, context);
  }

  /**
   * Applies the pending items of a call, in order, as the caller who made it, then marks it completed. A job runs
   * it: a bulk call's, or an import's once it has read its file into items.
   */
  async applyPending(clientId: HrTenantId, operationId: string, context: JobContext): Promise<boolean> {
    const repo = this.work.read.bulk;
    const operation = await repo.find(clientId, operationId);
    if (!operation) return false;
    const target = this.targets[operation.resource];
    if (!target) throw new Error(`no bulk target serves ${operation.resource}`);
    return actingAs(operation.caller, async () => {
      await repo.mark(clientId, operationId, 'in_progress', this.clock.now());
      let beat = performance.now();
      for (;;) {
        const items = await repo.pending(clientId, operationId, BATCH);
        if (items.length === 0) break;
        for (const item of items) {
          if (context.signal.aborted) return false;
          // Committed without a flush each: the call's end (`mark`, below) flushes them all (withLightCommits).
          await withLightCommits(() => target.apply(clientId, operation.action, item));
          // One item at a time, then the server's turn: a large call never holds the event loop.
          await yieldToIo();
          if (performance.now() - beat >= HEARTBEAT_MS) {
            if (!(await context.heartbeat())) return false;
            beat = performance.now();
          }
        }
      }
      await repo.mark(clientId, operationId, 'completed', this.clock.now());
      return true;
    });
  }
}
