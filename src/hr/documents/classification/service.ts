import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { type BlobStore, readBlob } from '../../../platform/blobs/store.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { FieldValidationError, NotFoundError } from '../../../platform/errors.js';
import { enqueue, type Job, type QueueOptions, RetryJobError } from '../../../platform/jobs/index.js';
import type { PdfWorker } from '../../../platform/pdf/runner.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import { predictionRunEvents } from './events.js';
import { presentPredictionRun } from './present.js';
import type {
  ClassifiedDocument,
  GuessedType,
  PredictionRunRecord,
  PredictionRunsRepository,
  PredictionStatus,
} from './repository.js';
import { predict } from './rule.js';

/** The repositories prediction writes touch. */
export interface PredictionWork {
  predictions: PredictionRunsRepository;
}

export const PREDICTION_QUEUE = 'document_type_prediction';

/** The error code of a run that could not read its document (reference §3c.8's example). */
export const PREDICTION_ERROR = 'prediction-error';

const PDF = 'application/pdf';
/** Attempts of a run whose PDF worker was past its limits (too busy, too slow) before it fails. */
const LIMIT_ATTEMPTS = 3;

interface PredictionJob {
  clientId: HrTenantId;
  runId: string;
}

type Outcome = { status: 'DONE'; guesses: GuessedType[] } | { status: 'FAILED'; errorCode: string };

/**
 * Document classification (reference §3c.8; docs/hr-api.md, "Document classification"): a run is created
 * `SCHEDULED` with its job in one transaction; the job moves it to `IN_PROGRESS`, reads the document's text (a
 * PDF's text layer, or a text file) and guesses its type by the keywords of the types' labels (rule.ts), then
 * `DONE` (or `FAILED` with `prediction-error` when the text cannot be read).
 */
export class PredictionRunsService {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<PredictionWork>>,
    private readonly deps: {
      blobs: BlobStore;
      pdf: PdfWorker;
      clock: Clock;
      wakeJobs: () => void;
      log?: Logger;
    },
  ) {}

  /** Schedules a run of one of the client's documents; 422 `document_id` `not_found` for any other id. */
  async create(clientId: HrTenantId, documentId: string): Promise<PredictionRunRecord> {
    const run = await this.work.run(async (tx) => {
      if (!(await tx.predictions.document(clientId, documentId))) {
        throw new FieldValidationError([
          { field: 'document_id', code: 'not_found', message: `No document ${JSON.stringify(documentId)}.` },
        ]);
      }
      const now = this.deps.clock.now();
      const run: PredictionRunRecord = {
        id: randomUUID(),
        documentId,
        status: 'SCHEDULED',
        errorCode: null,
        guesses: [],
        startedAt: null,
        completedAt: null,
        createdAt: now,
        updatedAt: now,
      };
      await tx.predictions.insert(clientId, run);
      await enqueue(
        tx.predictions.db,
        { queue: PREDICTION_QUEUE, tenant: clientId, payload: { clientId, runId: run.id } satisfies PredictionJob },
        this.deps.clock.wall(),
      );
      await tx.audit.record(clientId, predictionRunEvents, 'created', {
        id: run.id,
        name: documentId,
        data: presentPredictionRun(run),
      });
      return run;
    });
    this.deps.wakeJobs();
    return run;
  }

  /** The client's run; `NotFoundError` otherwise (another client's included). */
  async get(clientId: HrTenantId, id: string): Promise<PredictionRunRecord> {
    const run = await this.work.read.predictions.find(clientId, id);
    if (!run) throw new NotFoundError('document_type_prediction_run', id);
    return run;
  }

  /** The job: `IN_PROGRESS`, then the outcome. A run already finished is left as it is (a second attempt). */
  private async run(job: Job<PredictionJob>): Promise<undefined> {
    const { clientId, runId } = job.payload;
    let run = await this.work.read.predictions.find(clientId, runId);
    if (!run || run.status === 'DONE' || run.status === 'FAILED') return undefined;
    if (run.status === 'SCHEDULED') {
      const at = this.deps.clock.now();
      const started = { ...run, status: 'IN_PROGRESS' as const, startedAt: at, updatedAt: at };
      if (!(await this.move(clientId, run, 'SCHEDULED', started))) return undefined;
      run = started;
    }
    const outcome = await this.outcome(clientId, run);
    if (outcome === 'limits' && job.attempts < LIMIT_ATTEMPTS) {
      throw new RetryJobError('the PDF worker was past its limits', this.deps.clock.wall() + 5_000);
    }
    const settled: Outcome = outcome === 'limits' ? { status: 'FAILED', errorCode: PREDICTION_ERROR } : outcome;
    const at = this.deps.clock.now();
    await this.move(clientId, run, 'IN_PROGRESS', {
      ...run,
      status: settled.status,
      errorCode: settled.status === 'FAILED' ? settled.errorCode : null,
      guesses: settled.status === 'DONE' ? settled.guesses : [],
      completedAt: at,
      updatedAt: at,
    });
    return undefined;
  }

  /** One step of a run, with its `status_changed` event; false when another attempt took it first. */
  private move(
    clientId: HrTenantId,
    run: PredictionRunRecord,
    from: PredictionStatus,
    to: PredictionRunRecord,
  ): Promise<boolean> {
    return this.work.run(async (tx) => {
      if (!(await tx.predictions.advance(clientId, run.id, from, to))) return false;
      await tx.audit.record(clientId, predictionRunEvents, 'status_changed', {
        id: run.id,
        name: run.documentId,
        data: presentPredictionRun(to),
      });
      return true;
    });
  }

  /** The run's outcome, or `limits` when the PDF worker was past its limits (another attempt may do). */
  private async outcome(clientId: HrTenantId, run: PredictionRunRecord): Promise<Outcome | 'limits'> {
    const document = await this.work.read.predictions.document(clientId, run.documentId);
    const text = document ? await this.text(document) : null;
    if (text === 'limits') return 'limits';
    if (document === undefined || text === null) return { status: 'FAILED', errorCode: PREDICTION_ERROR };
    const types = await this.work.read.predictions.types(clientId, document.kind);
    return { status: 'DONE', guesses: predict(text, types) };
  }

  /**
   * The document's text: a PDF's text layer, or a UTF-8 text file's content; null for anything else, `limits` when
   * the PDF worker was past its limits.
   */
  private async text(document: ClassifiedDocument): Promise<string | null | 'limits'> {
    let bytes: Uint8Array;
    try {
      bytes = await readBlob(this.deps.blobs, document.sha256);
    } catch (err) {
      this.deps.log?.warn({ err, document: document.id }, 'reading a document to classify it failed');
      return null;
    }
    if (document.contentType === PDF) {
      const pages = await this.deps.pdf.texts(bytes);
      return Array.isArray(pages) ? pages.join('\n') : pages;
    }
    if (bytes.includes(0)) return null;
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return null;
    }
  }

  /** The queue of the runner. */
  queues(): Record<string, QueueOptions> {
    return {
      [PREDICTION_QUEUE]: {
        handle: (job: Job<PredictionJob>) => this.deps.clock.runAs(`hr:${job.payload.clientId}`, () => this.run(job)),
      },
    };
  }
}
