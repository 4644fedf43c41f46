import type { Generated } from 'kysely';

/** Column types of this resource's table, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

export interface HrSamlIdentityProvidersTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  name: string;
  entity_id: string;
  sso_endpoint: string;
  /** The PEM exactly as the client sent it. */
  x509_certificate: string;
  activated: number;
  enable_sp_session: number;
  next_logout_url: string;
  /** `employee`, `manager`, or null (unset). */
  scope: string | null;
  /** `IdP initiated`, `SP initiated`, or null (unset). */
  workflow_type: string | null;
  created_at: number;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_saml_identity_providers: HrSamlIdentityProvidersTable;
  }
}
