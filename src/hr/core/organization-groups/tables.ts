import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

export interface HrOrganizationGroupsTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  name: string;
  created_at: number;
  updated_at: number;
}
export interface HrOrganizationGroupMembersTable {
  client_id: string;
  group_id: string;
  organization_id: string;
  position: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_organization_groups: HrOrganizationGroupsTable;
    hr_organization_group_members: HrOrganizationGroupMembersTable;
  }
}
