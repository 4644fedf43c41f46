import type { Selectable } from 'kysely';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { ImportType } from './schemas.js';
import type { HrImportsTable } from './tables.js';

export type ImportStatus = 'created' | 'in_progress' | 'success' | 'partial_success' | 'failed';

export interface ImportRecord {
  id: string;
  type: ImportType;
  creator: string | null;
  status: ImportStatus;
  filename: string;
  sha256: string;
  size: number;
  operationId: string;
  loaded: boolean;
  rowsCount: number;
  createdCount: number;
  updatedCount: number;
  errorsCount: number;
  message: string | null;
  startedAt: number | null;
  finishedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface ImportFilter {
  type?: ImportType;
  createdSince?: number;
  createdUntil?: number;
}

const ORDER: ListOrder = { tiebreak: 'i.pk' };

function toRecord(row: Selectable<HrImportsTable>): ImportRecord {
  const n = (v: number | null) => (v === null ? null : Number(v));
  return {
    id: row.id,
    type: row.type as ImportType,
    creator: row.creator,
    status: row.status as ImportStatus,
    filename: row.filename,
    sha256: row.sha256,
    size: Number(row.size),
    operationId: row.operation_id,
    loaded: Number(row.loaded) === 1,
    rowsCount: Number(row.rows_count),
    createdCount: Number(row.created_count),
    updatedCount: Number(row.updated_count),
    errorsCount: Number(row.errors_count),
    message: row.message,
    startedAt: n(row.started_at),
    finishedAt: n(row.finished_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export class ImportsRepository extends HrRepository {
  async insert(
    clientId: HrTenantId,
    row: {
      id: string;
      type: ImportType;
      creator: string | null;
      filename: string;
      sha256: string;
      size: number;
      operationId: string;
    },
    jobId: number,
    at: number,
  ): Promise<void> {
    await this.tenant(clientId)
      .insertInto('hr_imports', {
        id: row.id,
        type: row.type,
        creator: row.creator,
        status: 'created',
        filename: row.filename,
        sha256: row.sha256,
        size: row.size,
        operation_id: row.operationId,
        loaded: 0,
        rows_count: 0,
        created_count: 0,
        updated_count: 0,
        errors_count: 0,
        message: null,
        job_id: jobId,
        started_at: null,
        finished_at: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }

  /**
   * The client's imports still running: not ended, and their job still due or running (one whose job gave up or was
   * cancelled by an operator holds no slot). Read by the cap on concurrent imports (partial index of 0044).
   */
  async running(clientId: HrTenantId): Promise<number> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_imports as i')
      .innerJoin('jobs as j', 'j.id', 'i.job_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('i.status', 'in', ['created', 'in_progress'])
      .where('j.status', 'in', ['pending', 'running'])
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async find(clientId: HrTenantId, id: string): Promise<ImportRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_imports as i')
      .selectAll('i')
      .where('i.id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async page(clientId: HrTenantId, filter: ImportFilter, request: PageRequest): Promise<Page<ImportRecord>> {
    let q = this.tenant(clientId).selectFrom('hr_imports as i').selectAll('i');
    if (filter.type !== undefined) q = q.where('i.type', '=', filter.type);
    if (filter.createdSince !== undefined) q = q.where('i.created_at', '>=', filter.createdSince);
    if (filter.createdUntil !== undefined) q = q.where('i.created_at', '<', filter.createdUntil);
    const page = await listPage(q, ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  /** The job has started reading the file. */
  async start(clientId: HrTenantId, id: string, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_imports as i')
      .set({ status: 'in_progress', started_at: at, updated_at: at })
      .where('i.id', '=', id)
      .where('i.status', '=', 'created')
      .execute();
  }

  /** Every row of the file is an item now: the rows count, and what the header left aside. */
  async loaded(clientId: HrTenantId, id: string, rows: number, message: string | null, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_imports as i')
      .set({ loaded: 1, rows_count: rows, message, updated_at: at })
      .where('i.id', '=', id)
      .execute();
  }

  /** How the import ended. */
  async finish(
    clientId: HrTenantId,
    id: string,
    outcome: {
      status: 'success' | 'partial_success' | 'failed';
      created: number;
      updated: number;
      errors: number;
      rows?: number;
      message?: string | null;
    },
    at: number,
  ): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_imports as i')
      .set({
        status: outcome.status,
        created_count: outcome.created,
        updated_count: outcome.updated,
        errors_count: outcome.errors,
        ...(outcome.rows !== undefined ? { rows_count: outcome.rows } : {}),
        ...(outcome.message !== undefined ? { message: outcome.message } : {}),
        finished_at: at,
        updated_at: at,
      })
      .where('i.id', '=', id)
      .execute();
  }
}
