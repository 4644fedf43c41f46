import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { withLightCommits } from '../../../platform/db/transaction.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import type { JobContext } from '../../../platform/jobs/index.js';
import { yieldToLoop } from '../../../platform/tick.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import type { DatasetRecord, DatasetsRepository } from '../datasets/repository.js';
import type { UploadsRepository } from '../uploads/repository.js';
import type { ImportedValue } from './layout.js';
import type { DatasetImportStatsRecord, DatasetImportsRepository, ImportReportEntry } from './repository.js';
import { type DatasetStagingRepository, stagingKey } from './staging-repository.js';

/** The repositories of a dataset import's unit of work. */
export interface DatasetImportsWork {
  datasetImports: DatasetImportsRepository;
  datasets: DatasetsRepository;
  staging: DatasetStagingRepository;
  uploads: UploadsRepository;
}

/** Values written, or rows deleted, per transaction: a few milliseconds of SQLite each, then the loop's turn. */
export const VALUES_PER_TURN = 1000;
/** Batches between two heartbeats of the job's lease. */
const BATCHES_PER_HEARTBEAT = 20;

/** What a successful import writes on its record (the counts of values are the swap's). */
export interface ReplaceOutcome {
  stats: DatasetImportStatsRecord;
  report: ImportReportEntry[];
  dimensions: number;
}

/**
 * Replaces a dataset's values, all or nothing, without holding the event loop (docs/imports.md, "Dataset imports"):
 * the values are staged under the import's own key a batch per transaction, the loop getting its turn between
 * batches; then one short transaction points the dataset at them (`values_key`) and lists its old key to discard;
 * the old rows are then deleted a batch per transaction. Readers see the old values until the swap commits and the
 * new ones after; a crash before it leaves the old values and a staging that the job's next attempt deletes.
 */
export class DatasetValuesReplacement {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<DatasetImportsWork>>,
    private readonly clock: Clock,
  ) {}

  /**
   * Stages `values` (parents first, made as they are taken) under the import's key; answers how many of them the
   * dataset holds already, or undefined when the job's claim was lost.
   */
  async stage(
    clientId: HrTenantId,
    importId: string,
    dataset: DatasetRecord,
    values: Iterable<ImportedValue>,
    context: JobContext,
  ): Promise<number | undefined> {
    const key = stagingKey(importId);
    // Listed first, owned by the import: if the job is given up, its staging is discarded once the import ends.
    await this.work.read.staging.discard(clientId, key, importId, this.clock.now());
    // An earlier attempt's staging (a crash, a lost claim): start over.
    if (!(await this.empty(clientId, key, context))) return undefined;
    try {
      return await this.stageAll(clientId, key, dataset, values, context);
    } catch (error) {
      // A batch failed: delete what was staged (the old values were never touched), and let the job retry.
      await this.empty(clientId, key, context).catch(() => undefined);
      throw error;
    }
  }

  private async stageAll(
    clientId: HrTenantId,
    key: string,
    dataset: DatasetRecord,
    values: Iterable<ImportedValue>,
    context: JobContext,
  ): Promise<number | undefined> {
    let existing = 0;
    let batch = 0;
    for (const slice of chunks(values, VALUES_PER_TURN)) {
      batch++;
      // Not flushed one by one: the swap's ordinary commit flushes them all; a crash before it stages them again.
      existing += await withLightCommits(() =>
        this.work.run(async ({ datasets, staging }) => {
          await datasets.insertValues(clientId, key, slice, this.clock.now());
          return staging.countExisting(
            clientId,
            dataset.valuesKey,
            slice.map((v) => v.id),
          );
        }),
      );
      if (batch % BATCHES_PER_HEARTBEAT === 0 && !(await context.heartbeat())) return undefined;
      await yieldToLoop();
    }
    return existing;
  }

  /**
   * The swap, in one short transaction: the dataset's values become the staged ones, the import is finished with
   * its counts, and the old values' key is listed to discard. Answers false when the dataset is gone (the staging
   * is then discarded) or the import had already ended.
   */
  async swap(
    clientId: HrTenantId,
    importId: string,
    expected: DatasetRecord,
    count: number,
    existing: number,
    outcome: ReplaceOutcome,
  ): Promise<boolean> {
    const key = stagingKey(importId);
    return this.work.run(async ({ datasetImports, datasets, staging }) => {
      const at = this.clock.now();
      const dataset = await datasets.lock(clientId, expected.id);
      if (!dataset) {
        await staging.discard(clientId, key, null, at);
        const gone = { code: 'not_found', message: 'The dataset was deleted during the import.' };
        const report = [...outcome.report, { type: 'global_error' as const, line: null, field: 'dataset_id', ...gone }];
        const stats = { ...outcome.stats, globalErrors: outcome.stats.globalErrors + 1 };
        await datasetImports.finish(
          clientId,
          importId,
          { result: 'error', stats, report, dimensions: outcome.dimensions, values: 0 },
          at,
        );
        return false;
      }
      // Imports of one dataset run one at a time (their jobs' ordering key): another swap means a bug, or a restore.
      if (dataset.valuesKey !== expected.valuesKey) throw new Error('the dataset’s values changed during the import');
      const stats = {
        ...outcome.stats,
        valuesCreated: count - existing,
        valuesUpdated: existing,
        valuesDeleted: Math.max(0, dataset.valuesCount - existing),
      };
      const finished = await datasetImports.finish(
        clientId,
        importId,
        { result: 'success', stats, report: outcome.report, dimensions: outcome.dimensions, values: count },
        at,
      );
      if (!finished) return false;
      await datasets.swapValues(clientId, dataset.id, key, count, at);
      await datasets.markImport(clientId, dataset.id, 'finished', 'success');
      await staging.keep(clientId, key);
      await staging.discard(clientId, dataset.valuesKey, null, at);
      return true;
    });
  }

  /**
   * Deletes the rows of every key the client has to discard that no running import stages under, a batch per
   * transaction; answers false when the job's claim was lost.
   */
  async discardLeftovers(clientId: HrTenantId, context: JobContext): Promise<boolean> {
    for (const key of await this.work.read.staging.discardable(clientId)) {
      if (!(await this.empty(clientId, key, context))) return false;
      await this.work.read.staging.keep(clientId, key);
    }
    return true;
  }

  /** Deletes every row stored under the key, a batch per transaction. */
  private async empty(clientId: HrTenantId, key: string, context: JobContext): Promise<boolean> {
    for (let batch = 1; ; batch++) {
      const deleted = await withLightCommits(() =>
        this.work.run(({ staging }) => staging.deleteSome(clientId, key, VALUES_PER_TURN)),
      );
      await yieldToLoop();
      if (deleted < VALUES_PER_TURN) return true;
      if (batch % BATCHES_PER_HEARTBEAT === 0 && !(await context.heartbeat())) return false;
    }
  }
}

/** The items of `items`, `size` at a time (the last chunk may be shorter). */
function* chunks<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let chunk: T[] = [];
  for (const item of items) {
    chunk.push(item);
    if (chunk.length === size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}
