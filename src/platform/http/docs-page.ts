import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { lazyBody, StaticBody, sendStatic } from './static-body.js';
import { escapeHtml, FAVICON, securePage } from './web-page.js';

/**
 * The API reference page, `GET /docs`: Swagger UI over `/openapi.json`, served from the `swagger-ui-dist` package
 * (Apache-2.0; its one dependency, `@scarf/scarf`, has its install report turned off in package.json), every asset
 * from this server. It replaces `@fastify/swagger-ui`, whose
 * `@fastify/static` brought `glob`, `minimatch`, `minipass`, `path-scurry` and `lru-cache` (BlueOak-1.0.0, outside
 * the licences Atrium's dependencies may have) into the production install.
 *
 * `/docs` and `/docs/` redirect to `/docs/static/index.html`, so that every link of the page is relative and the page
 * works behind a proxy that serves Atrium under a path of its own. `/docs/json` and `/docs/yaml` are the document,
 * as `@fastify/swagger-ui` served them.
 *
 * Every file of the page is sent compressed (Brotli or gzip, per `Accept-Encoding`) with an `ETag` and
 * `Cache-Control: public, max-age=3600` (static-body.ts); `/docs/json` is `/openapi.json`'s answer.
 *
 * Branded Atrium: the page's title and icon are Atrium's, and Swagger UI runs in its base layout, without the
 * standalone preset's top bar (the Swagger logo and a box to load another document's URL).
 */

const DIST = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The files of swagger-ui-dist the page uses, with their types; nothing else of the folder is served. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
};

const INDEX = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>Atrium API reference</title>
    <link rel="stylesheet" type="text/css" href="./swagger-ui.css">
    <link rel="stylesheet" type="text/css" href="./index.css">
    <link rel="icon" type="image/svg+xml" href="${escapeHtml(FAVICON)}">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="./swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="./swagger-initializer.js" charset="UTF-8"></script>
  </body>
</html>
`;

/**
 * No validator badge (it would call validator.swagger.io), the document of this server, relative to the page; the
 * base layout, with no top bar.
 */
const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '../../openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
};
`;

/**
 * Everything from this server; Swagger UI sets inline styles and uses data: images for its icons (and the page's
 * favicon is one). `upgrade-insecure-requests` is added over https only (web-page.ts).
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
];

function page(request: FastifyRequest, reply: FastifyReply, type: string, body: StaticBody): Promise<FastifyReply> {
  return sendStatic(request, securePage(request, reply, CSP), body, type, 'public, max-age=3600');
}

/** Options of the docs page: the OpenAPI document's answer, shared with `/openapi.json`. */
export interface DocsPageOptions {
  document: () => Promise<StaticBody>;
}

export async function docsPage(app: FastifyInstance, options: DocsPageOptions): Promise<void> {
  const hide = { schema: { hide: true } };
  const index = new StaticBody(INDEX);
  const initializer = new StaticBody(INITIALIZER);
  const files = new Map<string, () => Promise<StaticBody>>();
  // One route for both spellings (the server ignores a trailing slash); the Location is relative to each.
  app.get('/docs', hide, async (request, reply) =>
    reply.redirect(
      (request.url.split('?', 1)[0] as string).endsWith('/') ? 'static/index.html' : 'docs/static/index.html',
    ),
  );
  app.get('/docs/json', hide, async (request, reply) =>
    sendStatic(request, reply, await options.document(), 'application/json; charset=utf-8', 'no-cache'),
  );
  app.get('/docs/yaml', hide, async (_request, reply) =>
    reply.type('application/yaml; charset=utf-8').send(app.swagger({ yaml: true })),
  );
  app.get('/docs/static/index.html', hide, async (request, reply) =>
    page(request, reply, 'text/html; charset=utf-8', index),
  );
  app.get('/docs/static/swagger-initializer.js', hide, async (request, reply) =>
    page(request, reply, 'application/javascript; charset=utf-8', initializer),
  );
  // The name is checked like any path parameter (an asset's name is short; U+0000 never reaches the file system).
  const asset = { schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 64 }) }) } };
  app.get<{ Params: { file: string } }>('/docs/static/:file', asset, async (request, reply) => {
    const { file } = request.params;
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!type) return reply.callNotFound();
    let body = files.get(file);
    if (!body) {
      body = lazyBody(() => readFile(path.join(DIST, file)));
      files.set(file, body);
    }
    return page(request, reply, type, await body());
  });
}
