import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import type { Logger } from 'pino';
import { buildInfo, PACKAGE_ROOT } from '../build-info.js';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { InvalidRequestError, NotFoundError, ServiceUnavailableError } from '../errors.js';
import { loggerOptions } from '../logger.js';
import type { Metrics, RouteMetrics } from '../metrics.js';
import { docsPage } from './docs-page.js';
import { landingPage } from './landing-page.js';
import { type ApiDocumentation, finishDocument, type OpenApiDocument } from './openapi.js';
import { lazyBody, type StaticBody, sendStatic } from './static-body.js';
import {
  deferSchemaCompile,
  schemaCompiled,
  schemaErrorFormatter,
  type UnknownBodyFields,
  validatorCompilerFor,
} from './validation.js';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/**
 * Serializers already built, by the shared schemas they may reference and the schema itself: the same response
 * schema (every route's error bodies, most of all) is compiled once, not once per route and status code. That
 * cut the compiled schemas' heap from about 75 MB to a few (docs/PERFORMANCE.md).
 */
const serializerCache = new Map<string, (data: unknown) => string>();

/** Fastify's own serializer compiler, deferred: each route's serializer is built when it first answers. */
const lazySerializers = ((...args: Parameters<SerializerFactory>) => {
  // A factory per serializer: Fastify's compiler deletes a response schema's own `$id` from the shared schemas of
  // the factory it is given, so one factory shared by a scope loses that schema for every route compiled after
  // (a route answering `AdminTenant` itself, then one answering an object that references it).
  const compile = (route: Parameters<ReturnType<SerializerFactory>>[0]) => SerializerSelector()(...args)(route);
  // Each shared schema has one $id, so the ids in scope tell what a $ref resolves to.
  const scope = Object.keys(args[0] ?? {})
    .sort()
    .join('\n');
  return (route: Parameters<ReturnType<SerializerFactory>>[0]) => {
    const key = `${scope}\n\n${JSON.stringify(route.schema)}`;
    let serialize = serializerCache.get(key);
    const build = () => {
      if (!serialize) {
        serialize = serializerCache.get(key) ?? (compile(route) as (data: unknown) => string);
        serializerCache.set(key, serialize);
      }
      schemaCompiled(build);
      return serialize;
    };
    deferSchemaCompile(build);
    return (data: unknown) => (serialize ?? build())(data);
  };
}) as unknown as SerializerFactory;

/** The `operation` label of a request that matched no route (as `UNMATCHED` in platform/metrics.ts). */
const UNMATCHED_OPERATION = 'unmatched';
/** Where `npm run build` writes the Postman collection of the OpenAPI document, from the package root. */
export const POSTMAN_COLLECTION = 'dist/openapi/postman.json';

const REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;
const MAX_PARAM_LENGTH = 1000;

/** Set on a raw request the router refused: the error its API's error handler must render. */
const FRAMEWORK_ERROR = Symbol('atrium.frameworkError');
type MarkedRequest = { url?: string | undefined; [FRAMEWORK_ERROR]?: Error };

/** What the router refuses before any route runs, as a platform error each API renders its own way. */
function platformError(error: FastifyError): Error {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return new InvalidRequestError('The URL is malformed: it holds an invalid percent-encoded sequence.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new NotFoundError(
        'path',
        '',
        `No resource at this URI: a path segment is longer than ${MAX_PARAM_LENGTH} characters.`,
      );
    default:
      return error;
  }
}

/**
 * The path of a refused URL with each segment the router cannot take
 * (undecodable, or too long for a parameter) replaced by `-`, and no query:
 * it routes into the same API, whose hooks and error handler then answer.
 */
function routablePath(url: string): string {
  const path = url.split('?', 1)[0] as string;
  return path
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment).length > MAX_PARAM_LENGTH ? '-' : segment;
      } catch {
        return '-';
      }
    })
    .join('/');
}

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

/** Where a route keeps its share of the metrics, in its config: made once, when the route is registered. */
const ROUTE_METRICS = Symbol('atrium.routeMetrics');
type MeasuredConfig = { [ROUTE_METRICS]?: RouteMetrics } | undefined;

/** Node's clientError codes, as the status and message of the answer. */
function clientErrorStatus(code: string | undefined): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return [431, 'The request headers, the URL included, are larger than this server accepts.'];
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'The request did not arrive in time.'];
  return [400, 'The request is not valid HTTP: its request line or a header is malformed.'];
}

