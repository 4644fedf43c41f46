import { type Static, Type } from '@sinclair/typebox';
import { TenantClock } from '../clocks/schemas.js';

const Application = Type.Object({
  application_id: Type.String(),
  name: Type.String(),
  read_only: Type.Boolean(),
  created_at: Type.String(),
  revoked_at: Type.Union([Type.String(), Type.Null()]),
});

const AcademyKey = Type.Object({
  key_id: Type.Integer(),
  created_at: Type.String(),
  expires_at: Type.Union([Type.String(), Type.Null()]),
  state: Type.Union([Type.Literal('current'), Type.Literal('grace'), Type.Literal('expired')]),
});

export const Tenant = Type.Object(
  {
    kind: Type.Union([Type.Literal('hr'), Type.Literal('academy')]),
    id: Type.String({ description: 'The `client_id`, or the `acadId` in decimal: the `{id}` of its paths.' }),
    name: Type.String(),
    created_at: Type.String(),
    clock: Type.Ref(TenantClock),
    applications: Type.Optional(Type.Array(Application, { description: 'HR clients: their applications.' })),
    keys: Type.Optional(Type.Array(AcademyKey, { description: 'Academies: their API keys (ids, never a key).' })),
  },
  { $id: 'AdminTenant', title: 'AdminTenant' },
);
export type Tenant = Static<typeof Tenant>;

export const TenantList = Type.Object({ tenants: Type.Array(Type.Ref(Tenant)) });

const Name = Type.String({ minLength: 1, maxLength: 200, description: 'Shown in listings; need not be unique.' });

/** `POST /tenants/hr` and `POST /tenants/academy`. */
export const TenantCreate = Type.Object({ name: Name }, { additionalProperties: false });
export type TenantCreate = Static<typeof TenantCreate>;

/** `/tenants/hr/{id}/…`: an HR client's `client_id`. */
export const HrTenantParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 255, description: 'The `client_id`.' }) },
  { additionalProperties: false },
);

/** `/tenants/academy/{id}/…`: an academy's `acadId`. */
export const AcademyTenantParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 255, description: 'The `acadId`, in decimal.' }) },
  { additionalProperties: false },
);

export const ApplicationParams = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 255, description: 'The `client_id`.' }),
    application_id: Type.String({ minLength: 1, maxLength: 255 }),
  },
  { additionalProperties: false },
);

export const ApplicationCreate = Type.Object(
  {
    name: Name,
    read_only: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'May call GET, HEAD and the POST searches only (anything else: 403 `insufficient_scope`).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ApplicationCreate = Static<typeof ApplicationCreate>;

export const CreatedApplication = Type.Object({
  client_id: Type.String(),
  application_id: Type.String(),
  name: Type.String(),
  read_only: Type.Boolean(),
  application_secret: Type.String({
    description: 'Shown only in this answer: Atrium keeps its hash. The `client_secret` of `POST /tokens`.',
  }),
});

export const CreatedClient = Type.Object(
  { tenant: Type.Ref(Tenant) },
  { $id: 'AdminCreatedClient', title: 'AdminCreatedClient' },
);

export const CreatedAcademy = Type.Object(
  {
    tenant: Type.Ref(Tenant),
    apikey: Type.String({
      description: "The academy's first API key, shown only in this answer: Atrium keeps its hash.",
    }),
    super_admin_id: Type.Integer({ description: "The academy's super admin (a user id of the Academy API)." }),
  },
  { $id: 'AdminCreatedAcademy', title: 'AdminCreatedAcademy' },
);

export const RotatedAcademyKey = Type.Object({
  apikey: Type.String({ description: 'The new API key, shown only in this answer.' }),
  previous_keys_expire_at: Type.String({
    description: "The academy's other keys work until then (`ATRIUM_KEY_GRACE_SECONDS` after the rotation).",
  }),
});

/** The shared schemas of this resource, added to the admin API once. */
export const tenantSchemas = [Tenant, CreatedClient, CreatedAcademy];
