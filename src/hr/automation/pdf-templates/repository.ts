import type { Selectable } from 'kysely';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { FormMappingItem, SignatureZone } from './schemas.js';
import type { HrPdfTemplatesTable } from './tables.js';

/** A PDF template as the domain sees it: its zones and mapping decoded. */
export interface PdfTemplateRecord {
  pk: number;
  id: string;
  name: string;
  fileName: string;
  documentTypeId: string | null;
  signatureZones: SignatureZone[];
  formMapping: FormMappingItem[];
  sha256: string;
  size: number;
  contentType: string;
  pageCount: number | null;
  createdAt: number;
  updatedAt: number;
}
export type PdfTemplateValues = Omit<PdfTemplateRecord, 'pk' | 'id' | 'createdAt'>;

const ORDER: ListOrder = { tiebreak: 'pk' };

export function toPdfTemplateRecord(row: Selectable<HrPdfTemplatesTable>): PdfTemplateRecord {
  return {
    pk: row.pk,
    id: row.id,
    name: row.name,
    fileName: row.file_name,
    documentTypeId: row.document_type_id,
    signatureZones: JSON.parse(row.signature_zones) as SignatureZone[],
    formMapping: JSON.parse(row.form_mapping) as FormMappingItem[],
    sha256: row.sha256,
    size: Number(row.size),
    contentType: row.content_type,
    pageCount: row.page_count === null ? null : Number(row.page_count),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function columns(values: PdfTemplateValues) {
  return {
    name: values.name,
    file_name: values.fileName,
    document_type_id: values.documentTypeId,
    signature_zones: JSON.stringify(values.signatureZones),
    form_mapping: JSON.stringify(values.formMapping),
    sha256: values.sha256,
    size: values.size,
    content_type: values.contentType,
    page_count: values.pageCount,
    updated_at: values.updatedAt,
  };
}

/** PDF templates of process automation. Every query takes the client first. */
export class PdfTemplatesRepository extends HrRepository {
  private scoped(clientId: HrTenantId) {
    return this.tenant(clientId).selectFrom('hr_pdf_templates').selectAll();
  }

  async page(clientId: HrTenantId, request: PageRequest): Promise<Page<PdfTemplateRecord>> {
    const page = await listPage(this.scoped(clientId), ORDER, request);
    return { ...page, items: page.items.map(toPdfTemplateRecord) };
  }

  async count(clientId: HrTenantId): Promise<number> {
    const row = await this.scoped(clientId)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async find(clientId: HrTenantId, id: string): Promise<PdfTemplateRecord | undefined> {
    const row = await this.scoped(clientId).where('id', '=', id).executeTakeFirst();
    return row ? toPdfTemplateRecord(row) : undefined;
  }

  /** Inserts unless the id exists; returns whether it inserted (concurrent creates of one id cannot both win). */
  async insertIfAbsent(clientId: HrTenantId, id: string, values: PdfTemplateValues, at: number): Promise<boolean> {
    return this.tenant(clientId).insertIfAbsent('hr_pdf_templates', { id, ...columns(values), created_at: at });
  }

  async update(clientId: HrTenantId, id: string, values: PdfTemplateValues): Promise<void> {
    await this.tenant(clientId).updateTable('hr_pdf_templates').set(columns(values)).where('id', '=', id).execute();
  }

  /** Whether an employee document type has this id. */
  async employeeDocumentType(clientId: HrTenantId, id: string): Promise<boolean> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_document_types')
      .select('id')
      .where('kind', '=', 'employee')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }
}
