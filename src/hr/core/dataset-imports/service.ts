import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { BlobStore } from '../../../platform/blobs/store.js';
import { CsvFormatError, csvRecords } from '../../../platform/csv.js';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { checkTenantCap, type TenantCap } from '../../../platform/db/tenant-cap.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { FieldValidationError, ForbiddenError, NotFoundError } from '../../../platform/errors.js';
import { enqueue, type Job, type JobContext, type QueueOptions } from '../../../platform/jobs/index.js';
import { TurnBudget } from '../../../platform/tick.js';
import type { Clock } from '../../../platform/time.js';
import { afterWork, currentCaller } from '../../audit/actor.js';
import type { Audited } from '../../module.js';
import { JOB_GAVE_UP } from '../bulk/service.js';
import type { DatasetRecord } from '../datasets/repository.js';
import { MAX_VALUES } from '../datasets/schemas.js';
import type { UploadsService } from '../uploads/service.js';
import { datasetImportEvents } from './events.js';
import { DatasetCsv } from './layout.js';
import { presentDatasetImport } from './present.js';
import { type DatasetImportsWork, DatasetValuesReplacement } from './replace.js';
import type { DatasetImportRecord, ImportReportEntry } from './repository.js';
import { EMPTY_STATS } from './repository.js';
import type { DatasetImportCreate } from './schemas.js';

/** The job queue dataset imports run on. */
export const DATASET_IMPORT_QUEUE = 'hr.dataset_import';

export interface DatasetImportPayload {
  clientId: HrTenantId;
  importId: string;
}

export type { DatasetImportsWork } from './replace.js';

/** CSV cells read between two turns of the event loop. */
const CELLS_PER_TURN = 20_000;

/**
 * Dataset imports (reference §5.2): a CSV replaces every value of a dataset, all or nothing. The import and its
 * job are stored with the upload's consumption; the job reads the file, and either replaces the values (staged in
 * short transactions, then swapped in by one: replace.ts) and marks the import finished with the swap, or marks it
 * failed with its report and changes nothing. Neither the reading nor the writing holds the event loop for long.
 */
