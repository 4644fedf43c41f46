import { formatDateTime } from '../../../platform/time.js';
import type { PdfTemplateRecord } from './repository.js';
import type { PdfTemplate, PdfTemplateSummary } from './schemas.js';

/** `PdfTemplateList`: an item of the list. */
export function presentPdfTemplateSummary(row: PdfTemplateRecord): PdfTemplateSummary {
  return {
    id: row.id,
    name: row.name,
    file_name: row.fileName,
    document_type_id: row.documentTypeId,
    process_form_id: null,
  };
}

/** `PdfTemplateDetail`. */
export function presentPdfTemplate(row: PdfTemplateRecord): PdfTemplate {
  return {
    ...presentPdfTemplateSummary(row),
    signature_zones: row.signatureZones,
    form_mapping: row.formMapping,
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}
