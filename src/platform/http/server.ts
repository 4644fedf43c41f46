import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { loggerOptions } from '../logger.js';
import type { Metrics } from '../metrics.js';
import { addBodyParsers } from './body-parsers.js';
import { capConnections, RefusedConnections } from './connection-caps.js';
import { addAccessLog, addMetricsHooks, addRequestHooks, addRouteChecks } from './hooks.js';
import type { ApiDocumentation } from './openapi.js';
import { addPlatformRoutes } from './platform-routes.js';
import { usePublicUrl } from './public-origin.js';
import { clientErrorHandler, frameworkErrorsHandler, MAX_PARAM_LENGTH } from './refused-requests.js';
import { lazySerializers } from './serializers.js';
import { schemaErrorFormatter, type UnknownBodyFields, validatorCompilerFor } from './validation.js';

const REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

export interface ServerOptions {
  config: Config;
  database: Database;
  /** A ready logger (tests capture logs through it); otherwise one is made from the config. */
  logger?: Logger;
  /**
   * The body of an answer to a request Node's HTTP parser refused before any route could run (headers too
   * large, a malformed request line, a request too slow to arrive), from the path it named ('' when unknown),
   * so each API answers in its own error format.
   */
  clientErrorBody?: (path: string, status: number, message: string) => object;
  /** Prometheus metrics, when they are on: one observation per response (platform/metrics.ts). */
  metrics?: Metrics;
  /** The `api` label of a path: `hr`, `academy`, or `platform` for the server's own routes. */
  apiOf?: (path: string) => string;
  /** What each API adds to the OpenAPI document: operation ids, response descriptions (openapi.ts). */
  documentation?: readonly ApiDocumentation[];
  /**
   * What a route's body does with a member its schema does not declare, by the route's URL: `drop` (the HR API's
   * rule: ignored at every level) or `refuse` (the default: a closed object refuses it, an open one passes it on
   * to the route, as the academy API's own checks expect).
   */
  unknownBodyFields?: (url: string) => UnknownBodyFields;
}

/**
 * The HTTP server both APIs plug into: request ids, one access-log line per
 * request, body and time limits, tolerant JSON and form parsing, schema
 * validation, the OpenAPI document and its reference page, and health checks.
 */
export async function createServer(options: ServerOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  // Unknown body members are dropped where the API says so, whatever ATRIUM_STRICT says (docs/hr-api.md): most
  // body schemas are open, so refusing them only where a schema is closed would catch some misspellings only.
  const unknownBodyFields = options.unknownBodyFields ?? (() => 'refuse' as const);
  const compilers = { drop: validatorCompilerFor('drop'), refuse: validatorCompilerFor('refuse') };
  const validatorCompiler: typeof compilers.drop = (route) => compilers[unknownBodyFields(route.url)](route);
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: loggerOptions(config.logLevel) }),
    // One access-log line per request is written by an onResponse hook (hooks.ts, addAccessLog).
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: config.bodyLimit,
    // Node answers a bare 400 to an HTTP/1.1 request without a Host header; the onRequest hook (hooks.ts) refuses
    // it instead, so the API that owns the path answers in its own format, with a request id.
    http: {
      requireHostHeader: false,
      // Node checks the request and headers timeouts on a timer (30 s by default), so a request trickled in a byte
      // at a time was cut off up to 30 s late; checked every second (or sooner for short timeouts), the documented
      // timeouts hold to within a second.
      connectionsCheckingInterval: Math.min(1000, Math.floor(config.requestTimeoutMs / 2)),
      headersTimeout: Math.min(config.headersTimeoutMs, config.requestTimeoutMs),
    },
    // A validation error's message comes from its first error: the default formatter joins them all.
    schemaErrorFormatter,
    // `request.ip` (the address failed authentications are counted by) comes from X-Forwarded-For only through
    // the proxies ATRIUM_TRUST_PROXY trusts (a hop count or their addresses); by default, the connection's address.
    // Likewise `request.protocol` from X-Forwarded-Proto (the web pages' policy, web-page.ts).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : config.trustProxy,
    // A request the HTTP parser refuses never reaches a route: answered on its socket, in the format of the API
    // its path names, with a request id, then the connection closed (as Node does; refused-requests.ts).
    clientErrorHandler: clientErrorHandler(options.clientErrorBody, options.metrics),
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs,
    keepAliveTimeout: 72_000,
    // While closing, the onRequest hook (hooks.ts) answers 503 through each API's error handler.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // A URL the router refuses is routed again, made routable, for the API that owns its path to render the error
    // (refused-requests.ts).
    frameworkErrors: frameworkErrorsHandler((req, res) => app.routing(req, res)),
    // Every context, including plugins that add shared schemas, validates with Atrium's compiler
    // (no coercion of bodies; unknown body members dropped).
    // setValidatorCompiler alone is lost in such child contexts.
    // (Fastify types this factory as returning an ajv compile function; a route validator compiler is what it calls.)
    // Response serializers (fast-json-stringify) are likewise compiled on a route's first answer: compiling
    // them all up front was most of the start-up time.
    schemaController: {
      compilersFactory: { buildValidator: (() => validatorCompiler) as never, buildSerializer: lazySerializers },
    },
  });

  usePublicUrl(app, config.publicUrl);

  // Caps on open connections, in all and per address: past either, a new connection is closed at once, so a flood
  // of idle or trickling connections cannot exhaust the process's sockets and memory, nor one address take them all.
  // Refusals are logged once a second as a count (connection-caps.ts).
  const refusals = new RefusedConnections(app.log, config);
  capConnections(app.server, config, refusals);
  app.addHook('onClose', async () => refusals.close());

  const server = app as unknown as FastifyInstance;
  addRequestHooks(server);
  const { metrics } = options;
  if (metrics) addMetricsHooks(server, metrics, options.apiOf ?? (() => 'platform'));
  addAccessLog(server);
  addBodyParsers(server);
  addRouteChecks(server);
  await addPlatformRoutes(server, {
    database,
    documentation: options.documentation ?? [],
    // The console is linked where it is served: on this port, unless the admin API has a port of its own.
    console: options.config.adminPort === undefined,
  });
  return server;
}
