/** The runner's job of a distribution: its steps, from reading its file to filing its documents. */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { type BlobStore, readBlob } from '../../../platform/blobs/store.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type Job, type JobContext, type QueueOptions, RetryJobError } from '../../../platform/jobs/index.js';
import type { PdfWorker } from '../../../platform/pdf/runner.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import type { DocumentsService } from '../documents/service.js';
import { DISTRIBUTION_QUEUE, type DistributionJob, type DistributionsWork, moveDistribution } from './flow.js';
import { assignPages, candidates, scanPages } from './mapping.js';
import type { DistributionErrorRecord, DistributionRecord, DistributionsRepository } from './repository.js';
import type { DistributionStatus } from './schemas.js';

/** Rows split, or delivered, per step (one worker task, one transaction). */
const BATCH = 50;
/** Attempts of a job whose PDF task went past the worker's limits before the distribution is `error`. */
const LIMIT_ATTEMPTS = 3;

/**
 * Runs a long task (a PDF worker's), renewing the job's lease meanwhile so that no other runner takes it over: four
 * times per lease (every 75 s with the default 5-minute lease; a test's 1.5 s lease, every 375 ms).
 */
async function keepingLease<T>(context: JobContext, task: () => Promise<T>): Promise<T> {
  const every = Math.max(50, Math.floor(context.leaseMs / 4));
  const timer = setInterval(() => void context.heartbeat().catch(() => false), every);
  try {
    return await task();
  } finally {
    clearInterval(timer);
  }
}

/** Why a distribution stopped. */
const ERRORS = {
  UNREADABLE_FILE: { type: 'external', message: 'The file is not a PDF whose pages Atrium can read.' },
  FILE_TOO_LARGE: { type: 'internal', message: 'The file took too long, or too much memory, to read or split.' },
  NO_EMPLOYEE_FOUND: {
    type: 'external',
    message: 'No page of the file names an employee of the platform: nothing to deliver (see the report).',
  },
  FILE_MISSING: { type: 'internal', message: 'The file could not be read back from storage.' },
} as const;
type ErrorCode = keyof typeof ERRORS;

/**
 * The steps of a distribution, run by the job runner through the statuses of §5.6 (reference; docs/hr-api.md,
 * "Distributions"): each step commits with the status it leads to, so a job killed half-way resumes where it
 * stopped without doing anything twice.
 */
