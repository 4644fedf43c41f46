import type { Selectable } from 'kysely';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { DatasetField } from '../../../platform/docgen/types.js';
import type { HrDocgenCampaignRowsTable, HrDocgenCampaignsTable } from './tables.js';

export type CampaignStatus = HrDocgenCampaignsTable['status'];
export type OutputAction = HrDocgenCampaignsTable['output_action'];
export type RowStatus = HrDocgenCampaignRowsTable['status'];

/** A document generation campaign (reference §5.5, `DocGenCampaignResponse`). */
export interface CampaignRecord {
  pk: number;
  id: string;
  title: string;
  templateId: string;
  templateVersion: number;
  outputAction: OutputAction;
  format: HrDocgenCampaignsTable['format'];
  creatorRef: string | null;
  documentTypeId: string | null;
  status: CampaignStatus;
  rowCount: number;
  /** The result (a zip or a PDF), once completed; null for `archive`. */
  sha256: string | null;
  size: number | null;
  startedAt: number | null;
  endedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** A row of a campaign's dataset, and what became of it. */
export interface CampaignRowRecord {
  index: number;
  employeeId: string | null;
  ref: string | null;
  status: RowStatus;
  error: string | null;
  sha256: string | null;
  documentId: string | null;
}

/** A row's dataset, as sent. */
export interface RowData {
  fields: DatasetField[];
  fragmentFields: { slug: string; fields: DatasetField[] }[];
}

/** A new campaign's row. */
export interface NewRow {
  employeeId: string | null;
  ref: string | null;
  data: RowData;
}

export type NewCampaign = Omit<CampaignRecord, 'pk' | 'sha256' | 'size' | 'startedAt' | 'endedAt' | 'updatedAt'>;

/** Per-row counts of a campaign. */
export interface RowCounts {
  total: number;
  generated: number;
  failed: number;
}

type StoredData = { fields: DatasetField[]; fragment_fields: Record<string, DatasetField[]> };

function toRecord(row: Selectable<HrDocgenCampaignsTable>): CampaignRecord {
  return {
    pk: Number(row.pk),
    id: row.id,
    title: row.title,
    templateId: row.template_id,
    templateVersion: Number(row.template_version),
    outputAction: row.output_action,
    format: row.format,
    creatorRef: row.creator_ref,
    documentTypeId: row.document_type_id,
    status: row.status,
    rowCount: Number(row.row_count),
    sha256: row.sha256,
    size: row.size === null ? null : Number(row.size),
    startedAt: row.started_at === null ? null : Number(row.started_at),
    endedAt: row.ended_at === null ? null : Number(row.ended_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

type RowColumns = Omit<Selectable<HrDocgenCampaignRowsTable>, 'client_id' | 'campaign_id' | 'data' | 'updated_at'>;

function toRowRecord(row: RowColumns): CampaignRowRecord {
  return {
    index: Number(row.row_index),
    employeeId: row.employee_id,
    ref: row.ref,
    status: row.status,
    error: row.error,
    sha256: row.sha256,
    documentId: row.document_id,
  };
}

const ROW_COLUMNS = ['row_index', 'employee_id', 'ref', 'status', 'error', 'sha256', 'document_id'] as const;

/** Newest first. */
const ORDER: ListOrder = { fixed: [{ term: 'c.pk', direction: 'desc' }] };

/** Rows inserted per statement (9 values each: far below either database's limit on parameters). */
const INSERT_BATCH = 250;

/** The filters of `GET /document_generation_campaigns`. */
export interface CampaignFilter {
  status?: CampaignStatus | undefined;
  templateId?: string | undefined;
}

/** Campaigns and their rows (docs/hr-api.md, "Document generation"). */
export class CampaignsRepository extends HrRepository {
  async insert(clientId: HrTenantId, c: NewCampaign, rows: readonly NewRow[]): Promise<void> {
    const t = this.tenant(clientId);
    await t
      .insertInto('hr_docgen_campaigns', {
        id: c.id,
        title: c.title,
        template_id: c.templateId,
        template_version: c.templateVersion,
        output_action: c.outputAction,
        format: c.format,
        creator_ref: c.creatorRef,
        document_type_id: c.documentTypeId,
        status: c.status,
        row_count: c.rowCount,
        created_at: c.createdAt,
        updated_at: c.createdAt,
      })
      .execute();
    for (let at = 0; at < rows.length; at += INSERT_BATCH) {
      const batch = rows.slice(at, at + INSERT_BATCH).map((r, i) => ({
        campaign_id: c.id,
        row_index: at + i,
        employee_id: r.employeeId,
        ref: r.ref,
        data: JSON.stringify({
          fields: r.data.fields,
          fragment_fields: Object.fromEntries(r.data.fragmentFields.map((f) => [f.slug, f.fields])),
        } satisfies StoredData),
        status: 'pending' as const,
        updated_at: c.createdAt,
      }));
      await t.insertInto('hr_docgen_campaign_rows', batch).execute();
    }
  }

  /** The client's campaigns not ended (`created`, `in_progress`): read by the cap on concurrent campaigns. */
  async running(clientId: HrTenantId): Promise<number> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_docgen_campaigns as c')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('c.status', 'in', ['created', 'in_progress'])
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async find(clientId: HrTenantId, id: string): Promise<CampaignRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_docgen_campaigns')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async page(clientId: HrTenantId, filter: CampaignFilter, request: PageRequest): Promise<Page<CampaignRecord>> {
    let q = this.tenant(clientId).selectFrom('hr_docgen_campaigns as c').selectAll('c');
    if (filter.status !== undefined) q = q.where('c.status', '=', filter.status);
    if (filter.templateId !== undefined) q = q.where('c.template_id', '=', filter.templateId);
    const page = await listPage(q, ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  /** Every row of a campaign, in order, without its dataset. */
  async rows(clientId: HrTenantId, campaignId: string): Promise<CampaignRowRecord[]> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_docgen_campaign_rows')
      .select(ROW_COLUMNS)
      .where('campaign_id', '=', campaignId)
      .orderBy('row_index')
      .execute();
    return rows.map(toRowRecord);
  }

  /** The first row still `pending`, with its dataset; undefined when none is. */
  async nextPending(clientId: HrTenantId, campaignId: string): Promise<(CampaignRowRecord & RowData) | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_docgen_campaign_rows')
      .select([...ROW_COLUMNS, 'data'])
      .where('campaign_id', '=', campaignId)
      .where('status', '=', 'pending')
      .orderBy('row_index')
      .limit(1)
      .executeTakeFirst();
    if (!row) return undefined;
    const data = JSON.parse(row.data) as StoredData;
    return {
      ...toRowRecord(row),
      fields: data.fields,
      fragmentFields: Object.entries(data.fragment_fields).map(([slug, fields]) => ({ slug, fields })),
    };
  }

  /** The generated rows that still hold their document, in order (a zip's or a PDF's parts). */
  async generatedFiles(clientId: HrTenantId, campaignId: string): Promise<CampaignRowRecord[]> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_docgen_campaign_rows')
      .select(ROW_COLUMNS)
      .where('campaign_id', '=', campaignId)
      .where('status', '=', 'generated')
      .where('sha256', 'is not', null)
      .orderBy('row_index')
      .execute();
    return rows.map(toRowRecord);
  }

  async counts(clientId: HrTenantId, campaignId: string): Promise<RowCounts> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_docgen_campaign_rows')
      .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
      .where('campaign_id', '=', campaignId)
      .groupBy('status')
      .execute();
    const of = (status: RowStatus) => Number(rows.find((r) => r.status === status)?.n ?? 0);
    return {
      total: rows.reduce((sum, r) => sum + Number(r.n), 0),
      generated: of('generated'),
      failed: of('failed'),
    };
  }

  /** `created` → `in_progress` (kept when run again); false when the campaign is no longer to run. */
  async start(clientId: HrTenantId, id: string, at: number): Promise<boolean> {
    const done = await this.tenant(clientId)
      .updateTable('hr_docgen_campaigns')
      .set((eb) => ({
        status: 'in_progress',
        started_at: eb.fn.coalesce('started_at', eb.val(at)),
        updated_at: at,
      }))
      .where('id', '=', id)
      .where('status', 'in', ['created', 'in_progress'])
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  }

  /** A pending row generated: its document (or the employee document it was filed as). False when not pending. */
  async rowGenerated(
    clientId: HrTenantId,
    campaignId: string,
    index: number,
    result: { sha256: string | null; documentId: string | null; at: number },
  ): Promise<boolean> {
    const done = await this.tenant(clientId)
      .updateTable('hr_docgen_campaign_rows')
      .set({ status: 'generated', sha256: result.sha256, document_id: result.documentId, updated_at: result.at })
      .where('campaign_id', '=', campaignId)
      .where('row_index', '=', index)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  }

  /** A pending row failed, with why. False when not pending. */
  async rowFailed(clientId: HrTenantId, campaignId: string, index: number, error: string, at: number) {
    const done = await this.tenant(clientId)
      .updateTable('hr_docgen_campaign_rows')
      .set({ status: 'failed', error: error.slice(0, 2000), updated_at: at })
      .where('campaign_id', '=', campaignId)
      .where('row_index', '=', index)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  }

  /** A campaign not ended yet (`created`, `in_progress`) fails: its job ran out of attempts; false when it had ended. */
  async giveUp(clientId: HrTenantId, id: string, at: number): Promise<boolean> {
    const done = await this.tenant(clientId)
      .updateTable('hr_docgen_campaigns')
      .set({ status: 'failed', ended_at: at, updated_at: at })
      .where('id', '=', id)
      .where('status', 'in', ['created', 'in_progress'])
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  }

  /** An `in_progress` campaign ends (`completed` with its file, or `failed`); false when it is not in progress. */
  async finish(
    clientId: HrTenantId,
    id: string,
    end: { status: 'completed' | 'failed'; sha256: string | null; size: number | null; at: number },
  ): Promise<boolean> {
    const done = await this.tenant(clientId)
      .updateTable('hr_docgen_campaigns')
      .set({ status: end.status, sha256: end.sha256, size: end.size, ended_at: end.at, updated_at: end.at })
      .where('id', '=', id)
      .where('status', '=', 'in_progress')
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  }

  /** `created` or `in_progress` → `canceled`; false otherwise. */
  async cancel(clientId: HrTenantId, id: string, at: number): Promise<boolean> {
    const done = await this.tenant(clientId)
      .updateTable('hr_docgen_campaigns')
      .set({ status: 'canceled', ended_at: at, updated_at: at })
      .where('id', '=', id)
      .where('status', 'in', ['created', 'in_progress'])
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  }

  /** The rows let go of their documents (the campaign's file holds them now, or it was canceled); answers them. */
  async releaseRows(clientId: HrTenantId, campaignId: string): Promise<string[]> {
    const held = await this.tenant(clientId)
      .selectFrom('hr_docgen_campaign_rows')
      .select('sha256')
      .where('campaign_id', '=', campaignId)
      .where('sha256', 'is not', null)
      .execute();
    if (held.length === 0) return [];
    await this.tenant(clientId)
      .updateTable('hr_docgen_campaign_rows')
      .set({ sha256: null })
      .where('campaign_id', '=', campaignId)
      .where('sha256', 'is not', null)
      .execute();
    return [...new Set(held.map((r) => r.sha256 as string))];
  }
}
