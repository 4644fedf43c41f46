import type { Selectable } from 'kysely';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { DatasetField, OutputFormat } from '../../../platform/docgen/types.js';
import type { FieldError } from '../../../platform/errors.js';
import type { HrDocgenGenerationsTable } from './tables.js';

export type GenerationStatus = HrDocgenGenerationsTable['status'];
export type RequestStatus = HrDocgenGenerationsTable['request_status'];

/** An email recipient of a generated document. */
export interface Recipient {
  firstname: string;
  lastname: string;
  email: string;
  language: string | null;
}

/** What an async generation still has to do: the dataset, as sent. */
export interface GenerationPayload {
  fields: DatasetField[];
  fragmentFields: { slug: string; fields: DatasetField[] }[];
  emailRecipients: Recipient[];
}

/** A generated document, or one waiting to be (reference §5.5, `DocGenFull`). */
export interface GenerationRecord {
  pk: number;
  id: string;
  requestId: string;
  requestStatus: RequestStatus;
  templateId: string;
  templateVersion: number;
  format: OutputFormat;
  status: GenerationStatus;
  strict: boolean;
  async: boolean;
  /** The caller's `context`, decoded. */
  context: unknown;
  payload: GenerationPayload | null;
  employeeId: string | null;
  documentTypeId: string | null;
  errors: FieldError[];
  failure: string | null;
  uploadId: string | null;
  sha256: string | null;
  pdfSha256: string | null;
  size: number | null;
  pages: number | null;
  archivedDocumentId: string | null;
  vaultedAt: number | null;
  generationStartedAt: number | null;
  generationFinishedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

type StoredPayload = {
  fields: DatasetField[];
  fragment_fields: { slug: string; fields: DatasetField[] }[];
  email_recipients: Recipient[];
};

function toRecord(row: Selectable<HrDocgenGenerationsTable>): GenerationRecord {
  const payload = row.payload === null ? null : (JSON.parse(row.payload) as StoredPayload);
  return {
    pk: Number(row.pk),
    id: row.id,
    requestId: row.request_id,
    requestStatus: row.request_status,
    templateId: row.template_id,
    templateVersion: Number(row.template_version),
    format: row.format,
    status: row.status,
    strict: row.strict === 1,
    async: row.async === 1,
    context: row.context === null ? null : (JSON.parse(row.context) as unknown),
    payload: payload && {
      fields: payload.fields,
      fragmentFields: payload.fragment_fields,
      emailRecipients: payload.email_recipients,
    },
    employeeId: row.employee_id,
    documentTypeId: row.document_type_id,
    errors: JSON.parse(row.errors) as FieldError[],
    failure: row.failure,
    uploadId: row.upload_id,
    sha256: row.sha256,
    pdfSha256: row.pdf_sha256,
    size: row.size === null ? null : Number(row.size),
    pages: row.pages === null ? null : Number(row.pages),
    archivedDocumentId: row.archived_document_id,
    vaultedAt: row.vaulted_at === null ? null : Number(row.vaulted_at),
    generationStartedAt: row.generation_started_at === null ? null : Number(row.generation_started_at),
    generationFinishedAt: row.generation_finished_at === null ? null : Number(row.generation_finished_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** A new generation: sync ones are written generated, async ones waiting with their payload. */
export interface NewGeneration {
  id: string;
  requestId: string;
  requestStatus: RequestStatus;
  templateId: string;
  templateVersion: number;
  format: OutputFormat;
  status: GenerationStatus;
  strict: boolean;
  async: boolean;
  context: unknown;
  payload: GenerationPayload | null;
  employeeId: string | null;
  documentTypeId: string | null;
  at: number;
}

/** What a finished generation records. */
export interface GenerationResult {
  sha256: string;
  pdfSha256: string | null;
  size: number;
  pages: number;
  errors: FieldError[];
  startedAt: number;
  finishedAt: number;
}

function payloadColumn(payload: GenerationPayload | null): string | null {
  if (payload === null) return null;
  const stored: StoredPayload = {
    fields: payload.fields,
    fragment_fields: payload.fragmentFields,
    email_recipients: payload.emailRecipients,
  };
  return JSON.stringify(stored);
}

/** Newest first. */
const ORDER: ListOrder = { fixed: [{ term: 'g.pk', direction: 'desc' }] };

/** The filters of `GET /document_generation_requests`. */
export interface RequestFilter {
  status?: RequestStatus | undefined;
  templateId?: string | undefined;
}

/** Generated documents and their requests (docs/hr-api.md, "Document generation"). */
export class GenerationsRepository extends HrRepository {
  async insert(clientId: HrTenantId, g: NewGeneration, result?: GenerationResult): Promise<void> {
    await this.tenant(clientId)
      .insertInto('hr_docgen_generations', {
        id: g.id,
        request_id: g.requestId,
        request_status: g.requestStatus,
        template_id: g.templateId,
        template_version: g.templateVersion,
        format: g.format,
        status: g.status,
        strict: g.strict ? 1 : 0,
        async: g.async ? 1 : 0,
        context: g.context === undefined || g.context === null ? null : JSON.stringify(g.context),
        payload: payloadColumn(g.payload),
        employee_id: g.employeeId,
        document_type_id: g.documentTypeId,
        errors: JSON.stringify(result?.errors ?? []),
        upload_id: result ? g.id : null,
        sha256: result?.sha256 ?? null,
        pdf_sha256: result?.pdfSha256 ?? null,
        size: result?.size ?? null,
        pages: result?.pages ?? null,
        generation_started_at: result?.startedAt ?? null,
        generation_finished_at: result?.finishedAt ?? null,
        created_at: g.at,
        updated_at: g.at,
      })
      .execute();
  }

  async find(clientId: HrTenantId, id: string): Promise<GenerationRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_docgen_generations')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async findRequest(clientId: HrTenantId, requestId: string): Promise<GenerationRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_docgen_generations')
      .selectAll()
      .where('request_id', '=', requestId)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async requests(clientId: HrTenantId, filter: RequestFilter, request: PageRequest): Promise<Page<GenerationRecord>> {
    let q = this.tenant(clientId).selectFrom('hr_docgen_generations as g').selectAll('g');
    if (filter.status !== undefined) q = q.where('g.request_status', '=', filter.status);
    if (filter.templateId !== undefined) q = q.where('g.template_id', '=', filter.templateId);
    const page = await listPage(q, ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  /** Moves a waiting async generation to `GENERATING`; false when it is not waiting (done, failed or deleted). */
  async start(clientId: HrTenantId, id: string, at: number): Promise<boolean> {
    const result = await this.tenant(clientId)
      .updateTable('hr_docgen_generations')
      .set({ status: 'GENERATING', request_status: 'SENT_ASYNC', generation_started_at: at, updated_at: at })
      .where('id', '=', id)
      .where('status', 'in', ['NOT_GENERATED', 'GENERATING'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Records a finished async generation; false when it is no longer `GENERATING` (deleted meanwhile). */
  async finish(clientId: HrTenantId, id: string, result: GenerationResult): Promise<boolean> {
    const done = await this.tenant(clientId)
      .updateTable('hr_docgen_generations')
      .set({
        status: 'GENERATED',
        request_status: 'PROCESSED',
        errors: JSON.stringify(result.errors),
        upload_id: id,
        sha256: result.sha256,
        pdf_sha256: result.pdfSha256,
        size: result.size,
        pages: result.pages,
        payload: null,
        generation_finished_at: result.finishedAt,
        updated_at: result.finishedAt,
      })
      .where('id', '=', id)
      .where('status', '=', 'GENERATING')
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  }

  /** Records a failed async generation (the dataset did not fit the template, say). */
  async fail(clientId: HrTenantId, id: string, failure: string, errors: FieldError[], at: number): Promise<boolean> {
    const done = await this.tenant(clientId)
      .updateTable('hr_docgen_generations')
      .set({
        status: 'FAILED',
        request_status: 'FAILED',
        failure,
        errors: JSON.stringify(errors),
        payload: null,
        generation_finished_at: at,
        updated_at: at,
      })
      .where('id', '=', id)
      .where('status', 'in', ['NOT_GENERATED', 'GENERATING'])
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  }

  async setPdf(clientId: HrTenantId, id: string, sha256: string): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_docgen_generations')
      .set({ pdf_sha256: sha256 })
      .where('id', '=', id)
      .execute();
  }

  async setArchived(clientId: HrTenantId, id: string, documentId: string, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_docgen_generations')
      .set({ archived_document_id: documentId, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  async setVaulted(clientId: HrTenantId, id: string, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_docgen_generations')
      .set({ vaulted_at: at, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  /** Deletes a generation; answers the blobs it held. */
  async remove(clientId: HrTenantId, g: GenerationRecord): Promise<string[]> {
    await this.tenant(clientId).deleteFrom('hr_docgen_generations').where('id', '=', g.id).execute();
    return [g.sha256, g.pdfSha256].filter((s): s is string => s !== null);
  }
}
