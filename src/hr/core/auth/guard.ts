import type { FastifyReply, FastifyRequest } from 'fastify';
import { type RateLimits, underFailureLimits } from '../../../platform/http/rate-limit.js';
import { HrError } from '../../errors.js';
import type { AuthContext, AuthService } from './service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the HR bearer guard on every authenticated call. */
    hrAuth: AuthContext;
  }
  interface FastifyContextConfig {
    /** Token endpoints: OAuth 2.0 error bodies, Basic auth instead of a bearer token. */
    oauth?: boolean;
    /** A POST that only reads (search), allowed to read-only applications. */
    readOnlySafe?: boolean;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD']);

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

/**
 * Finds the one token a request presents: `Authorization: Bearer`, an
 * `access_token` header (declared by the reference), or an `access_token`
 * query parameter. More than one way at once is a 400 `invalid_request`.
 */
export function extractBearer(request: FastifyRequest): string {
  const found: string[] = [];
  const authorization = single(request.headers.authorization);
  if (authorization !== undefined) {
    const match = /^Bearer[ ]+([^ ]+)[ ]*$/i.exec(authorization);
    if (!match?.[1]) {
      throw new HrError(401, 'invalid_token', 'The Authorization header must be "Bearer <token>".', {
        'WWW-Authenticate': 'Bearer realm="atrium", error="invalid_token"',
      });
    }
    found.push(match[1]);
  }
  const header = single(request.headers.access_token);
  if (header !== undefined) found.push(header.trim());
  const params = request.query as Record<string, unknown> | undefined;
  const query = params?.access_token;
  if (query !== undefined) {
    // Consumed here, so the route's own query schema never sees it.
    delete params?.access_token;
    found.push(Array.isArray(query) ? '' : String(query));
    if (Array.isArray(query)) found.push('');
  }
  if (found.length > 1) {
    throw new HrError(400, 'invalid_request', 'The access token was sent in more than one way; send it once.');
  }
  const token = found[0];
  if (!token) {
    throw new HrError(401, 'invalid_token', 'An access token is required: Authorization: Bearer <token>.', {
      'WWW-Authenticate': 'Bearer realm="atrium"',
    });
  }
  return token;
}

const tooMany = (message: string, retryAfter: number): HrError =>
  new HrError(429, 'rate_limited', `${message} Retry in ${retryAfter} s.`, { 'Retry-After': String(retryAfter) });

/**
 * Runs an authentication under the failed-attempt limits (`underFailureLimits`): failures count per client address
 * and per credential (`credential`: the application id at the token endpoint; none for a bearer token, whose
 * signature cannot be guessed). A valid credential is never refused because of other callers' failures.
 */
export async function limitingFailures<T>(
  limits: RateLimits | undefined,
  request: FastifyRequest,
  credential: string | undefined,
  authenticate: () => Promise<T>,
): Promise<T> {
  return underFailureLimits(
    limits,
    request.ip,
    credential,
    authenticate,
    (error) => error instanceof HrError && error.statusCode === 401,
    (wait, limit) =>
      tooMany(
        limit === 'address'
          ? 'Too many failed authentication attempts from this address.'
          : 'Too many failed authentication attempts for this application.',
        wait,
      ),
  );
}

/** The onRequest hook of every HR resource route. */
export function bearerGuard(auth: AuthService, limits?: RateLimits) {
  return async function guard(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const context = await limitingFailures(limits, request, undefined, () => auth.authenticate(extractBearer(request)));
    const wait = limits?.perCredential.hit(context.applicationId) ?? 0;
    if (wait > 0) {
      throw tooMany(`Too many requests: each application may make ${limits?.perCredential.limit} per second.`, wait);
    }
    if (context.viewPass) request.viewPass = true;
    if (context.readOnly && !READ_METHODS.has(request.method) && request.routeOptions.config.readOnlySafe !== true) {
      throw new HrError(
        403,
        'insufficient_scope',
        context.viewPass ? 'A view pass only reads: it cannot change anything.' : 'This application is read-only.',
      );
    }
    request.hrAuth = context;
  };
}
