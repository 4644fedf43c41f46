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
import { yieldToLoop } from '../../../platform/tick.js';
import { type Clock, parseDateOrDateTime } from '../../../platform/time.js';
import { afterWork, currentCaller } from '../../audit/actor.js';
import type { Audited } from '../../module.js';
import type { BulkRepository, BulkResource, SettledBulkItem } from '../bulk/repository.js';
import { type BulkService, JOB_GAVE_UP, MANY_ROWS_MAX_ATTEMPTS } from '../bulk/service.js';
import type { UploadsRepository } from '../uploads/repository.js';
import type { UploadsService } from '../uploads/service.js';
import type { UsersRepository } from '../users/repository.js';
import { importEvents } from './events.js';
import { ImportLayout } from './layout.js';
import { presentImport } from './present.js';
import type { ImportFilter, ImportRecord, ImportsRepository } from './repository.js';
import type { ImportCreate, ImportListQuery, ImportType } from './schemas.js';

/** The job queue imports run on. */
export const IMPORT_QUEUE = 'hr.import';

export interface ImportPayload {
  clientId: HrTenantId;
  importId: string;
}

export interface ImportsWork {
  imports: ImportsRepository;
  bulk: BulkRepository;
  uploads: UploadsRepository;
  users: UsersRepository;
}

/** Rows read from the file and stored as items at a time, at most (fewer when they are wide: CELLS_PER_TURN). */
const LOAD_BATCH = 1000;
/** CSV cells read, and stored as items, between two turns of the event loop. */
const CELLS_PER_TURN = 20_000;

const RESOURCE: Record<ImportType, BulkResource> = {
  employee: 'employees',
  organization: 'organizations',
  manager: 'users',
};

const DAY_MS = 86_400_000;

/**
 * CSV imports (reference §5.3). The import, a bulk operation for its rows and its job are stored together with the
 * upload's consumption. The job reads the file into the operation's items (one per row, a row that cannot be read
 * failing at once), then the bulk machinery applies them one by one, each settled in its own write's transaction,
 * so a job taken over after a crash never applies a row twice. Reading the file again after a crash starts over:
 * nothing was applied before every row was stored.
 */
