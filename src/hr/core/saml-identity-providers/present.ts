import type { SamlIdentityProviderRecord } from './repository.js';
import type { SamlIdentityProvider } from './schemas.js';

/** A SAML identity provider on the wire (reference §5.7): the reference's fields, no more. */
export function presentSamlIdentityProvider(row: SamlIdentityProviderRecord): SamlIdentityProvider {
  return {
    id: row.id,
    name: row.name,
    entity_id: row.entityId,
    sso_endpoint: row.ssoEndpoint,
    x509_certificate: row.x509Certificate,
    activated: row.activated,
    enable_sp_session: row.enableSpSession,
    next_logout_url: row.nextLogoutUrl,
    scope: row.scope as SamlIdentityProvider['scope'],
    workflow_type: row.workflowType as SamlIdentityProvider['workflow_type'],
  };
}
