import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

export interface AcademiesTable {
  id: Generated<number>;
  name: string;
  super_admin_id: number;
  created_at: number;
}
export interface AcademyApiKeysTable {
  id: Generated<number>;
  academy_id: number;
  key_hash: string;
  created_at: number;
  /** Null while the key is current; set on rotation to the end of its grace period. */
  expires_at: number | null;
}

declare module '../../platform/db/schema.js' {
  interface Tables {
    academies: AcademiesTable;
    academy_api_keys: AcademyApiKeysTable;
  }
}
