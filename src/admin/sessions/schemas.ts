import { type Static, Type } from '@sinclair/typebox';

/** `POST /session`: the operator token to sign in with. */
export const SessionOpen = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 16384,
      description: 'An operator token, `atrium_admin_…`. It is not kept by the session: the cookie stands for it.',
    }),
  },
  { additionalProperties: false },
);
export type SessionOpen = Static<typeof SessionOpen>;

export const Session = Type.Object(
  {
    token: Type.Object({
      token_id: Type.String(),
      name: Type.String({ description: 'The operator token the session was opened with.' }),
    }),
    created_at: Type.String(),
    expires_at: Type.String({
      description: 'When the session ends unless it is used again (30 minutes idle, 12 hours at most).',
    }),
    csrf_token: Type.String({
      description:
        'Send it as `X-CSRF-Token` with every call that changes something (any method but GET and HEAD) made with the session cookie.',
    }),
  },
  { $id: 'AdminSession', title: 'AdminSession' },
);
export type Session = Static<typeof Session>;

export const sessionSchemas = [Session];
