import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { loggerOptions } from '../logger.js';
import { validatorCompiler } from './validation.js';

const REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

export interface ServerOptions {
  config: Config;
  database: Database;
  /** A ready logger (tests capture logs through it); otherwise one is made from the config. */
  logger?: Logger;
}

function formParser(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

class BadBody extends Error {
  readonly statusCode = 400;
}

/**
 * The HTTP server both APIs plug into: request ids, one access-log line per
 * request, body and time limits, tolerant JSON and form parsing, schema
 * validation, the OpenAPI document and its reference page, and health checks.
 */
export async function createServer(options: ServerOptions): Promise<FastifyInstance> {
  const { config, database } = options;
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
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs,
    keepAliveTimeout: 72_000,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    // Every context, including plugins that add shared schemas, validates with Atrium's compiler
    // (no coercion of bodies). setValidatorCompiler alone is lost in such child contexts.
    // (Fastify types this factory as returning an ajv compile function; a route validator compiler is what it calls.)
    schemaController: { compilersFactory: { buildValidator: (() => validatorCompiler) as never } },
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
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

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Atrium',
        version: '0.1.0',
        description:
          'The HR service delivery client API (`/api/v2/client`) and the Academy events API (`/v1`), as served by this Atrium instance.',
      },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'From POST /api/v2/client/tokens.',
          },
          basicAuth: { type: 'http', scheme: 'basic', description: 'Application id and secret.' },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
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
