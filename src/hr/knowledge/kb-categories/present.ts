import { formatDateTime } from '../../../platform/time.js';
import type { KbCategoryRecord } from './repository.js';
import type { KbCategory } from './schemas.js';

/** A knowledge-base category on the wire (reference §3e.1). */
export function presentKbCategory(row: KbCategoryRecord): KbCategory {
  return {
    id: row.id,
    slug: row.slug,
    order: row.sortOrder,
    original_language_code: row.originalLanguageCode,
    icon_class: row.iconClass,
    disable_default_form: row.disableDefaultForm,
    default_form_id: row.defaultFormId,
    visible_to_employee: row.visibleToEmployee,
    localized_name: row.localizedName,
    localized_description: row.localizedDescription,
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}
