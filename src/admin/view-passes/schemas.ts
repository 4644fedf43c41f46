import { type Static, Type } from '@sinclair/typebox';

/** `POST /tenants/{kind}/{id}/view_pass`: a read-only credential of one tenant's API, for the console. */
export const ViewPass = Type.Object(
  {
    pass: Type.String({
      description:
        'The pass: on the HR API `Authorization: Bearer <pass>`; on the Academy API `X-API-Key: <pass>` (or `apikey`) with the `acadId`. Reads only: a write gets 403.',
    }),
    expires_at: Type.String({
      description: 'When it stops working (the installation’s wall clock, never the tenant’s).',
    }),
    expires_in: Type.Integer({ description: 'Seconds it lives: 600.' }),
  },
  { $id: 'AdminViewPass', title: 'AdminViewPass' },
);
export type ViewPass = Static<typeof ViewPass>;

/** The shared schemas of this resource, added to the admin API once. */
export const viewPassSchemas = [ViewPass];
