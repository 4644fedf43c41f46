import type { FastifyReply, FastifyRequest } from 'fastify';
import { type RateLimits, underFailureLimits } from '../../platform/http/rate-limit.js';
import { hashSecret } from '../../platform/security/secrets.js';
import type { AcademiesService, AcademyContext } from '../academies/service.js';
import { AcademyError } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the Academy guard on every authenticated call. */
    academy: AcademyContext;
  }
}

function first(value: unknown): string | undefined {
  if (Array.isArray(value)) return value.length ? String(value[0]) : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * The onRequest hook of every Academy route: `apikey` and `acadId` in the
 * query string, or the key in an `X-API-Key` header with `acadId` in the query.
 */
const tooMany = (message: string, retryAfter: number): AcademyError =>
  new AcademyError(429, 'rate_limited', `${message} Retry in ${retryAfter} s.`, { 'Retry-After': String(retryAfter) });

export function academyGuard(academies: AcademiesService, limits?: RateLimits) {
  return async function guard(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const key = first(query.apikey) ?? first(request.headers['x-api-key']);
    // Failures count per address and per key presented (by a prefix of its hash: a valid key is only "failed
    // against" by someone holding it), never per acadId, which anyone can name to lock an academy out.
    const credential = key && key.length <= 256 ? `academy-key:${hashSecret(key).slice(0, 24)}` : undefined;
    request.academy = await underFailureLimits(
      limits,
      request.ip,
      credential,
      () => academies.authenticate(first(query.acadId), key),
      (error) => error instanceof AcademyError && error.statusCode === 401,
      (wait, limit) =>
        tooMany(
          limit === 'address'
            ? 'Too many failed authentication attempts from this address.'
            : 'Too many failed authentication attempts with this key.',
          wait,
        ),
    );
    if (request.academy.viewPass) {
      request.viewPass = true;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        throw new AcademyError(403, 'forbidden', 'A view pass only reads: it cannot change anything.');
      }
    }
    const perSecond = limits?.perCredential.hit(`academy:${request.academy.academyId}`) ?? 0;
    if (perSecond > 0) {
      throw tooMany(`Too many requests: each academy may make ${limits?.perCredential.limit} per second.`, perSecond);
    }
  };
}
