import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

/** A request form (request type): its settings and its `formidable` definition. */
export interface PaRequestFormsTable {
  pk: Generated<number>;
  client_id: string;
  /** The slug. */
  id: string;
  name: string;
  /** A knowledge-base category id. */
  category_id: string;
  language_code: string;
  is_default: number;
  featured: number;
  keywords: string;
  /** JSON object of the remaining RequestForm settings (flags, restrictions, group). */
  settings: string;
  /** JSON: the form definition (DFForm). */
  formidable: string;
  last_hits: number;
  created_at: number;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    pa_request_forms: PaRequestFormsTable;
  }
}
