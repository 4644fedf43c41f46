/**
 * The server's own routes, outside the APIs: the OpenAPI document (registered with @fastify/swagger) and its
 * reference page, the parity page (`/parity`), the landing page, the Postman collection, and the health and version checks.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import swagger, { type SwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { buildInfo, PACKAGE_ROOT } from '../build-info.js';
import type { Database } from '../db/database.js';
import { NotFoundError } from '../errors.js';
import { docsPage } from './docs-page.js';
import { landingPage } from './landing-page.js';
import { type ApiDocumentation, finishDocument, type OpenApiDocument } from './openapi.js';
import { parityPage } from './parity-page.js';
import { lazyBody, type StaticBody, sendStatic } from './static-body.js';

/** Where `npm run build` writes the Postman collection of the OpenAPI document, from the package root. */
export const POSTMAN_COLLECTION = 'dist/openapi/postman.json';

export interface PlatformRoutesOptions {
  database: Database;
  /** What each API adds to the OpenAPI document (ServerOptions). */
  documentation: readonly ApiDocumentation[];
  /** Whether the landing page links the console (served on this port: no admin port of its own). */
  console: boolean;
}

/** The OpenAPI document's options: what it says of the server and its security schemes, and each API's additions. */
function swaggerOptions(version: string, documentation: readonly ApiDocumentation[]): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Atrium',
        version,
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
        documentation,
      ),
  };
}

export async function addPlatformRoutes(app: FastifyInstance, options: PlatformRoutesOptions): Promise<void> {
  const { database } = options;
  // What is running (docs/production.md, "Operational endpoints"): computed once.
  const running = buildInfo();
  await app.register(swagger, swaggerOptions(running.version, options.documentation));
  // The OpenAPI document's answer, made on its first request and kept, with its compressed forms (static-body.ts).
  const document = lazyBody(() => JSON.stringify(app.swagger()));
  await app.register(docsPage, { document });
  await app.register(landingPage, { version: running.version, console: options.console });
  // The parity page (docs/parity.md), beside /docs.
  await app.register(parityPage);

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
}
