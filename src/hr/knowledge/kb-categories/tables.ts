import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

/** A knowledge-base category (People Assist); `id` is a client-chosen UUID. */
export interface PaKbCategoriesTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  slug: string;
  /** The category's `order` (a float). */
  sort_order: number;
  /** `sort_order` as 16 hex digits that sort like the number (lists are keyset-paged by it). */
  order_key: string;
  original_language_code: string;
  icon_class: string | null;
  disable_default_form: number;
  default_form_id: string | null;
  visible_to_employee: number;
  /** JSON array of {language_code, value}. */
  localized_name: string;
  /** JSON array of {language_code, value}. */
  localized_description: string;
  created_at: number;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    pa_kb_categories: PaKbCategoriesTable;
  }
}
