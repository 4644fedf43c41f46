/** SAML identity providers (`/saml/identity_providers`): a client's IdP settings (Atrium signs no one on). */
import { HrNotFoundError } from '../errors.js';
import type { RequestOptions } from '../http.js';
import type {
  SamlIdentityProvider,
  SamlIdentityProviderListQuery,
  SamlIdentityProviderPatch,
  SamlIdentityProviderWrite,
} from '../schemas/hr/core/saml-identity-providers.js';
import { enc, type HrCore, type Id, type Verbs } from './core.js';

/** `hr.samlIdentityProviders`. At most one active provider per scope and per name: a write breaking it is a 409. */
export function samlIdentityProviders(core: HrCore, v: Verbs) {
  const path = '/saml/identity_providers';
  return {
    /** Searches providers (`activated`, `entity_id`, `scope`), in creation order. */
    list: v.list<SamlIdentityProvider, SamlIdentityProviderListQuery>(path),
    /** Creates a provider at a new id; its certificate must be one PEM X.509 certificate (else 422). */
    create: v.create<SamlIdentityProviderWrite, SamlIdentityProvider>(path),
    retrieve: v.retrieve<SamlIdentityProvider>(path),
    /** `HEAD /saml/identity_providers/{id}`: true when the provider exists, false on 404. */
    exists: async (id: Id, options?: RequestOptions): Promise<boolean> => {
      try {
        await core.head(`${path}/${enc(id)}`, options);
        return true;
      } catch (error) {
        if (error instanceof HrNotFoundError) return false;
        throw error;
      }
    },
    /** `PUT /saml/identity_providers/{id}`: creates (201) or replaces the provider at a UUID of your choice. */
    upsert: v.upsert<SamlIdentityProviderWrite, SamlIdentityProvider>(path),
    update: v.update<SamlIdentityProviderPatch, SamlIdentityProvider>(path),
    del: v.del(path),
  };
}