export class DatasetImportsService {
  private readonly replacement: DatasetValuesReplacement;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<DatasetImportsWork>>,
    private readonly uploads: UploadsService,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly wake: () => void,
    /** `ATRIUM_MAX_CONCURRENT_DATASET_IMPORTS`: one more while this many run is 429, and writes nothing. */
    private readonly maxConcurrent: number,
  ) {
    this.replacement = new DatasetValuesReplacement(work, clock);
  }

  async create(clientId: HrTenantId, input: DatasetImportCreate): Promise<DatasetImportRecord> {
    const id = randomUUID();
    const caller = currentCaller();
    const creatorId = caller.type === 'application' ? (caller.userId ?? null) : null;
    const cap: TenantCap = {
      what: 'dataset imports',
      limit: this.maxConcurrent,
      setting: 'ATRIUM_MAX_CONCURRENT_DATASET_IMPORTS',
    };
    const created = await this.work.run(async ({ datasetImports, datasets, uploads, audit }) => {
      await checkTenantCap(datasetImports.db, clientId, cap, () => datasetImports.running(clientId));
      const at = this.clock.now();
      if (!(await datasets.find(clientId, input.dataset_id))) {
        throw new FieldValidationError([
          { field: 'dataset_id', code: 'not_found', message: 'No dataset has this id.' },
        ]);
      }
      const upload = await this.uploads.consume(uploads, clientId, input.upload_id, { field: 'upload_id' });
      const payload: DatasetImportPayload = { clientId, importId: id };
      const jobId = await enqueue(
        datasetImports.db,
        {
          queue: DATASET_IMPORT_QUEUE,
          tenant: clientId,
          orderingKey: `dataset:${clientId}:${input.dataset_id}`,
          payload,
        },
        at,
      );
      await datasetImports.insert(
        clientId,
        {
          id,
          datasetId: input.dataset_id,
          filename: upload.filename,
          sha256: upload.sha256,
          size: upload.size,
          creatorId,
        },
        jobId,
        at,
      );
      await datasets.markImport(clientId, input.dataset_id, 'queued', null);
      const record = (await datasetImports.find(clientId, id)) as DatasetImportRecord;
      await audit.record(clientId, datasetImportEvents, 'created', {
        id,
        name: record.filename,
        data: presentDatasetImport(record),
      });
      return record;
    });
    afterWork(this.wake);
    return created;
  }

  async get(clientId: HrTenantId, id: string): Promise<DatasetImportRecord> {
    const found = await this.work.read.datasetImports.find(clientId, id);
    if (!found) throw new NotFoundError('dataset import', id);
    return found;
  }

  list(clientId: HrTenantId, filter: { datasetId?: string }, request: PageRequest): Promise<Page<DatasetImportRecord>> {
    return this.work.read.datasetImports.page(clientId, filter, request);
  }

  /** The report's entries, once the import has finished (403 `report_file_not_ready` before). */
  async report(clientId: HrTenantId, id: string): Promise<ImportReportEntry[]> {
    const found = await this.get(clientId, id);
    if (found.status !== 'finished') {
      throw new ForbiddenError('report_file_not_ready', 'The import has not finished: its report is not ready yet.');
    }
    return found.report;
  }

  queue(): QueueOptions<DatasetImportPayload> {
    return {
      handle: (job, context) => this.run(job, context),
      onGiveUp: (job, trx) => this.clock.runAs(`hr:${job.payload.clientId}`, () => this.gaveUp(job.payload, trx)),
    };
  }

  /**
   * Its job failed for good: the import ends with `result: "error"` and one `internal_error` (`job_failed`) in its
   * report, and the dataset's values stay as they were (a swap is one transaction). In the transaction that fails
   * the job; what it staged is discarded by the next import's run.
   */
  private async gaveUp({ clientId, importId }: DatasetImportPayload, trx: Transaction<Tables>): Promise<void> {
    const tx = this.work.on(trx).read;
    const found = await tx.datasetImports.find(clientId, importId);
    if (!found || found.status === 'finished') return;
    const entry = { type: 'internal_error' as const, line: null, field: '', ...JOB_GAVE_UP };
    const outcome = { stats: { ...EMPTY_STATS, internalErrors: 1 }, report: [entry], dimensions: 0, values: 0 };
    if (await tx.datasetImports.finish(clientId, importId, { ...outcome, result: 'error' }, this.clock.now())) {
      await tx.datasets.markImport(clientId, found.datasetId, 'finished', 'error');
    }
  }

  private async run(job: Job<DatasetImportPayload>, context: JobContext): Promise<void> {
    const { clientId, importId } = job.payload;
    const read = this.work.read;
    const found = await read.datasetImports.find(clientId, importId);
    if (!found) return;
    // Finished, maybe just before a crash: what its swap replaced may still be there.
    if (found.status === 'finished') {
      await this.replacement.discardLeftovers(clientId, context);
      return;
    }
    await read.datasetImports.start(clientId, importId, this.clock.now());
    await read.datasets.markImport(clientId, found.datasetId, 'in_progress', null);
    const dataset = await read.datasets.find(clientId, found.datasetId);
    const dimensions = dataset?.dimensions.map((d) => d.id) ?? [];
    const file = await this.readFile(found, dataset, dimensions, context);
    if (!file) return;
    const stats = {
      ...EMPTY_STATS,
      rows: file.rows,
      globalErrors: file.globalErrors,
      rowErrors: file.rowErrors,
      warnings: file.warnings,
    };
    const outcome = { stats, report: file.report, dimensions: dimensions.length };
    if (file.failed || !dataset) {
      await this.work.run(async ({ datasetImports, datasets }) => {
        const failed = { ...outcome, result: 'error' as const, values: 0 };
        if (await datasetImports.finish(clientId, importId, failed, this.clock.now())) {
          await datasets.markImport(clientId, found.datasetId, 'finished', 'error');
        }
      });
      return;
    }
    const existing = await this.replacement.stage(clientId, importId, dataset, file.inDepthOrder(), context);
    if (existing === undefined) return;
    await this.replacement.swap(clientId, importId, dataset, file.count, existing, outcome);
    // The replaced values, or the staging of an import that could not swap (its dataset gone, or ended already).
    await this.replacement.discardLeftovers(clientId, context);
  }

  /** Reads the file, yielding to the event loop every CELLS_PER_TURN cells; undefined when the claim was lost. */
  private async readFile(
    found: DatasetImportRecord,
    dataset: DatasetRecord | undefined,
    dimensions: string[],
    context: JobContext,
  ): Promise<DatasetCsv | undefined> {
    const file = new DatasetCsv(dimensions, MAX_VALUES);
    if (!dataset) {
      file.add({
        type: 'global_error',
        line: null,
        field: 'dataset_id',
        code: 'not_found',
        message: 'The dataset is gone.',
      });
      return file;
    }
    const budget = new TurnBudget(CELLS_PER_TURN);
    let turns = 0;
    try {
      for await (const record of csvRecords(await this.blobs.read(found.sha256))) {
        if (!file.read(record)) break;
        // A long file: let the server answer meanwhile, and keep the lease.
        if ((await budget.spend(record.cells.length)) && ++turns % 10 === 0 && !(await context.heartbeat())) {
          return undefined;
        }
      }
      file.end();
    } catch (error) {
      if (!(error instanceof CsvFormatError)) throw error;
      file.add({ type: 'global_error', line: error.line, field: '', code: 'invalid_csv', message: error.message });
    }
    return file;
  }
}
