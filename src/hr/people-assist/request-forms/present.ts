import { formatDateTime } from '../../../platform/time.js';
import { isRequired } from '../../core/forms/rules.js';
import type { FormDefinition } from '../../core/forms/schemas.js';
import type { RequestFormRecord, RequestFormSettings } from './repository.js';
import type { RequestForm } from './schemas.js';

/** A request form with what its presentation needs. */
export interface RequestFormView {
  row: RequestFormRecord;
  settings: RequestFormSettings;
  definition: FormDefinition;
}

/** The contextual spelling of a `formidable` field type (`FormDefinitionContextField.type_id`). */
const CONTEXT_TYPES: Record<string, string> = {
  helpText: 'help_text',
  radiosButtons: 'radios_buttons',
  separation: 'separator',
};

export function presentRequestForm({ row, settings, definition }: RequestFormView): RequestForm {
  return {
    id: row.id,
    name: row.name,
    is_default: row.isDefault,
    category_id: row.categoryId,
    language_code: row.languageCode,
    ...settings,
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
    formidable: definition,
    form_definition: {
      id: definition.id ?? 1,
      label: definition.label ?? row.name,
      description: definition.description ?? '',
      conditions: definition.conditions ?? [],
      fields: definition.fields.map((f) => ({
        slug: f.slug,
        label: f.label,
        type_id: CONTEXT_TYPES[f.type_id] ?? f.type_id,
        description: f.description ?? '',
        disabled: false,
        required: isRequired(f),
        ...(f.placeholder !== undefined ? { placeholder: f.placeholder } : {}),
        ...(f.multiple !== undefined ? { multiple: f.multiple } : {}),
        ...(f.items !== undefined ? { items: f.items } : {}),
        ...(f.validations !== undefined ? { validations: f.validations } : {}),
        ...(f.defaults !== undefined ? { defaults: f.defaults } : {}),
      })),
    },
  } as RequestForm;
}