export class DistributionStepsService {
  private readonly repo: DistributionsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<DistributionsWork>>,
    private readonly deps: {
      documents: DocumentsService;
      blobs: BlobStore;
      pdf: PdfWorker;
      clock: Clock;
      log?: Logger;
    },
  ) {
    this.repo = work.read.distributions;
  }

  private now(): number {
    return this.deps.clock.now();
  }

  private step(id: number, clientId: HrTenantId, from: DistributionStatus, to: DistributionStatus): Promise<boolean> {
    return this.work.run((tx) => moveDistribution(tx, this.deps.clock, clientId, id, [from], to));
  }

  private fail(clientId: HrTenantId, id: number, from: DistributionStatus, code: ErrorCode): Promise<boolean> {
    const error: DistributionErrorRecord = { id: randomUUID(), code, ...ERRORS[code], at: this.now() };
    return this.work.run((tx) => moveDistribution(tx, this.deps.clock, clientId, id, [from], 'error', error));
  }

  /**
   * The runner's job: the distribution's steps, one after the other, until it waits for validation or ends. Its
   * lease is renewed all along (a PDF task can take longer than a lease); should another attempt run anyway (a
   * lease lost), each step's conditional writes let only one of them through.
   */
  private run(job: Job<DistributionJob>, context: JobContext): Promise<undefined> {
    return keepingLease(context, () => this.steps(job, context));
  }

  private async steps(job: Job<DistributionJob>, context: JobContext): Promise<undefined> {
    const { clientId, distributionId: id } = job.payload;
    for (;;) {
      if (context.signal.aborted) return undefined;
      const d = await this.repo.findDistribution(clientId, id);
      if (!d) return undefined;
      switch (d.status) {
        case 'new':
          await this.step(id, clientId, 'new', 'preparing_documents');
          break;
        case 'preparing_documents':
          await this.prepare(d, job);
          break;
        case 'integrating_documents':
          await this.integrate(clientId, d, job, context);
          break;
        case 'validated':
          await this.step(id, clientId, 'validated', 'building_campaigns');
          break;
        case 'building_campaigns':
          await this.step(id, clientId, 'building_campaigns', 'sending_notifications');
          break;
        case 'sending_notifications':
          await this.step(id, clientId, 'sending_notifications', 'sending_to_mypeopledoc');
          break;
        case 'sending_to_mypeopledoc':
          await this.deliver(clientId, d, context);
          break;
        default:
          // Waiting for validation (its call queues the job again), or ended.
          return undefined;
      }
      if (!(await context.heartbeat())) return undefined;
    }
  }

  /** The file's bytes, or null when storage has lost them. */
  private async source(d: DistributionRecord): Promise<Uint8Array | null> {
    try {
      return await readBlob(this.deps.blobs, d.sha256);
    } catch (err) {
      this.deps.log?.warn({ err, distribution: d.id }, 'reading a distribution’s file failed');
      return null;
    }
  }

  /** A PDF task past the worker's limits: tried again a few times, then the distribution is `error`. */
  private async overLimits(clientId: HrTenantId, d: DistributionRecord, job: Job<DistributionJob>): Promise<void> {
    if (job.attempts < LIMIT_ATTEMPTS) {
      throw new RetryJobError('the PDF worker was past its limits', this.deps.clock.wall() + 5_000);
    }
    await this.fail(clientId, d.id, d.status, 'FILE_TOO_LARGE');
  }

  /** `preparing_documents`: reads each page's text and writes the report's rows (whose pages are whose). */
  private async prepare(d: DistributionRecord, job: Job<DistributionJob>): Promise<void> {
    const { clientId } = job.payload;
    const bytes = await this.source(d);
    if (bytes === null) {
      await this.fail(clientId, d.id, 'preparing_documents', 'FILE_MISSING');
      return;
    }
    const texts = await this.deps.pdf.texts(bytes);
    if (texts === 'limits') return this.overLimits(clientId, d, job);
    if (texts === null || texts.length === 0) {
      await this.fail(clientId, d.id, 'preparing_documents', 'UNREADABLE_FILE');
      return;
    }
    const scan = scanPages(texts);
    const employees = await this.repo.employeesByExternalId(clientId, candidates(scan));
    const rows = assignPages(scan, employees);
    const deliverable = rows.some((r) => r.error === null);
    await this.work.run(async (tx) => {
      const error: DistributionErrorRecord | undefined = deliverable
        ? undefined
        : { id: randomUUID(), code: 'NO_EMPLOYEE_FOUND', ...ERRORS.NO_EMPLOYEE_FOUND, at: this.now() };
      const to = deliverable ? 'integrating_documents' : 'error';
      // The rows commit with the status that follows them: a second run finds them written, and moves on.
      if (!(await moveDistribution(tx, this.deps.clock, clientId, d.id, ['preparing_documents'], to, error))) return;
      await tx.distributions.insertItems(
        clientId,
        d.id,
        rows.map((r) => ({
          position: r.position,
          externalId: r.externalId,
          employeeId: r.employeeId,
          pages: r.pages,
          status: r.error ? 'error' : 'pending',
          errorCode: r.error?.code ?? null,
          errorMessage: r.error?.message ?? null,
        })),
      );
    });
  }

  /**
   * `integrating_documents`: each employee's pages become a PDF of their own (a blob, recorded on its row as it is
   * stored, so a row is split once); then the distribution waits for validation, unless its project validates
   * automatically.
   */
  private async integrate(
    clientId: HrTenantId,
    d: DistributionRecord,
    job: Job<DistributionJob>,
    context: JobContext,
  ): Promise<void> {
    let bytes: Uint8Array | null | undefined;
    for (;;) {
      const batch = await this.repo.pendingItems(clientId, d.id, 'split', BATCH);
      if (batch.length === 0) break;
      const current = await this.repo.findDistribution(clientId, d.id);
      if (current?.status !== 'integrating_documents') return;
      bytes ??= await this.source(d);
      if (bytes === null) {
        await this.fail(clientId, d.id, 'integrating_documents', 'FILE_MISSING');
        return;
      }
      const parts = await this.deps.pdf.split(
        bytes,
        batch.map((item) => item.pages.map((p) => p - 1)),
      );
      if (parts === 'limits') return this.overLimits(clientId, d, job);
      if (parts === null || parts.length !== batch.length) {
        await this.fail(clientId, d.id, 'integrating_documents', 'UNREADABLE_FILE');
        return;
      }
      for (const [i, item] of batch.entries()) {
        const gone = new Error('the row was split meanwhile');
        await this.deps.blobs
          .put(Readable.from([Buffer.from(parts[i] as Uint8Array)]), {
            // The reference is written with the blob: a row split twice keeps the first (a throw undoes this one).
            attach: async (trx, blob) => {
              const set = await this.work.on(trx).read.distributions.setItemFile(clientId, d.id, item.position, {
                sha256: blob.sha256,
                size: blob.size,
              });
              if (!set) throw gone;
            },
          })
          .catch((error: unknown) => {
            if (error !== gone) throw error;
          });
      }
      if (!(await context.heartbeat())) return;
    }
    const project = await this.repo.findProject(clientId, d.projectId);
    const next = project?.automaticValidation ? 'validated' : 'waiting_for_validation';
    await this.step(d.id, clientId, 'integrating_documents', next);
  }

  /**
   * `sending_to_mypeopledoc`: each row's PDF is filed as a document of its employee (origin `distribution`), a
   * batch of rows per transaction, each row settled with its document in it; then the distribution is `completed`.
   */
  private async deliver(clientId: HrTenantId, d: DistributionRecord, context: JobContext): Promise<void> {
    const settledElsewhere = new Error('a row was settled by another attempt');
    for (;;) {
      const done = await this.work
        .run(async (tx) => {
          const current = await tx.distributions.findDistribution(clientId, d.id);
          if (current?.status !== 'sending_to_mypeopledoc') return 'stopped';
          const batch = await tx.distributions.pendingItems(clientId, d.id, 'deliver', BATCH);
          if (batch.length === 0) return 'done';
          for (const item of batch) {
            const employee =
              item.employeeId === null ? undefined : await tx.documents.employee(clientId, { id: item.employeeId });
            if (!employee) {
              await tx.distributions.settleItem(clientId, d.id, item.position, {
                code: 'MISSING_USER',
                message: 'The employee was deleted before the documents were sent.',
              });
              continue;
            }
            const active = employee.registrations.filter((r) => r.active);
            const documentId = await this.deps.documents.fileGenerated(tx, clientId, {
              employeeId: employee.id,
              documentTypeId: d.distributionTypeId,
              title: d.name,
              filename: d.filename,
              sha256: item.sha256 as string,
              size: item.size ?? 0,
              pageCount: item.pages.length,
              date: null,
              metadata: [],
              origin: 'distribution',
              organizationIds: [
                ...new Set((active.length ? active : employee.registrations).map((r) => r.organizationId)),
              ],
            });
            // Another attempt settled it first (its lease was lost): this whole batch is undone, filed once.
            if (!(await tx.distributions.settleItem(clientId, d.id, item.position, { documentId })))
              throw settledElsewhere;
          }
          return 'more';
        })
        .catch((error: unknown) => {
          if (error === settledElsewhere) return 'more' as const;
          throw error;
        });
      if (done === 'stopped') return;
      if (done === 'done') break;
      if (!(await context.heartbeat())) return;
    }
    await this.step(d.id, clientId, 'sending_to_mypeopledoc', 'completed');
  }

  /** The runner's queue: a distribution's steps, in the client's time. */
  queues(): Record<string, QueueOptions> {
    return {
      [DISTRIBUTION_QUEUE]: {
        handle: (job: Job<DistributionJob>, context: JobContext) =>
          this.deps.clock.runAs(`hr:${job.payload.clientId}`, () => this.run(job, context)),
      },
    };
  }
}
