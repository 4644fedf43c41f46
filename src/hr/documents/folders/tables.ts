import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

/** Employee or company: the two families of the Document manager share their tables. */
export type DocumentKind = 'employee' | 'company';
/** A folder of one kind; its id is a dotted path (`certificates.employment-certificates`). */
export interface HrFoldersTable {
  pk: Generated<number>;
  client_id: string;
  kind: DocumentKind;
  id: string;
  parent_folder_id: string | null;
  label: string;
  /** JSON array of {language_code, value}. */
  localized_labels: string;
  created_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_folders: HrFoldersTable;
  }
}
