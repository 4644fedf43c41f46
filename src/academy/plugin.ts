import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../platform/db/database.js';
import { type FaultSource, faultInjection } from '../platform/http/faults.js';
import { idempotentPosts } from '../platform/http/idempotency.js';
import type { RateLimits } from '../platform/http/rate-limit.js';
import { tenantTime } from '../platform/http/tenant-time.js';
import { isViewPass } from '../platform/security/view-pass.js';
import type { Clock } from '../platform/time.js';
import type { AcademiesService } from './academies/service.js';
import { academyGuard } from './auth/guard.js';
import { AcademyRateLimiter } from './auth/rate-limit.js';
import { usageRoute } from './auth/usage-route.js';
import type { TimezoneRegistry } from './content/timezones.js';
import { directoryRoutes } from './directory/routes.js';
import type { DirectoryService } from './directory/service.js';
import { AcademyError, AcademyErrorBody, sendAcademyError } from './errors.js';
import type { OffersService } from './events/offers-service.js';
import type { RegistrationsService } from './events/registrations-service.js';
import { eventRoutes } from './events/routes.js';
import type { EventsService } from './events/service.js';
import { documentAcademyRoute } from './openapi.js';
import { normaliseArrayKeys } from './query.js';

export const ACADEMY_PREFIX = '/v1';

export interface AcademyServices {
  academies: AcademiesService;
  events: EventsService;
  eventOffers: OffersService;
  eventRegistrations: RegistrationsService;
  directory: DirectoryService;
  timezones: TimezoneRegistry;
}

export interface AcademyOptions extends AcademyServices {
  /** The admin API's fault rules, and the operationId of a route (a rule may name one). */
  faults?: { source: FaultSource; operationIdOf(method: string, routeUrl: string): string | undefined } | undefined;
  /** Origins allowed to call `/v1` from a browser; empty turns CORS off. */
  corsOrigins: string[];
  /** Requests per minute per academy, counted in this process (`ATRIUM_ACADEMY_RATE_LIMIT`); 0 turns the limit off. */
  rateLimit: number;
  /** The services' clock: each call runs in its academy's time, which the rate limit's windows follow too. */
  clock: Clock;
  /** The per-credential and failed-authentication limits shared with the HR API. */
  rateLimits?: RateLimits | undefined;
  /** Where `Idempotency-Key`s are kept, and the clock of their retention. */
  idempotency: { db: Db; now(): number };
}

/**
 * The fault rules applied before the key check (docs/admin.md, "Faults"): the tenant is the academy the call's
 * `acadId` names (as the guard reads it), unless the key is a view pass (the console's, never shaped).
 */
function keyCheckFaults(faults: NonNullable<AcademyOptions['faults']>, clock: Clock) {
  return faultInjection({
    ...faults,
    clock,
    prefix: ACADEMY_PREFIX,
    stage: 'before_authentication',
    tenantOf: (request) => {
      const query = (request.query ?? {}) as Record<string, unknown>;
      const key = query.apikey ?? request.headers['x-api-key'];
      if (typeof key === 'string' && isViewPass(key)) return undefined;
      const acadId = query.acadId;
      return typeof acadId === 'string' && /^[0-9]{1,9}$/.test(acadId)
        ? `academy:${acadId.replace(/^0+(?=\d)/, '')}`
        : undefined;
    },
    errorBody: (status, code, message) => ({ status, code, message }),
  });
}

/**
 * The Academy events API, as one encapsulated Fastify plugin with its own
 * error format, API-key guard and optional CORS.
 */
export async function academyApi(app: FastifyInstance, options: AcademyOptions): Promise<void> {
  app.addSchema(AcademyErrorBody);
  app.addHook('onRoute', documentAcademyRoute);
  if (options.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: options.corsOrigins.includes('*') ? '*' : options.corsOrigins,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: ['Content-Type', 'X-API-Key'],
      maxAge: 600,
    });
  }
  app.setErrorHandler((error, request, reply) => sendAcademyError(error as Error, request, reply));
  app.setNotFoundHandler((request, reply) =>
    sendAcademyError(
      new AcademyError(404, 'not_found', `No resource at ${request.url.split('?', 1)[0]}.`),
      request,
      reply,
    ),
  );

  // `k[]=v` is `k=v` (Spazz's `userIds[]`), before the guard reads the query.
  app.addHook('onRequest', async (request) => {
    request.query = normaliseArrayKeys((request.query ?? {}) as Record<string, unknown>);
  });

  const perMinute = options.rateLimit;
  const clock = options.clock;
  const limiter = perMinute > 0 ? new AcademyRateLimiter(perMinute, () => clock.now()) : undefined;

  await app.register(async (guarded) => {
    // The rules marked `before_authentication` apply before the key check, to the academy `acadId` names.
    if (options.faults) guarded.addHook('onRequest', keyCheckFaults(options.faults, options.clock).onRequest);
    guarded.addHook('onRequest', academyGuard(options.academies, options.rateLimits));
    // The rest of the call runs in the academy's time: its onRequest hooks, then (the body read) its handler.
    const academyTime = tenantTime(options.clock, (request) => `academy:${request.academy.academyId}`);
    guarded.addHook('onRequest', academyTime);
    guarded.addHook('preHandler', academyTime);
    if (options.faults) {
      const faults = faultInjection({
        ...options.faults,
        clock: options.clock,
        prefix: ACADEMY_PREFIX,
        tenantOf: (request) => `academy:${request.academy.academyId}`,
        errorBody: (status, code, message) => ({ status, code, message }),
      });
      guarded.addHook('onRequest', faults.onRequest);
      guarded.addHook('onSend', faults.onSend);
    }
    // Counted per authenticated academy, so nobody can use up another academy's allowance with bad keys.
    if (limiter) guarded.addHook('onRequest', async (request) => limiter.take(request.academy.academyId));
    idempotentPosts(guarded, { ...options.idempotency, tenantOf: (request) => `academy:${request.academy.academyId}` });
    // Resource routes register here.
    await guarded.register(eventRoutes, {
      events: options.events,
      offers: options.eventOffers,
      registrations: options.eventRegistrations,
    });
    await guarded.register(directoryRoutes, { directory: options.directory, timezones: options.timezones });
    await guarded.register(usageRoute, { limiter, now: () => clock.now() });
  });
}
