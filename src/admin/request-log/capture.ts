import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/time.js';
import { errorOf, NEAR_MISS_STATUSES, type NearMiss, type NearMissCatalogue } from './near-miss.js';
import type { RequestLogService } from './service.js';

/** Who made a call of a tenant API: its tenant, and the application or key it used. */
export interface Caller {
  tenant: string;
  credentialId: string | null;
}

const PAYLOAD = Symbol('atrium.requestLogPayload');
const BODY = Symbol('atrium.requestLogBody');
type Captured = FastifyRequest & { [PAYLOAD]?: string | Buffer | 'stream' | null; [BODY]?: string | Buffer };

interface RouteDocs {
  tags?: string[];
  deprecated?: boolean;
  querystring?: { properties?: Record<string, unknown> };
}

/** Credentials in the query: no operation declares them, and none ignores them. */
const CREDENTIAL_PARAMS = new Set(['access_token', 'apikey', 'acadId']);

/**
 * The query parameters of a call that its operation does not declare (the real API ignores them, or refuses them),
 * and those the API noted itself (`per_page` clamped).
 */
function ignoredParameters(request: FastifyRequest, docs: RouteDocs): string[] {
  const noted = request.ignoredParameters ?? [];
  const at = request.url.indexOf('?');
  if (at < 0) return noted;
  const declared = docs.querystring?.properties ?? {};
  const names = new Set(noted);
  for (const name of new URLSearchParams(request.url.slice(at + 1)).keys()) {
    if (!(name in declared) && !CREDENTIAL_PARAMS.has(name)) names.add(name);
  }
  return [...names];
}

/** The tag of the operations the real service does not have (test/platform/openapi-document.test.ts declares it). */
export const EXTENSION_TAG = 'Atrium extensions';

/**
 * The request log's hooks, on the whole server: `onSend` keeps the answer's payload as sent, `onResponse` hands
 * the call over to the log (which writes it a second later). Calls that no tenant made (the admin API, the docs,
 * unauthenticated ones that name no tenant) are not logged; a near miss that names one is, marked so.
 */
export function requestLogCapture(
  log: RequestLogService,
  options: {
    identify(request: FastifyRequest): Caller | undefined;
    operationIdOf(method: string, routeUrl: string): string | undefined;
    clock: Clock;
    /**
     * Near misses (docs/admin.md, "Near misses"): which API a URL is of, the tenant an unauthenticated call names,
     * and what the call missed.
     */
    nearMisses?: {
      apiOf(url: string): 'hr' | 'academy' | undefined;
      namedTenant(request: FastifyRequest): Promise<Caller | undefined>;
      catalogue: NearMissCatalogue;
    };
  },
) {
  return {
    /** The body as parsed, before validation drops what the schema does not declare: the log shows what was sent. */
    async preValidation(request: FastifyRequest): Promise<void> {
      const body = request.body;
      if (!log.enabled || body === undefined || body === null) return;
      if (typeof body === 'string' || Buffer.isBuffer(body)) {
        (request as Captured)[BODY] = body;
        return;
      }
      // Plain parsed bodies only (JSON, forms); a parser's stream or file object is left to the log's note.
      const prototype: unknown = Object.getPrototypeOf(body);
      if (!Array.isArray(body) && prototype !== Object.prototype && prototype !== null) return;
      const form = String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
      (request as Captured)[BODY] = form
        ? new URLSearchParams(body as Record<string, string>).toString()
        : JSON.stringify(body);
    },
    async onSend(request: FastifyRequest, _reply: FastifyReply, payload: unknown): Promise<unknown> {
      if (log.enabled) {
        (request as Captured)[PAYLOAD] =
          typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : payload == null ? null : 'stream';
      }
      return payload;
    },
    async onResponse(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      if (!log.enabled) return;
      const status = reply.statusCode;
      const near = options.nearMisses;
      const api = near && NEAR_MISS_STATUSES.has(status) ? near.apiOf(request.url) : undefined;
      const caller =
        options.identify(request) ?? (api && near ? await log.track(near.namedTenant(request)) : undefined);
      if (!caller) return;
      const payload = (request as Captured)[PAYLOAD] ?? null;
      let nearMiss: NearMiss | undefined;
      if (api && near) {
        const path = request.url.split('?', 1)[0] as string;
        const noRoute = request.is404 === true;
        nearMiss = near.catalogue.describe({
          api,
          method: request.method,
          path,
          status,
          noRoute,
          ...(noRoute ? {} : errorOf(payload)),
        });
      }
      // Fastify builds routeOptions on each read: once here.
      const { url: route, schema } = request.routeOptions;
      const docs = (schema ?? {}) as RouteDocs;
      log.record({
        tenant: caller.tenant,
        credentialId: caller.credentialId,
        at: options.clock.wall(),
        tenantAt: options.clock.nowOf(caller.tenant),
        method: request.method,
        url: request.url,
        operationId: (route && options.operationIdOf(request.method, route)) ?? null,
        status,
        durationMs: reply.elapsedTime,
        requestHeaders: request.headers,
        requestBody: (request as Captured)[BODY],
        responseHeaders: reply.getHeaders(),
        responsePayload: payload,
        faultId: request.faultId ?? null,
        extension: docs.tags?.includes(EXTENSION_TAG) === true,
        deprecated: docs.deprecated === true,
        ignored: ignoredParameters(request, docs),
        nearMiss: nearMiss ?? null,
      });
    },
  };
}
