import { randomUUID } from 'node:crypto';
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
import type { Clock } from '../../../platform/time.js';
import { afterWork, currentCaller } from '../../audit/actor.js';
import type { Audited } from '../../module.js';
import type { DatasetsRepository } from '../datasets/repository.js';
import { MAX_VALUES } from '../datasets/schemas.js';
import type { UploadsRepository } from '../uploads/repository.js';
import type { UploadsService } from '../uploads/service.js';
import { datasetImportEvents } from './events.js';
import { DatasetCsv } from './layout.js';
import { presentDatasetImport } from './present.js';
import type { DatasetImportRecord, DatasetImportsRepository, ImportReportEntry } from './repository.js';
import { EMPTY_STATS } from './repository.js';
import type { DatasetImportCreate } from './schemas.js';

/** The job queue dataset imports run on. */
export const DATASET_IMPORT_QUEUE = 'hr.dataset_import';

export interface DatasetImportPayload {
  clientId: HrTenantId;
  importId: string;
}

export interface DatasetImportsWork {
  datasetImports: DatasetImportsRepository;
  datasets: DatasetsRepository;
  uploads: UploadsRepository;
}

/**
 * Dataset imports (reference §5.2): a CSV replaces every value of a dataset, all or nothing. The import and its
 * job are stored with the upload's consumption; the job reads the file, and either replaces the values and marks
 * the import finished in one transaction, or marks it failed with its report and changes nothing.
 */
export class DatasetImportsService {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<DatasetImportsWork>>,
    private readonly uploads: UploadsService,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly wake: () => void,
    /** `ATRIUM_MAX_CONCURRENT_DATASET_IMPORTS`: one more while this many run is 429, and writes nothing. */
    private readonly maxConcurrent: number,
  ) {}

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
    return { handle: (job, context) => this.run(job, context) };
  }

  private async run(job: Job<DatasetImportPayload>, context: JobContext): Promise<void> {
    const { clientId, importId } = job.payload;
    const read = this.work.read;
    const found = await read.datasetImports.find(clientId, importId);
    if (!found || found.status === 'finished') return;
    await read.datasetImports.start(clientId, importId, this.clock.now());
    await read.datasets.markImport(clientId, found.datasetId, 'in_progress', null);
    const dataset = await read.datasets.find(clientId, found.datasetId);
    const dimensions = dataset?.dimensions.map((d) => d.id) ?? [];
    const file = new DatasetCsv(dimensions, MAX_VALUES);
    if (!dataset) {
      file.add({
        type: 'global_error',
        line: null,
        field: 'dataset_id',
        code: 'not_found',
        message: 'The dataset is gone.',
      });
    } else {
      try {
        for await (const record of csvRecords(await this.blobs.read(found.sha256))) {
          if (!file.read(record)) break;
          // A long file: keep the lease, and let the server answer meanwhile.
          if (record.line % 10_000 === 0 && record.line > 0) {
            if (!(await context.heartbeat())) return;
            await new Promise((resolve) => setImmediate(resolve));
          }
        }
        file.end();
      } catch (error) {
        if (!(error instanceof CsvFormatError)) throw error;
        file.add({ type: 'global_error', line: error.line, field: '', code: 'invalid_csv', message: error.message });
      }
    }
    const stats = {
      ...EMPTY_STATS,
      rows: file.rows,
      globalErrors: file.globalErrors,
      rowErrors: file.rowErrors,
      warnings: file.warnings,
    };
    await this.work.run(async ({ datasetImports, datasets }) => {
      const at = this.clock.now();
      if (file.failed || !dataset) {
        const outcome = {
          result: 'error' as const,
          stats,
          report: file.report,
          dimensions: dimensions.length,
          values: 0,
        };
        if (await datasetImports.finish(clientId, importId, outcome, at)) {
          await datasets.markImport(clientId, found.datasetId, 'finished', 'error');
        }
        return;
      }
      // Delete all and replace, in this one transaction: a crash before it commits changes nothing.
      if (!(await datasets.lock(clientId, found.datasetId))) throw new Error('the dataset was deleted');
      const before = await datasets.valueIds(clientId, found.datasetId);
      const values = [...file.values.values()].sort((a, b) => a.depth - b.depth);
      let updated = 0;
      for (const v of values) if (before.has(v.id)) updated++;
      const outcome = {
        result: 'success' as const,
        stats: {
          ...stats,
          valuesCreated: values.length - updated,
          valuesUpdated: updated,
          valuesDeleted: before.size - updated,
        },
        report: file.report,
        dimensions: dimensions.length,
        values: values.length,
      };
      if (!(await datasetImports.finish(clientId, importId, outcome, at))) return;
      await datasets.deleteAllValues(clientId, found.datasetId);
      await datasets.insertValues(clientId, found.datasetId, values, at);
      await datasets.setValuesCount(clientId, found.datasetId, values.length, at);
      await datasets.markImport(clientId, found.datasetId, 'finished', 'success');
    });
  }
}
