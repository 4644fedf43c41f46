import { formatDateTime } from '../../../platform/time.js';
import type { CustomFieldRecord } from './repository.js';
import type { CustomField } from './schemas.js';

/** A custom field on the wire (reference §3g.3). */
export function presentCustomField(row: CustomFieldRecord): CustomField {
  return {
    id: row.id,
    label: row.label,
    type: row.type,
    authorized_values: row.authorized_values,
    hierarchical: row.hierarchical,
    default_value: row.default_value,
    localized_labels: row.localized_labels,
    visible: row.visible,
    allow_access_restrictions: row.allow_access_restrictions,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}
