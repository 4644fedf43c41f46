import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AcademiesService, AcademyContext } from '../academies/service.js';

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
export function academyGuard(academies: AcademiesService) {
  return async function guard(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const key = first(query.apikey) ?? first(request.headers['x-api-key']);
    request.academy = await academies.authenticate(first(query.acadId), key);
  };
}
