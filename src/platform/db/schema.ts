import type { Generated } from 'kysely';

/**
 * Column types of every table, as Kysely sees them. Instants are epoch
 * milliseconds (bigint columns, read back as numbers on both dialects);
 * booleans are 0/1 integers so both dialects store them alike.
 */
export interface Tables {
  settings: SettingsTable;
  signing_keys: SigningKeysTable;
  auth_events: AuthEventsTable;
  hr_clients: HrClientsTable;
  hr_applications: HrApplicationsTable;
  hr_organizations: HrOrganizationsTable;
  hr_organization_groups: HrOrganizationGroupsTable;
  hr_organization_group_members: HrOrganizationGroupMembersTable;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface SigningKeysTable {
  kid: string;
  secret: string;
  created_at: number;
  retired_at: number | null;
}

/** Append-only log that every process polls to keep its auth caches current. */
export interface AuthEventsTable {
  seq: Generated<number>;
  kind: 'token_revoked' | 'application_revoked' | 'signing_key_rotated';
  ref: string;
  expires_at: number | null;
  created_at: number;
}

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

export interface HrOrganizationsTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  name: string;
  description: string | null;
  parent_organization_id: string | null;
  corporate_name: string | null;
  address1: string | null;
  address2: string | null;
  zip_code: string | null;
  city: string | null;
  country: string | null;
  contact_firstname: string | null;
  contact_lastname: string | null;
  contact_email: string | null;
  contact_phone_number: string | null;
  created_at: number;
  updated_at: number;
}

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
