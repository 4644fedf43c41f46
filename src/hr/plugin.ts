import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import type { Db } from '../platform/db/database.js';
import { type FaultSource, faultInjection } from '../platform/http/faults.js';
import { idempotentPosts } from '../platform/http/idempotency.js';
import type { RateLimits } from '../platform/http/rate-limit.js';
import { tenantTime } from '../platform/http/tenant-time.js';
import type { Clock } from '../platform/time.js';
import { actingAs, type Caller } from './audit/actor.js';
import { bearerGuard } from './core/auth/guard.js';
import type { AuthService } from './core/auth/service.js';
import { ErrorBody, HrError, sendHrError } from './errors.js';
import type { HrModule } from './module.js';

export const HR_PREFIX = '/api/v2/client';

/** What the HR API plugin is given: the auth service its guard uses, and every module of every area. */
export interface HrApiOptions {
  auth: AuthService;
  /** The clock whose tenant time each authenticated call runs in (the admin API can move a client's). */
  clock: Clock;
  modules: readonly HrModule[];
  rateLimits?: RateLimits | undefined;
  /** Where `Idempotency-Key`s are kept, and the clock of their retention. */
  idempotency: { db: Db; now(): number };
  /** The admin API's fault rules, and the operationId of a route (a rule may name one). */
  faults?: { source: FaultSource; operationIdOf(method: string, routeUrl: string): string | undefined } | undefined;
  /** `ATRIUM_STRICT`: refuse unknown query parameters and an over-large `per_page` instead of ignoring or clamping them. */
  strict?: boolean | undefined;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

interface QuerySchema {
  properties?: Record<string, { maximum?: number }>;
  additionalProperties?: unknown;
}

/** What leniency needs of a route's query schema: the parameters it declares (when it refuses others) and `per_page`'s maximum. */
interface QueryRules {
  known: ReadonlySet<string> | undefined;
  maxPerPage: number | undefined;
}

const rulesOfSchema = new WeakMap<object, QueryRules>();

function queryRules(schema: unknown): QueryRules | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  let rules = rulesOfSchema.get(schema);
  if (!rules) {
    const { properties, additionalProperties } = schema as QuerySchema;
    rules = {
      known: properties && additionalProperties === false ? new Set(Object.keys(properties)) : undefined,
      maxPerPage: properties?.per_page?.maximum,
    };
    rulesOfSchema.set(schema, rules);
  }
  return rules;
}

/**
 * The query string's rules, before the schema checks it. A parameter given more than once is refused: the spec
 * calls that an invalid request. Unless `strict` (`ATRIUM_STRICT`), a parameter the route does not declare is
 * dropped, and a `per_page` in decimal digits above the route's maximum becomes that maximum, as real platforms do;
 * with `strict` both reach the schema, which refuses them (400).
 */
function checkQuery(strict: boolean) {
  return async function checkQuery(request: FastifyRequest): Promise<void> {
    const query = request.query as Record<string, unknown> | undefined;
    if (!query) return;
    const rules = strict ? undefined : queryRules(request.routeOptions.schema?.querystring);
    for (const [name, value] of Object.entries(query)) {
      if (rules?.known && !rules.known.has(name)) {
        delete query[name];
        continue;
      }
      if (Array.isArray(value)) throw new HrError(400, 'invalid_request', `Query parameter "${name}" is repeated.`);
    }
    const perPage = query.per_page;
    const max = rules?.maxPerPage;
    if (max !== undefined && typeof perPage === 'string' && /^[0-9]+$/.test(perPage) && Number(perPage) > max) {
      query.per_page = String(max);
      request.ignoredParameters = [...(request.ignoredParameters ?? []), `per_page>${max}`];
    }
  };
}

/** The caller of an authenticated request: its application, and the HR user it names, if any. */
function callerOf(request: FastifyRequest): Caller {
  const user = request.headers['x-atrium-user-id'];
  return {
    type: 'application',
    clientId: request.hrAuth.clientId,
    applicationId: request.hrAuth.applicationId,
    userId: typeof user === 'string' ? user : undefined,
  };
}

