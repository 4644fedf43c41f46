/**
 * Build step (`npm run build`, hence `prepare`): writes the OpenAPI document and its Postman collection into dist/.
 *
 * - `dist/openapi/openapi.json`: the document the server serves at `/openapi.json`, for tools that read a file
 *   (`npm run lint:openapi`, client generators);
 * - `dist/openapi/postman.json`: the Postman collection (scripts/postman.ts) the server serves at
 *   `/docs/postman.json`.
 *
 * The app is built as the server builds it, on a throwaway SQLite database, and never listens.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/platform/config.js';
import { POSTMAN_COLLECTION } from '../src/platform/http/platform-routes.js';
import { postmanCollection } from './postman.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The OpenAPI document, from an app built on a throwaway database. */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-openapi-'));
  try {
    const app = await buildApp(loadConfig({ ATRIUM_DATA_DIR: dataDir, LOG_LEVEL: 'warn' }));
    try {
      await app.server.ready();
      return app.server.swagger() as unknown as Record<string, unknown>;
    } finally {
      await app.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const document = await openApiDocument();
  const collection = await postmanCollection(document);
  const postman = path.join(root, POSTMAN_COLLECTION);
  mkdirSync(path.dirname(postman), { recursive: true });
  writeFileSync(path.join(path.dirname(postman), 'openapi.json'), `${JSON.stringify(document, null, 2)}\n`);
  writeFileSync(postman, `${JSON.stringify(collection, null, 2)}\n`);
}
