import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimits } from '../../../platform/http/rate-limit.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { limitingFailures } from './guard.js';
import { NoStoreHeaders, RevokeForm, TokenForm, TokenResponse } from './schemas.js';
import { type AuthService, invalidCredentials } from './service.js';

/** Reads HTTP Basic credentials; anything else is a 401 `invalid_credentials`. */
function basicCredentials(request: FastifyRequest): { id: string; secret: string } {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Basic[ ]+([A-Za-z0-9+/=]+)[ ]*$/i.exec(header) : null;
  if (!match?.[1]) throw invalidCredentials();
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  // U+0000 is in no stored id (and PostgreSQL refuses it in a query): such credentials are simply wrong.
  if (colon <= 0 || decoded.includes('\u0000')) throw invalidCredentials();
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

export async function tokenRoutes(
  app: FastifyInstance,
  opts: { auth: AuthService; limits?: RateLimits | undefined },
): Promise<void> {
  const { auth, limits } = opts;
  // These endpoints take form bodies only (RFC 6749 §4.4.2); anything else is a 400 invalid_request.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  // Basic credentials are checked in onRequest, before the body is even parsed: a caller without valid ones
  // gets 401 whatever its body (JSON, repeated fields, too large), and learns nothing else.
  const authenticateApplication = async (request: FastifyRequest): Promise<void> => {
    let credentials: { id: string; secret: string } | undefined;
    try {
      credentials = basicCredentials(request);
    } catch {
      credentials = undefined;
    }
    // Failures count against the application id named (no id is longer than 64 characters) and the address.
    const credential = credentials && credentials.id.length <= 64 ? `hr-application:${credentials.id}` : undefined;
    request.oauthApplication = await limitingFailures(limits, request, credential, () => {
      if (!credentials) throw invalidCredentials();
      return auth.authenticateApplication(credentials.id, credentials.secret);
    });
  };

  api.post(
    '/tokens',
    {
      config: { oauth: true },
      onRequest: authenticateApplication,
      schema: {
        tags: ['OAuth - Tokens'],
        summary: 'Get an access token (OAuth 2.0 client credentials)',
        description:
          'HTTP Basic with the application id and secret; form body `grant_type=client_credentials`, `scope=client`, `client_id`.',
        security: [{ basicAuth: [] }],
        consumes: ['application/x-www-form-urlencoded'],
        body: TokenForm,
        response: { 200: { ...TokenResponse, headers: NoStoreHeaders }, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const token = await auth.issueToken(request.oauthApplication, request.body);
      reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
      return token;
    },
  );

  api.post(
    '/revoke_token',
    {
      config: { oauth: true },
      onRequest: authenticateApplication,
      schema: {
        tags: ['OAuth - Tokens'],
        summary: 'Revoke an access token (RFC 7009)',
        description: 'Revokes one token of this application. Every process refuses it within one second.',
        security: [{ basicAuth: [] }],
        consumes: ['application/x-www-form-urlencoded'],
        body: RevokeForm,
        response: { 200: { type: 'null', description: 'Token revoked.' }, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      await auth.revokeToken(request.oauthApplication, request.body.token);
      reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
      return reply.status(200).send();
    },
  );
}

declare module 'fastify' {
  interface FastifyRequest {
    oauthApplication: Awaited<ReturnType<AuthService['authenticateApplication']>>;
  }
}