/**
 * A form body as a record without a prototype: `toString=1` is a parameter like any other (not a "repeated" one
 * found on Object.prototype), and `__proto__=1` is a key, never the record's prototype.
 */
export function formParser(body: string): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  for (const [key, value] of new URLSearchParams(body)) {
    const prev = Object.hasOwn(out, key) ? out[key] : undefined;
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/** A TypeBox object of response headers as OpenAPI's map of header name → schema; undefined if it is not one. */
export function headerMap(headers: unknown): Record<string, object> | undefined {
  if (headers === null || typeof headers !== 'object') return undefined;
  const h = headers as { type?: unknown; properties?: Record<string, object> };
  if (h.type !== 'object' || h.properties === null || typeof h.properties !== 'object') return undefined;
  return { ...h.properties };
}

class BadBody extends Error {
  readonly statusCode = 400;
}

/** A JSON body nested deeper than this is refused (400): no schema comes near it, and no code below must meet it. */
export const MAX_JSON_DEPTH = 64;

/** Whether JSON text opens more than `max` arrays or objects inside one another (one pass, strings skipped). */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
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
    // One access-log line per request is written by the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: config.bodyLimit,
    // Node answers a bare 400 to an HTTP/1.1 request without a Host header; the onRequest hook below refuses it
    // instead, so the API that owns the path answers in its own format, with a request id.
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
    // A request the HTTP parser refuses never reaches a route: answer it here, in the format of the API its
    // path names, with a request id, then close the connection (as Node does).
    clientErrorHandler: (error, socket) => {
      const err = error as unknown as NodeJS.ErrnoException & { rawPacket?: Buffer };
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      const [status, message] = clientErrorStatus(err.code);
      const raw = Buffer.isBuffer(err.rawPacket) ? err.rawPacket.toString('latin1') : '';
      const [, method = '', path = ''] = /^([A-Z]+) ([^ \r\n]+)/.exec(raw) ?? [];
      const body = JSON.stringify(
        options.clientErrorBody?.(path, status, message) ?? {
          statusCode: status,
          error: STATUS_CODES[status],
          message,
        },
      );
      options.metrics?.refusedRequest(status);
      if (socket.writable) {
        // A HEAD answer has no body (its length is still told).
        socket.write(
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nX-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${method === 'HEAD' ? '' : body}`,
        );
      }
      socket.destroy(err);
    },
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs,
    keepAliveTimeout: 72_000,
    // While closing, the onRequest hook below answers 503 through each API's error handler.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // A URL the router refuses (bad percent-encoding, an over-long parameter) is routed again, made routable,
    // with the error kept on the request: the onRequest hook below throws it, so the API that owns the path
    // renders it (its error body, X-Request-Id), and the platform knows nothing of either API.
    frameworkErrors: (error, request, reply) => {
      const raw = request.raw as unknown as MarkedRequest;
      if (raw[FRAMEWORK_ERROR] === undefined) {
        const original = raw.url ?? '/';
        raw[FRAMEWORK_ERROR] = platformError(error);
        raw.url = routablePath(original);
        try {
          app.routing(request.raw, reply.raw);
        } finally {
          // The hooks run synchronously up to the throw; the error handler and the access log see the real URL.
          raw.url = original;
        }
        return;
      }
      const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
      (reply as unknown as FastifyReply)
        .header('X-Request-Id', request.id)
        .status(status)
        .send({ statusCode: status, error: STATUS_CODES[status], message: error.message });
    },
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

  // A cap on open connections: past it, Node closes a new connection at once (logged), so a flood of idle or
  // trickling connections cannot exhaust the process's sockets and memory.
  app.server.maxConnections = config.maxConnections;
  app.server.on('drop', (data: { remoteAddress?: string } | undefined) => {
    app.log.warn(
      { remoteAddress: data?.remoteAddress, maxConnections: config.maxConnections },
      'connection refused: too many open',
    );
  });

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
  const { metrics } = options;
  if (metrics) {
    const apiOf = options.apiOf ?? (() => 'platform');
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
      const measured =
        (request.routeOptions.config as MeasuredConfig)?.[ROUTE_METRICS] ?? unmatchedMetrics(request.url);
      measured.observe(reply.statusCode, reply.elapsedTime);
      done();
    });
  }
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
      'request completed',
    );
  });

  // A JSON content type with an empty body means "no body" (PUT …/trash, publish calls, DELETE).
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    if (nestedDeeperThan(body as string, MAX_JSON_DEPTH)) {
      return done(new BadBody(`The body is nested more than ${MAX_JSON_DEPTH} levels deep.`), undefined);
    }
    defaultJson(request, body as string, (err, value) => {
      if (err) return done(new BadBody('The body is not valid JSON.'), undefined);
      done(null, value);
    });
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const parsed = formParser(body as string);
    const repeated = Object.entries(parsed).find(([, v]) => Array.isArray(v));
    if (repeated) return done(new BadBody(`Form parameter "${repeated[0]}" is repeated.`), undefined);
    done(null, parsed);
  });

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

  // What is running (docs/production.md, "Operational endpoints"): computed once.
  const running = buildInfo();
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Atrium',
        version: running.version,
        description:
          "The HR service delivery client API (`/api/v2/client`) and the Academy events API (`/v1`), as served by this Atrium instance, and its admin API (`/admin/v1`): the operators' view of every tenant and the sandbox controls.",
        // The project has no public repository or issue tracker URL yet (package.json has none): a name only.
        contact: { name: 'Atrium maintainers' },
        license: { name: 'MIT', identifier: 'MIT' },
      },
      // Relative to where the document is served: right for any instance, behind any proxy. The second is where
      // `npm start` listens by default, for tools that read the document from a file.
      servers: [
        { url: '/', description: 'This Atrium server (the one serving this document).' },
        {
          url: 'http://127.0.0.1:8080',
          description: 'A local Atrium started with `npm start` (default host and port).',
        },
      ],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'From POST /api/v2/client/tokens.',
          },
          basicAuth: { type: 'http', scheme: 'basic', description: 'Application id and secret.' },
          academyApiKey: {
            type: 'apiKey',
            in: 'query',
            name: 'apikey',
            description: 'Academy API (/v1): the academy’s API key, with its acadId in the query.',
          },
          adminToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              'Admin API (/admin/v1): an operator token, `atrium_admin_…`, from `atrium admin create-token`.',
          },
          adminSession: {
            type: 'apiKey',
            in: 'cookie',
            name: 'atrium_admin_session',
            description:
              'Admin API (/admin/v1): the cookie of a session opened with an operator token (POST /admin/v1/session), with `X-CSRF-Token` on every call that changes something.',
          },
          academyApiKeyHeader: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-Key',
            description: 'Academy API (/v1): the academy’s API key as a header, with its acadId in the query.',
          },
        },
      },
      // The HR API's default; every /v1 operation declares the academy schemes instead.
      security: [{ bearerAuth: [] }],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    // Built once, on the first request for the document (@fastify/swagger caches it).
    transformObject: (document) =>
      finishDocument(
        ('openapiObject' in document ? document.openapiObject : document.swaggerObject) as OpenApiDocument,
        options.documentation ?? [],
      ),
  });
  // The OpenAPI document's answer, made on its first request and kept, with its compressed forms (static-body.ts).
  const document = lazyBody(() => JSON.stringify(app.swagger()));
  await app.register(docsPage, { document });
  // The console is linked where it is served: on this port, unless the admin API has a port of its own.
  await app.register(landingPage, { version: running.version, console: options.config.adminPort === undefined });

  // Both JSON files are revalidated at each use (`no-cache`): their ETag makes that a 304 with no body.
  app.get('/openapi.json', { schema: { hide: true } }, async (request, reply) =>
    sendStatic(request, reply, await document(), 'application/json; charset=utf-8', 'no-cache'),
  );
  // The Postman collection of the document, built with the package (`npm run build`: scripts/build-openapi.ts), since
  // its converter is a development tool only; read once, on the first request.
  const postman = lazyBody(() => readFile(path.join(PACKAGE_ROOT, POSTMAN_COLLECTION)));
  app.get('/docs/postman.json', { schema: { hide: true } }, async (request, reply) => {
    let body: StaticBody;
    try {
      body = await postman();
    } catch {
      throw new NotFoundError(
        'file',
        POSTMAN_COLLECTION,
        `The Postman collection is not built (${POSTMAN_COLLECTION}): run \`npm run build\`.`,
      );
    }
    return sendStatic(request, reply, body, 'application/json; charset=utf-8', 'no-cache');
  });
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/version', { schema: { hide: true } }, async () => running);
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await database.ping();
      return { status: 'ok', database: database.dialect };
    } catch {
      return reply.status(503).send({ status: 'unavailable', database: database.dialect });
    }
  });
  return app as unknown as FastifyInstance;
}
