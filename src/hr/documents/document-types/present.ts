import type { DocumentTypeFull } from './schemas.js';
import type { DocumentTypeView } from './service.js';

/** A document type on the wire (reference §3c.4): its own attributes, then its settings. */
export function presentDocumentType({ row, settings }: DocumentTypeView): DocumentTypeFull {
  return {
    id: row.id,
    label: row.label,
    localized_labels: row.localized_labels,
    folder_id: row.folder_id,
    ...settings,
  } as DocumentTypeFull;
}
