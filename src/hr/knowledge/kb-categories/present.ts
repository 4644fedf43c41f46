import { formatDateTime } from '../../../platform/time.js';
import type { KbCategoryRecord } from './repository.js';
import type { KbCategory } from './schemas.js';

/** A knowledge-base category on the wire (reference §3e.1). */
export function presentKbCategory(row: KbCategoryRecord): KbCategory {
  return {
    id: row.id,
    slug: row.slug,
    order: row.sort_order,
    original_language_code: row.original_language_code,
    icon_class: row.icon_class,
    disable_default_form: row.disable_default_form,
    default_form_id: row.default_form_id,
    visible_to_employee: row.visible_to_employee,
    localized_name: row.localized_name,
    localized_description: row.localized_description,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}
