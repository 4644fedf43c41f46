import { type Static, Type } from '@sinclair/typebox';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

/** Where the IdP sends a user after logging out, when the client sets none (the reference's default). */
export const DEFAULT_NEXT_LOGOUT_URL = 'http://www.people-doc.com/';

export const SAML_SCOPES = ['employee', 'manager'] as const;
export const SAML_WORKFLOW_TYPES = ['IdP initiated', 'SP initiated'] as const;

const Scope = Type.Union(
  SAML_SCOPES.map((s) => Type.Literal(s)),
  { description: 'Who signs on through this provider: employees or managers (HR users). Null: unset.' },
);
const WorkflowType = Type.Union(
  SAML_WORKFLOW_TYPES.map((s) => Type.Literal(s)),
  { description: 'Which side starts the sign-on. Null: unset.' },
);
const Url = (description: string) => Type.String({ minLength: 1, maxLength: 2048, description });

/** `SamlIdentityProviderBase` (reference §5.7): its attributes as a write sends them. */
const required = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  entity_id: Type.String({ minLength: 1, maxLength: 1024, description: 'The IdP’s SAML entity id.' }),
  sso_endpoint: Url('The IdP’s single sign-on URL (`http` or `https`).'),
  x509_certificate: Type.String({
    minLength: 1,
    maxLength: 65_536,
    description:
      'The IdP’s signing certificate, one PEM X.509 certificate (`-----BEGIN CERTIFICATE-----`…); stored and answered exactly as sent.',
  }),
};
const optional = {
  activated: Type.Optional(Type.Boolean({ description: 'Default false.' })),
  enable_sp_session: Type.Optional(Type.Boolean({ description: 'Default false.' })),
  next_logout_url: Type.Optional(Url(`Default \`${DEFAULT_NEXT_LOGOUT_URL}\`.`)),
  scope: Type.Optional(Type.Union([Scope, Type.Null()])),
  workflow_type: Type.Optional(Type.Union([WorkflowType, Type.Null()])),
};

/** `POST` and `PUT`: the four identifying attributes, and the others (left out: their defaults). */
export const SamlIdentityProviderWrite = Type.Object({ ...required, ...optional });
export type SamlIdentityProviderWrite = Static<typeof SamlIdentityProviderWrite>;

/** `PATCH`: only the attributes sent change. */
export const SamlIdentityProviderPatch = Type.Partial(Type.Object({ ...required, ...optional }));
export type SamlIdentityProviderPatch = Static<typeof SamlIdentityProviderPatch>;

export const SamlIdentityProvider = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    entity_id: Type.String(),
    sso_endpoint: Type.String(),
    x509_certificate: Type.String({ description: 'The PEM, exactly as it was sent.' }),
    activated: Type.Boolean(),
    enable_sp_session: Type.Boolean(),
    next_logout_url: Type.String(),
    scope: Type.Union([Scope, Type.Null()]),
    workflow_type: Type.Union([WorkflowType, Type.Null()]),
  },
  { $id: 'SamlIdentityProviderFull', title: 'SamlIdentityProviderFull' },
);
export type SamlIdentityProvider = Static<typeof SamlIdentityProvider>;

export const SamlIdentityProviderParams = Type.Object({
  id: Type.String({ pattern: '^[0-9A-Fa-f-]{1,36}$', description: 'The provider’s id (a UUID).' }),
});

/** `GET /saml/identity_providers`: in creation order. */
export const SamlIdentityProviderList = declareList('saml_identity_providers');

export const SamlIdentityProviderListQuery = Type.Object(
  {
    ...PaginationQuery,
    activated: Type.Optional(Type.Boolean()),
    entity_id: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'This entity id exactly.' })),
    scope: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 16,
        description:
          '`employee` or `manager`, in any case. The providers of this scope; when none matches, those whose scope is unset.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SamlIdentityProviderListQuery = Static<typeof SamlIdentityProviderListQuery>;
