import type { Selectable } from 'kysely';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { DatasetImportStats } from './schemas.js';
import type { HrDatasetImportsTable } from './tables.js';

/** One entry of an import's report (`DatasetImportErrorFull`). */
export interface ImportReportEntry {
  type: 'global_error' | 'internal_error' | 'row_error' | 'warning';
  /** The CSV record (0 for the header), or null for the whole file. */
  line: number | null;
  field: string;
  code: string;
  message: string;
}

/** What an import counted (the wire's `stats`). */
export interface DatasetImportStatsRecord {
  rows: number;
  globalErrors: number;
  rowErrors: number;
  warnings: number;
  internalErrors: number;
  dimensionsCreated: number;
  valuesCreated: number;
  valuesUpdated: number;
  valuesDeleted: number;
}

export interface DatasetImportRecord {
  id: string;
  datasetId: string;
  filename: string;
  sha256: string;
  size: number;
  status: 'queued' | 'in_progress' | 'finished';
  result: 'success' | 'error' | null;
  creatorId: string | null;
  totalDimensionsCount: number;
  totalValuesCount: number;
  stats: DatasetImportStatsRecord;
  report: ImportReportEntry[];
  startedAt: number | null;
  finishedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export const EMPTY_STATS: DatasetImportStatsRecord = {
  rows: 0,
  globalErrors: 0,
  rowErrors: 0,
  warnings: 0,
  internalErrors: 0,
  dimensionsCreated: 0,
  valuesCreated: 0,
  valuesUpdated: 0,
  valuesDeleted: 0,
};

/** The counts as stored: in the wire's names. */
export function storedStats(stats: DatasetImportStatsRecord): DatasetImportStats {
  return {
    rows: stats.rows,
    global_errors: stats.globalErrors,
    row_errors: stats.rowErrors,
    warnings: stats.warnings,
    internal_errors: stats.internalErrors,
    dimensions_created: stats.dimensionsCreated,
    values_created: stats.valuesCreated,
    values_updated: stats.valuesUpdated,
    values_deleted: stats.valuesDeleted,
  };
}

function toStats(stored: DatasetImportStats): DatasetImportStatsRecord {
  return {
    rows: stored.rows,
    globalErrors: stored.global_errors,
    rowErrors: stored.row_errors,
    warnings: stored.warnings,
    internalErrors: stored.internal_errors,
    dimensionsCreated: stored.dimensions_created,
    valuesCreated: stored.values_created,
    valuesUpdated: stored.values_updated,
    valuesDeleted: stored.values_deleted,
  };
}

const ORDER: ListOrder = { tiebreak: 'i.pk' };

function toRecord(row: Selectable<HrDatasetImportsTable>): DatasetImportRecord {
  const n = (v: number | null) => (v === null ? null : Number(v));
  return {
    id: row.id,
    datasetId: row.dataset_id,
    filename: row.filename,
    sha256: row.sha256,
    size: Number(row.size),
    status: row.status as DatasetImportRecord['status'],
    result: row.result as DatasetImportRecord['result'],
    creatorId: row.creator_id,
    totalDimensionsCount: Number(row.total_dimensions_count),
    totalValuesCount: Number(row.total_values_count),
    stats: toStats(JSON.parse(row.stats) as DatasetImportStats),
    report: JSON.parse(row.report) as ImportReportEntry[],
    startedAt: n(row.started_at),
    finishedAt: n(row.finished_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export class DatasetImportsRepository extends HrRepository {
  private imports(clientId: HrTenantId) {
    return this.tenant(clientId).selectFrom('hr_dataset_imports as i').selectAll('i');
  }

  async insert(
    clientId: HrTenantId,
    row: { id: string; datasetId: string; filename: string; sha256: string; size: number; creatorId: string | null },
    jobId: number,
    at: number,
  ): Promise<void> {
    await this.tenant(clientId)
      .insertInto('hr_dataset_imports', {
        id: row.id,
        dataset_id: row.datasetId,
        filename: row.filename,
        sha256: row.sha256,
        size: row.size,
        status: 'queued',
        result: null,
        creator_id: row.creatorId,
        total_dimensions_count: 0,
        total_values_count: 0,
        stats: JSON.stringify(storedStats(EMPTY_STATS)),
        report: '[]',
        job_id: jobId,
        started_at: null,
        finished_at: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }

  /**
   * The client's dataset imports still running: not finished, and their job still due or running (one whose job gave
   * up or was cancelled by an operator holds no slot). Read by the cap on concurrent dataset imports.
   */
  async running(clientId: HrTenantId): Promise<number> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_dataset_imports as i')
      .innerJoin('jobs as j', 'j.id', 'i.job_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('i.status', 'in', ['queued', 'in_progress'])
      .where('j.status', 'in', ['pending', 'running'])
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async find(clientId: HrTenantId, id: string): Promise<DatasetImportRecord | undefined> {
    const row = await this.imports(clientId).where('i.id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async page(
    clientId: HrTenantId,
    filter: { datasetId?: string },
    request: PageRequest,
  ): Promise<Page<DatasetImportRecord>> {
    let q = this.imports(clientId);
    if (filter.datasetId !== undefined) q = q.where('i.dataset_id', '=', filter.datasetId);
    const page = await listPage(q, ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  async start(clientId: HrTenantId, id: string, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_dataset_imports as i')
      .set({ status: 'in_progress', started_at: at, updated_at: at })
      .where('i.id', '=', id)
      .where('i.status', '=', 'queued')
      .execute();
  }

  /** Writes how the import ended, unless it had (answers whether it wrote). */
  async finish(
    clientId: HrTenantId,
    id: string,
    outcome: {
      result: 'success' | 'error';
      stats: DatasetImportStatsRecord;
      report: ImportReportEntry[];
      dimensions: number;
      values: number;
    },
    at: number,
  ): Promise<boolean> {
    const result = await this.tenant(clientId)
      .updateTable('hr_dataset_imports as i')
      .set({
        status: 'finished',
        result: outcome.result,
        stats: JSON.stringify(storedStats(outcome.stats)),
        report: JSON.stringify(outcome.report),
        total_dimensions_count: outcome.dimensions,
        total_values_count: outcome.values,
        finished_at: at,
        updated_at: at,
      })
      .where('i.id', '=', id)
      .where('i.status', '!=', 'finished')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
