import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponses, HrError } from '../../hr/errors.js';
import { NoBody } from '../../platform/http/no-body.js';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { formatDateTime } from '../../platform/time.js';
import { Session, SessionOpen } from './schemas.js';
import type { AdminSessionsService, OpenSession } from './service.js';

const tags = ['Admin: Sessions'];

/** The cookie of a console session: sent back to the admin API only. */
export const SESSION_COOKIE = 'atrium_admin_session';
const COOKIE_PATH = '/admin/v1';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the admin guard when the call came with a session cookie (not an operator token). */
    adminSession?: OpenSession;
  }
  interface FastifyContextConfig {
    /** An admin route the guard lets through without credentials (signing in). */
    adminPublic?: boolean;
  }
}

function presentSession(sessions: AdminSessionsService, open: OpenSession): Session {
  const { session } = open;
  return {
    token: { token_id: session.token.id, name: session.token.name },
    created_at: formatDateTime(session.createdAt),
    expires_at: formatDateTime(sessions.endOf(session)),
    csrf_token: open.csrfToken,
  };
}

/** The cookie's attributes: for the admin API's paths only, out of scripts' reach, never sent by another site. */
function cookieOptions(request: FastifyRequest, maxAgeSeconds: number) {
  return {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: request.protocol === 'https',
    maxAge: maxAgeSeconds,
  };
}

/**
 * `/session`: sign in with an operator token and get a cookie (the console), see the session, sign out
 * (docs/admin.md, "Sessions").
 */
export async function sessionRoutes(
  app: FastifyInstance,
  opts: {
    sessions: AdminSessionsService;
    /** Counts a failed sign-in against the caller's address, as any failed authentication. */
    underLimits: <T>(request: FastifyRequest, attempt: () => Promise<T>) => Promise<T>;
  },
): Promise<void> {
  const { sessions, underLimits } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const session = Type.Ref(Session);

  api.post(
    '/session',
    {
      config: { adminPublic: true },
      schema: {
        tags,
        summary: 'Sign in',
        description:
          'Exchanges an operator token for a session cookie (`atrium_admin_session`: `HttpOnly`, `SameSite=Strict`, `Path=/admin/v1`, `Secure` over https), which then stands for the token on every admin operation. A call with the cookie that changes something must send the answer’s `csrf_token` as `X-CSRF-Token`.',
        security: [],
        body: SessionOpen,
        response: { 201: session, ...errorResponses(400, 401, 415, 422) },
      },
    },
    async (request, reply) => {
      // JSON only: a form post from another site's page could sign its visitor in with the attacker's token.
      if (!/^application\/json\b/i.test(String(request.headers['content-type'] ?? ''))) {
        throw new HrError(415, 'unsupported_media_type', 'Sign in with a JSON body: {"token": "atrium_admin_…"}.');
      }
      const opened = await underLimits(request, async () => {
        const result = await sessions.open(request.body.token);
        if (!result) {
          throw new HrError(401, 'invalid_token', 'The operator token is unknown or revoked.', {
            'WWW-Authenticate': 'Bearer realm="atrium-admin"',
          });
        }
        return result;
      });
      const maxAge = Math.floor((opened.session.expiresAt - opened.session.createdAt) / 1000);
      reply.setCookie(SESSION_COOKIE, opened.cookie, cookieOptions(request, maxAge));
      return reply.code(201).send(presentSession(sessions, opened));
    },
  );

  api.get(
    '/session',
    {
      schema: {
        tags,
        summary: 'Get the session',
        description:
          'The session of the cookie the call came with, with its CSRF token (a page reloaded learns it again here). A call with an operator token instead has no session: 404.',
        response: { 200: session, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      if (!request.adminSession) {
        throw new HrError(404, 'not_found', 'No session: this call came with an operator token, not a session cookie.');
      }
      return presentSession(sessions, request.adminSession);
    },
  );

  api.delete(
    '/session',
    {
      schema: {
        tags,
        summary: 'Sign out',
        description:
          'Ends the session of the cookie the call came with (it needs `X-CSRF-Token`, as every change does) and clears the cookie. With an operator token it only clears the cookie.',
        response: { 204: NoBody, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      if (request.adminSession) await sessions.close(request.adminSession);
      reply.clearCookie(SESSION_COOKIE, cookieOptions(request, 0));
      return reply.code(204).send();
    },
  );
}
