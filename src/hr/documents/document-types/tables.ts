import type { Generated } from 'kysely';
import type { DocumentKind } from '../folders/tables.js';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

/** A document type of one kind. */
export interface HrDocumentTypesTable {
  pk: Generated<number>;
  client_id: string;
  kind: DocumentKind;
  id: string;
  label: string;
  /** JSON array of {language_code, value}. */
  localized_labels: string;
  folder_id: string;
  /** JSON object of every other attribute of the type (permissions, metadata definitions, policies, …). */
  settings: string;
  created_at: number;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_document_types: HrDocumentTypesTable;
  }
}
