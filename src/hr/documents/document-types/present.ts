import type { DocumentTypeView } from './repository.js';
import type { DocumentTypeFull } from './schemas.js';

/**
 * A document type on the wire (reference §3c.4): its own attributes, then its settings. Every field the reference
 * lists is sent, `null` when empty (company types' `expiry_date_policy_options`, a metadata's `label` and
 * `authorized_values`).
 */
export function presentDocumentType({ row, settings }: DocumentTypeView): DocumentTypeFull {
  return {
    id: row.id,
    label: row.label,
    localized_labels: row.localizedLabels,
    folder_id: row.folderId,
    ...settings,
    metadata: (settings.metadata ?? []).map((m) => ({
      code: m.code,
      type: m.type,
      authorized_values: m.authorized_values ?? null,
      label: m.label ?? null,
      localized_labels: m.localized_labels,
      is_required: m.is_required,
    })),
    // Only company types have an expiry policy (their `expiry_date_policy_type` is always set).
    ...(settings.expiry_date_policy_type !== undefined
      ? { expiry_date_policy_options: settings.expiry_date_policy_options ?? null }
      : {}),
  } as DocumentTypeFull;
}
