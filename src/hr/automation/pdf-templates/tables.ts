import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms). */

/** A PDF template of process automation: a PDF (a blob, listed in BLOB_REFERENCES), its zones and its mapping. */
export interface HrPdfTemplatesTable {
  pk: Generated<number>;
  client_id: string;
  /** Chosen by the client (`^[a-z0-9_-]+$`). */
  id: string;
  name: string;
  file_name: string;
  /** An employee document type (`/employee_document_types`), or null. */
  document_type_id: string | null;
  /** JSON array of {id, name, page, x, y}. */
  signature_zones: string;
  /** JSON array of {pdf_field_name, form_field_id}. */
  form_mapping: string;
  sha256: string;
  size: number;
  content_type: string;
  /** Pages of the PDF when it could be counted (uploads count them), else null. */
  page_count: number | null;
  created_at: number;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_pdf_templates: HrPdfTemplatesTable;
  }
}
