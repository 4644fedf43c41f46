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

/** The shared schemas of this resource, added to the admin API once. */
export const tenantSchemas = [Tenant];
