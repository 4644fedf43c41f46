import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

export interface HrRolesTable {
  pk: Generated<number>;
  client_id: string;
  /** Client-chosen code: letters, digits, `_` and `-`. */
  id: string;
  name: string;
  description: string | null;
  created_at: number;
  updated_at: number;
}
/** One row per permission a role is granted; a permission without a row is false. */
export interface HrRolePermissionsTable {
  client_id: string;
  role_id: string;
  module: 'core' | 'efm' | 'audit' | 'webhook';
  permission: string;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_roles: HrRolesTable;
    hr_role_permissions: HrRolePermissionsTable;
  }
}
