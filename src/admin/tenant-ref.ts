import { type Static, Type } from '@sinclair/typebox';

/** A tenant kind of the admin API's paths: an HR client, or an academy. */
export type TenantKind = 'hr' | 'academy';

/** One tenant, as the admin API addresses it: `/tenants/{kind}/{id}`, and its key (`hr:<client_id>`). */
export interface TenantRef {
  kind: TenantKind;
  /** The `client_id`, or the `acadId` in decimal. */
  id: string;
  key: string;
}

export function tenantRef(kind: TenantKind, id: string): TenantRef {
  return { kind, id, key: `${kind}:${id}` };
}

/** `/tenants/{kind}/{id}`: `hr` and a `client_id`, or `academy` and an `acadId`. */
export const TenantParams = Type.Object(
  {
    kind: Type.String({ maxLength: 16, description: '`hr` (an HR client) or `academy` (an academy).' }),
    id: Type.String({ minLength: 1, maxLength: 255, description: 'The `client_id`, or the `acadId`.' }),
  },
  { additionalProperties: false },
);
export type TenantParams = Static<typeof TenantParams>;