/** The application id of a call's HTTP Basic credentials, if it has any. */
function basicUser(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Basic[ ]+([A-Za-z0-9+/=]+)[ ]*$/i.exec(header) : null;
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const id = decoded.slice(0, colon);
  return colon > 0 && id.length <= 64 && !id.includes('\u0000') ? id : undefined;
}

/**
 * The fault rules applied before authentication, on the token endpoint (the routes marked `oauth`): the tenant is
 * the client of the application its Basic credentials name, secret unchecked (docs/admin.md, "Faults").
 */
function tokenFaults(auth: AuthService, clock: Clock, faults: NonNullable<HrApiOptions['faults']>) {
  return faultInjection({
    ...faults,
    clock,
    prefix: HR_PREFIX,
    stage: 'before_authentication',
    tenantOf: async (request) => {
      if ((request.routeOptions.config as { oauth?: boolean } | undefined)?.oauth !== true) return undefined;
      const id = basicUser(request);
      const client = id === undefined ? undefined : await auth.clientOfApplication(id);
      return client === undefined ? undefined : `hr:${client}`;
    },
    errorBody: (_status, code, message) => ({ code, message }),
  });
}

/**
 * The HR service delivery client API, as one encapsulated Fastify plugin
 * with its own error format, not-found and method-not-allowed answers, and
 * bearer guard. No CORS: its tokens are for server-to-server use only.
 */
export async function hrApi(app: FastifyInstance, options: HrApiOptions): Promise<void> {
  app.addSchema(ErrorBody);
  for (const module of options.modules) for (const schema of module.schemas ?? []) app.addSchema(schema);

  // Knows every path of this API, to tell an unknown path (404) from a wrong method (405).
  const router = FindMyWay({ ignoreTrailingSlash: true });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      try {
        router.on(method as 'GET', route.url, () => {});
      } catch {
        // Already known (Fastify's automatic HEAD twin).
      }
    }
  });

  app.setErrorHandler((error, request, reply) => sendHrError(error as Error, request, reply));
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?', 1)[0] as string;
    const allowed = METHODS.filter((m) => router.find(m, path) !== null);
    if (allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      return sendHrError(
        new HrError(405, 'method_not_allowed', `${request.method} is not allowed here; use ${allowed.join(', ')}.`),
        request,
        reply,
      );
    }
    return sendHrError(new HrError(404, 'not_found', `No resource at ${path}.`), request, reply);
  });
  app.addHook('preValidation', checkQuery(options.strict === true));

  const http = { rateLimits: options.rateLimits };
  // The token endpoint authenticates by itself: the rules marked `before_authentication` apply before it does.
  const early = options.faults && tokenFaults(options.auth, options.clock, options.faults);
  for (const module of options.modules) {
    if (!module.public) continue;
    await app.register(async (scope) => {
      if (early) {
        scope.addHook('onRequest', early.onRequest);
        scope.addHook('onSend', early.onSend);
      }
      await module.routes(scope, http);
    });
  }
  await app.register(async (guarded) => {
    guarded.addHook('onRequest', bearerGuard(options.auth, options.rateLimits));
    // The rest of the call runs in the client's time: its onRequest hooks, then (the body read) its handler.
    const clientTime = tenantTime(options.clock, (request) => `hr:${request.hrAuth.clientId}`);
    guarded.addHook('onRequest', clientTime);
    guarded.addHook('preHandler', clientTime);
    if (options.faults) {
      const faults = faultInjection({
        ...options.faults,
        clock: options.clock,
        prefix: HR_PREFIX,
        tenantOf: (request) => `hr:${request.hrAuth.clientId}`,
        errorBody: (_status, code, message) => ({ code, message }),
      });
      guarded.addHook('onRequest', faults.onRequest);
      guarded.addHook('onSend', faults.onSend);
    }
    // Every write is served as its caller, the author of the audit events it records (audit/actor.ts).
    guarded.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (methods.every((m) => m === 'GET' || m === 'HEAD')) return;
      const handler = route.handler;
      route.handler = function actingHandler(request, reply) {
        return actingAs(callerOf(request), () => handler.call(this, request, reply));
      };
    });
    idempotentPosts(guarded, { ...options.idempotency, tenantOf: (request) => `hr:${request.hrAuth.clientId}` });
    for (const module of options.modules) {
      if (!module.public) await guarded.register((scope) => module.routes(scope, http));
    }
  });
}
