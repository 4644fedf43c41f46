/** Custom fields of employees (`/custom_fields`). */
import type {
  CustomField,
  CustomFieldListQuery,
  CustomFieldPatch,
  CustomFieldPut,
} from '../schemas/hr/core/custom-fields.js';
import type { Verbs } from './core.js';

/** `hr.customFields`. */
export function customFields(v: Verbs) {
  const path = '/custom_fields';
  return {
    list: v.list<CustomField, CustomFieldListQuery>(path),
    retrieve: v.retrieve<CustomField>(path),
    upsert: v.upsert<CustomFieldPut, CustomField>(path),
    update: v.update<CustomFieldPatch, CustomField>(path),
  };
}
