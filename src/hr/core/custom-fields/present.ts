import { formatDateTime } from '../../../platform/time.js';
import type { CustomFieldRecord, LocalizedLabel } from './repository.js';
import type { CustomField } from './schemas.js';

/** The field's labels on the wire. */
export function presentLabels(labels: LocalizedLabel[]): CustomField['localized_labels'] {
  return labels.map((l) => ({ language_code: l.languageCode, value: l.value }));
}

/** A custom field on the wire (reference §3g.3). */
export function presentCustomField(row: CustomFieldRecord): CustomField {
  return {
    id: row.id,
    label: row.label,
    type: row.type,
    authorized_values: row.authorizedValues,
    hierarchical: row.hierarchical,
    default_value: row.defaultValue,
    localized_labels: presentLabels(row.localizedLabels),
    visible: row.visible,
    allow_access_restrictions: row.allowAccessRestrictions,
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}
