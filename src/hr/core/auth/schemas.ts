import { type Static, Type } from '@sinclair/typebox';

/** Form body of `POST /tokens` (application/x-www-form-urlencoded). */
export const TokenForm = Type.Object(
  {
    grant_type: Type.String({ description: 'Always `client_credentials`.', examples: ['client_credentials'] }),
    scope: Type.String({ description: 'Always `client`.', examples: ['client'] }),
    client_id: Type.String({ description: 'The client the token acts for.', maxLength: 64 }),
  },
  { additionalProperties: true },
);
export type TokenForm = Static<typeof TokenForm>;

export const TokenResponse = Type.Object({
  access_token: Type.String({ description: 'A signed JWT.' }),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer({ description: 'Lifetime of the token in seconds.' }),
});

/** Form body of `POST /revoke_token`. */
export const RevokeForm = Type.Object(
  {
    token: Type.String({ description: 'The access token to revoke.', maxLength: 4096 }),
    token_type_hint: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
export type RevokeForm = Static<typeof RevokeForm>;

export const NoStoreHeaders = Type.Object({
  'Cache-Control': Type.Literal('no-store'),
  Pragma: Type.Literal('no-cache'),
});
