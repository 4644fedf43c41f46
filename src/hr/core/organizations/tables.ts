import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

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

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_organizations: HrOrganizationsTable;
  }
}
