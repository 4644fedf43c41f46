import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

export interface HrCustomFieldsTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  label: string;
  type: 'bool' | 'string' | 'list' | 'int';
  /** JSON array of {value, label, code?}. */
  authorized_values: string;
  hierarchical: number;
  default_value: string | null;
  /** JSON array of {language_code, value}. */
  localized_labels: string;
  visible: number;
  allow_access_restrictions: number;
  created_at: number;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_custom_fields: HrCustomFieldsTable;
  }
}