export class ImportsService {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<ImportsWork>>,
    private readonly uploads: UploadsService,
    private readonly bulk: BulkService,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly wake: () => void,
    /** `ATRIUM_MAX_CONCURRENT_IMPORTS`: one more while this many run is 429, and writes nothing. */
    private readonly maxConcurrent: number,
  ) {}

  async create(clientId: HrTenantId, input: ImportCreate): Promise<ImportRecord> {
    const id = randomUUID();
    const operationId = randomUUID();
    const caller = currentCaller();
    const cap: TenantCap = { what: 'imports', limit: this.maxConcurrent, setting: 'ATRIUM_MAX_CONCURRENT_IMPORTS' };
    const created = await this.work.run(async ({ imports, bulk, uploads, users, audit }) => {
      await checkTenantCap(imports.db, clientId, cap, () => imports.running(clientId));
      const at = this.clock.now();
      const creator = input.creator ?? null;
      if (creator !== null && !(await users.find(clientId, creator))) {
        throw new FieldValidationError([{ field: 'creator', code: 'not_found', message: 'No HR user has this id.' }]);
      }
      const upload = await this.uploads.consume(uploads, clientId, input.uploaded_file.file_id, {
        field: 'uploaded_file.file_id',
      });
      const payload: ImportPayload = { clientId, importId: id };
      const jobId = await enqueue(
        imports.db,
        { queue: IMPORT_QUEUE, tenant: clientId, orderingKey: `hr-sync:${clientId}`, payload },
        at,
      );
      const resource = RESOURCE[input.type];
      const action = input.type === 'manager' ? 'upsert' : 'replace';
      await bulk.insertOperation(clientId, { id: operationId, resource, action, caller, jobId, createdAt: at }, 0);
      await imports.insert(
        clientId,
        {
          id,
          type: input.type,
          creator,
          filename: input.uploaded_file.filename ?? upload.filename,
          sha256: upload.sha256,
          size: upload.size,
          operationId,
        },
        jobId,
        at,
      );
      const record = (await imports.find(clientId, id)) as ImportRecord;
      await audit.record(clientId, importEvents, 'created', {
        id,
        name: record.filename,
        data: presentImport(record),
      });
      return record;
    });
    afterWork(this.wake);
    return created;
  }

  async get(clientId: HrTenantId, id: string): Promise<ImportRecord> {
    const found = await this.work.read.imports.find(clientId, id);
    if (!found) throw new NotFoundError('import', id);
    return this.withProgress(clientId, found);
  }

  /** While it runs, the counts of an import are those of its rows settled so far. */
  private async withProgress(clientId: HrTenantId, record: ImportRecord): Promise<ImportRecord> {
    if (record.status !== 'in_progress' || !record.loaded) return record;
    const counts = await this.work.read.bulk.counts(clientId, record.operationId);
    return { ...record, createdCount: counts.created, updatedCount: counts.updated, errorsCount: counts.failed };
  }

  async list(clientId: HrTenantId, query: ImportListQuery, request: PageRequest): Promise<Page<ImportRecord>> {
    const filter: ImportFilter = {};
    if (query.type !== undefined) filter.type = query.type;
    const since = query.created_at_since === undefined ? undefined : parseDateOrDateTime(query.created_at_since);
    const until = query.created_at_until === undefined ? undefined : parseDateOrDateTime(query.created_at_until);
    if (since !== undefined) filter.createdSince = since;
    if (until !== undefined) filter.createdUntil = until + DAY_MS;
    const page = await this.work.read.imports.page(clientId, filter, request);
    return { ...page, items: await Promise.all(page.items.map((i) => this.withProgress(clientId, i))) };
  }

  /**
   * The rows of a finished import, in file order, a page at a time (the XML reports stream them): every settled
   * row, or only the failed ones. 403 before the import ends, with the reference's code for each report.
   */
  async finished(
    clientId: HrTenantId,
    id: string,
    onlyFailed: boolean,
  ): Promise<{
    record: ImportRecord;
    rows: (afterIndex: number, limit: number) => Promise<(SettledBulkItem & { input: unknown })[]>;
  }> {
    const record = await this.get(clientId, id);
    if (record.status === 'created' || record.status === 'in_progress') {
      throw onlyFailed
        ? new ForbiddenError(
            'source_errors_file_not_ready',
            'The import has not ended: its errors report is not ready yet.',
          )
        : new ForbiddenError('report_file_not_ready', 'The import has not ended: its report is not ready yet.');
    }
    // Its rows are deleted with its bulk operation once ATRIUM_BULK_RETENTION_DAYS have passed (the counts stay).
    if (record.loaded && !(await this.work.read.bulk.find(clientId, record.operationId))) {
      throw new NotFoundError(
        'report',
        id,
        'The rows of this import were deleted after the retention period (ATRIUM_BULK_RETENTION_DAYS); its counts remain.',
      );
    }
    return {
      record,
      rows: (afterIndex, limit) =>
        this.work.read.bulk.settledPage(clientId, record.operationId, afterIndex, limit, onlyFailed),
    };
  }

  queue(): QueueOptions<ImportPayload> {
    return {
      handle: (job, context) => this.run(job, context),
      maxAttempts: MANY_ROWS_MAX_ATTEMPTS,
      onGiveUp: (job, trx) => this.clock.runAs(`hr:${job.payload.clientId}`, () => this.gaveUp(job.payload, trx)),
    };
  }

  /**
   * Its job failed for good: the rows not applied fail with `job_failed`, and the import ends `failed` (or
   * `partial_success` when some rows were applied), with the same message. In the transaction that fails the job.
   */
  private async gaveUp({ clientId, importId }: ImportPayload, trx: Transaction<Tables>): Promise<void> {
    const tx = this.work.on(trx).read;
    const found = await tx.imports.find(clientId, importId);
    if (!found || (found.status !== 'created' && found.status !== 'in_progress')) return;
    const at = this.clock.now();
    await tx.bulk.abandon(clientId, found.operationId, JOB_GAVE_UP, at);
    const counts = await tx.bulk.counts(clientId, found.operationId);
    const applied = counts.created + counts.updated;
    await tx.imports.finish(
      clientId,
      importId,
      {
        status: applied === 0 ? 'failed' : 'partial_success',
        created: counts.created,
        updated: counts.updated,
        errors: counts.failed,
        message: JOB_GAVE_UP.message,
      },
      at,
    );
  }

  private async run(job: Job<ImportPayload>, context: JobContext): Promise<void> {
    const { clientId, importId } = job.payload;
    const read = this.work.read;
    const found = await read.imports.find(clientId, importId);
    if (!found || (found.status !== 'created' && found.status !== 'in_progress')) return;
    await read.imports.start(clientId, importId, this.clock.now());
    if (!found.loaded && !(await this.load(clientId, found, context))) return;
    if (!(await this.bulk.applyPending(clientId, found.operationId, context))) return;
    const counts = await read.bulk.counts(clientId, found.operationId);
    const applied = counts.created + counts.updated;
    await read.imports.finish(
      clientId,
      importId,
      {
        status: counts.failed === 0 ? 'success' : applied === 0 ? 'failed' : 'partial_success',
        created: counts.created,
        updated: counts.updated,
        errors: counts.failed,
      },
      this.clock.now(),
    );
  }

  /**
   * Reads the file into the operation's items, a batch at a time (memory does not grow with the file). A file that
   * cannot be read (not UTF-8, an unclosed quote, no key column) fails the import before any row is applied.
   * Answers whether the rows are ready to apply.
   */
  private async load(clientId: HrTenantId, record: ImportRecord, context: JobContext): Promise<boolean> {
    const bulk = this.work.read.bulk;
    // A crash while reading left some rows stored: start over (none was applied yet).
    await this.resetItems(clientId, record.operationId);
    const layout = new ImportLayout(record.type);
    let batch: { index: number; input: unknown; failure?: { code: string; message: string } }[] = [];
    let rows = 0;
    /** Rows that could not even be read into an item: stored failed, and counted on the call at the end. */
    let unreadable = 0;
    let failure: string | undefined;
    let cells = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      await bulk.insertItems(clientId, record.operationId, batch, this.clock.now());
      batch = [];
      cells = 0;
    };
    try {
      let header = true;
      for await (const { cells: rowCells, line } of csvRecords(await this.blobs.read(record.sha256))) {
        if (header) {
          header = false;
          failure = layout.header(rowCells);
          if (failure) break;
          continue;
        }
        rows++;
        const row = layout.row(rowCells);
        if (row.failure) unreadable++;
        batch.push({ index: line, input: row.input, ...(row.failure ? { failure: row.failure } : {}) });
        cells += rowCells.length;
        if (batch.length >= LOAD_BATCH || cells >= CELLS_PER_TURN) {
          await flush();
          if (!(await context.heartbeat())) return false;
          await yieldToLoop();
        }
      }
      if (header) failure = 'The file is empty.';
      if (!failure) await flush();
    } catch (error) {
      if (!(error instanceof CsvFormatError)) throw error;
      failure = error.line === null ? error.message : `Line ${error.line}: ${error.message}`;
    }
    const at = this.clock.now();
    if (failure) {
      await this.resetItems(clientId, record.operationId);
      await this.work.read.imports.finish(
        clientId,
        record.id,
        { status: 'failed', created: 0, updated: 0, errors: 0, rows, message: failure },
        at,
      );
      return false;
    }
    await bulk.setTotal(clientId, record.operationId, rows, unreadable);
    const message = layout.ignored.length ? `Columns ignored: ${layout.ignored.join(', ')}.` : null;
    await this.work.read.imports.loaded(clientId, record.id, rows, message, at);
    return true;
  }

  /** Deletes the items read so far, a batch per turn of the event loop. */
  private async resetItems(clientId: HrTenantId, operationId: string): Promise<void> {
    while ((await this.work.read.bulk.resetItems(clientId, operationId, LOAD_BATCH)) === LOAD_BATCH) {
      await yieldToLoop();
    }
  }
}
