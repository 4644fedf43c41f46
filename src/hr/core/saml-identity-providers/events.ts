import { declareEvents } from '../../audit/catalogue.js';

/** The audit events SAML identity providers record (docs/hr-api.md, "Audit events"). */
export const samlIdentityProviderEvents = declareEvents('saml_identity_provider', ['created', 'updated', 'deleted']);
