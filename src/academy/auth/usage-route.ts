import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { Usage } from '../directory/content-schemas.js';
import { academyErrors } from '../errors.js';
import type { AcademyRateLimiter } from './rate-limit.js';

/** With the rate limit off, the allowance reported: no quota applies (the largest 32-bit integer). */
export const UNLIMITED_CALLS = 2_147_483_647;

/** `MM/DD/YYYY hh:mm:ss am` in UTC, the form of Schoox's documented sample (`08/24/2019 10:40:51 pm`). */
export function usageTime(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  const hours = d.getUTCHours() % 12 === 0 ? 12 : d.getUTCHours() % 12;
  return `${two(d.getUTCMonth() + 1)}/${two(d.getUTCDate())}/${d.getUTCFullYear()} ${two(hours)}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} ${d.getUTCHours() < 12 ? 'am' : 'pm'}`;
}

/**
 * `GET /usage`: the academy's call quota, `{availableCalls, until}`, counted against the per-academy rate limit
 * (`ATRIUM_ACADEMY_RATE_LIMIT` calls a minute, this call included).
 */
export async function usageRoute(
  app: FastifyInstance,
  opts: { limiter: AcademyRateLimiter | undefined; now(): number },
): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/usage',
    {
      schema: {
        tags: ['Academy directory'],
        summary: 'Get the academy’s call quota',
        description:
          'Calls left in the current one-minute window of the academy’s rate limit (this call counted) and when the window ends, `MM/DD/YYYY hh:mm:ss am` in UTC. With the limit off, availableCalls is 2147483647.',
        response: { 200: Usage, ...academyErrors(401) },
      },
    },
    async (request) => {
      const usage = opts.limiter?.usage(request.academy.academyId) ?? {
        availableCalls: UNLIMITED_CALLS,
        until: opts.now() + 60_000,
      };
      return { availableCalls: usage.availableCalls, until: usageTime(usage.until) };
    },
  );
}
