/**
 * The hooks of the server: request ids and the checks of every request (framework errors, Host, closing), the
 * closing drain, no-store JSON, the platform's error handler, the metrics and access log of each response, and
 * the checks and OpenAPI shape of each route as it registers.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { InvalidRequestError, NotFoundError, ServiceUnavailableError } from '../errors.js';
import type { Metrics, RouteMetrics } from '../metrics.js';
import { FRAMEWORK_ERROR, type MarkedRequest } from './refused-requests.js';

/** The `operation` label of a request that matched no route (as `UNMATCHED` in platform/metrics.ts). */
const UNMATCHED_OPERATION = 'unmatched';

/** Where a route keeps its share of the metrics, in its config: made once, when the route is registered. */
const ROUTE_METRICS = Symbol('atrium.routeMetrics');
type MeasuredConfig = { [ROUTE_METRICS]?: RouteMetrics } | undefined;

/** Request ids, the checks every request passes first, closing (503, then idle connections closed), no-store. */
export function addRequestHooks(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    // No answer of this server is to be sniffed into another type.
    reply.header('X-Content-Type-Options', 'nosniff');
    const refused = (request.raw as unknown as MarkedRequest)[FRAMEWORK_ERROR];
    if (refused) throw refused;
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      throw new InvalidRequestError('The request has no Host header (HTTP/1.1 requires one).');
    }
    if (closing) throw new ServiceUnavailableError('The server is shutting down; retry the request.');
  });
  // While closing, a connection whose last response is done is closed at once: the drain must not wait for idle
  // keep-alive clients (Node closes only the connections idle when closing starts). A request already pipelined
  // on it keeps it open until answered (503).
  app.addHook('onResponse', async (request) => {
    if (closing) request.server.server.closeIdleConnections();
  });
  // JSON answers (objects of the APIs: employees, requests, participants…) are never stored by a cache, unless a
  // route chose its own caching. Files keep theirs (ETag, ranges).
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json') && !reply.hasHeader('cache-control')) {
      reply.header('Cache-Control', 'no-store');
    }
    return payload;
  });
  // Outside the APIs (health checks, docs), the platform's own errors get a plain body; anything else goes on
  // to Fastify's default handler. Each API plugin sets its own handler.
  app.setErrorHandler((error, _request, reply) => {
    const plain = (status: number, message: string) =>
      reply.status(status).send({ statusCode: status, error: STATUS_CODES[status], message });
    if (error instanceof ServiceUnavailableError) return plain(503, error.message);
    if (error instanceof InvalidRequestError) return plain(400, error.message);
    if (error instanceof NotFoundError) return plain(404, error.message);
    throw error;
  });
}

/** One observation per response, under the route's labels (fixed when it registers) or its API's `unmatched`. */
export function addMetricsHooks(app: FastifyInstance, metrics: Metrics, apiOf: (path: string) => string): void {
  // A route's labels are fixed when it is registered: its API (from its path) and its method and pattern.
  app.addHook('onRoute', (route) => {
    const method = Array.isArray(route.method) ? route.method.join(',') : route.method;
    const measured = metrics.route(apiOf(route.url), `${method} ${route.url}`);
    route.config = { ...(route.config as object | undefined), [ROUTE_METRICS]: measured } as typeof route.config;
  });
  // A request no route matched (404, 405) is one series per API and status, whatever its URL.
  const unmatched = new Map<string, RouteMetrics>();
  const unmatchedMetrics = (url: string): RouteMetrics => {
    const api = apiOf(url);
    let measured = unmatched.get(api);
    if (measured === undefined) {
      measured = metrics.route(api, UNMATCHED_OPERATION);
      unmatched.set(api, measured);
    }
    return measured;
  };
  // One observation per response, nothing computed from the URL of a matched route.
  app.addHook('onResponse', (request, reply, done) => {
    const measured = (request.routeOptions.config as MeasuredConfig)?.[ROUTE_METRICS] ?? unmatchedMetrics(request.url);
    measured.observe(reply.statusCode, reply.elapsedTime);
    done();
  });
}

/** One access-log line per request. */
export function addAccessLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
      'request completed',
    );
  });
}

/** What each route must declare, and its response headers as OpenAPI wants them, checked as it registers. */
export function addRouteChecks(app: FastifyInstance): void {
  // A path parameter is input like any other: every route with one declares its schema, which checks it (U+0000,
  // lengths) before a handler or a database sees it. Checked as routes register, so a route without one never starts.
  app.addHook('onRoute', (route) => {
    if (route.url.includes(':') && !(route.schema as { params?: unknown } | undefined)?.params) {
      throw new Error(`${route.method} ${route.url}: its path parameters need a params schema`);
    }
  });

  // OpenAPI wants a response's headers as a map of header name → schema; routes declare them as one TypeBox
  // object (validation's shape). Turned into the map here, once, before the document reads the route.
  app.addHook('onRoute', (route) => {
    const responses = (route.schema as { response?: Record<string, { headers?: unknown }> } | undefined)?.response;
    for (const response of Object.values(responses ?? {})) {
      const map = headerMap(response?.headers);
      if (map) response.headers = map;
    }
  });
}

/** A TypeBox object of response headers as OpenAPI's map of header name → schema; undefined if it is not one. */
export function headerMap(headers: unknown): Record<string, object> | undefined {
  if (headers === null || typeof headers !== 'object') return undefined;
  const h = headers as { type?: unknown; properties?: Record<string, object> };
  if (h.type !== 'object' || h.properties === null || typeof h.properties !== 'object') return undefined;
  return { ...h.properties };
}
