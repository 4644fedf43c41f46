/** Custom fields of employees (`/custom_fields`). */
import type { Static } from '@sinclair/typebox';
import type {
  CustomField,
  CustomFieldListQuery,
  CustomFieldPatch,
  CustomFieldPut,
} from '../../hr/core/custom-fields/schemas.js';
import type { Verbs } from './core.js';

/** `hr.customFields`. */
export function customFields(v: Verbs) {
  const path = '/custom_fields';
  return {
    list: v.list<CustomField, Static<typeof CustomFieldListQuery>>(path),
    retrieve: v.retrieve<CustomField>(path),
    upsert: v.upsert<CustomFieldPut, CustomField>(path),
    update: v.update<CustomFieldPatch, CustomField>(path),
  };
}
