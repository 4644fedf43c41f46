/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

export interface HrClientsTable {
  id: string;
  name: string;
  created_at: number;
}
export interface HrApplicationsTable {
  id: string;
  client_id: string;
  name: string;
  secret_hash: string;
  read_only: number;
  revoked_at: number | null;
  created_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_clients: HrClientsTable;
    hr_applications: HrApplicationsTable;
  }
}
