/** Response headers in the OpenAPI document are a map of real header names to schemas (issue 17, item 7). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, startServer, type TestServer } from '../support/harness.js';
import { fetchOpenApi, type OpenApiDocument } from '../support/openapi.js';

type Responses = Record<string, { headers?: Record<string, { schema?: unknown; description?: string }> }>;

describe('OpenAPI response headers', () => {
  let server: TestServer;
  let doc: OpenApiDocument;
  before(async () => {
    server = await startServer(dialects()[0] ?? 'sqlite');
    doc = await fetchOpenApi(server.url);
  });
  after(() => server.close());

  const responses = (path: string, method: string) =>
    ((doc.paths[path]?.[method] as { responses?: Responses } | undefined)?.responses ?? {}) as Responses;

  it('every declared header has a header name and a schema (no "type", "properties" or "required" headers)', () => {
    const bad: string[] = [];
    let count = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries((op as { responses?: Responses }).responses ?? {})) {
          for (const [name, header] of Object.entries(response.headers ?? {})) {
            count++;
            if (['type', 'properties', 'required'].includes(name) || !/^[A-Za-z][A-Za-z0-9-]*$/.test(name)) {
              bad.push(`${method.toUpperCase()} ${path} ${status}: "${name}"`);
            } else if (!header.schema) bad.push(`${method.toUpperCase()} ${path} ${status}: ${name} has no schema`);
          }
        }
      }
    }
    assert.deepEqual(bad, []);
    assert.ok(count > 50, `${count} headers declared`);
  });

  it('lists document their pagination headers, counts X-Total-Count, tokens no-store, downloads their file headers', () => {
    const list = responses('/api/v2/client/organizations', 'get')['200']?.headers ?? {};
    assert.deepEqual(Object.keys(list).sort(), ['Link', 'Next-Cursor', 'Previous-Cursor']);
    assert.match(list['Next-Cursor']?.description ?? '', /next page/);
    const comments = responses('/api/v2/client/requests/{id}/comments', 'get')['200']?.headers ?? {};
    assert.ok('Next-Cursor' in comments, 'the comments list too');
    const count = Object.values(responses('/api/v2/client/organizations', 'head')).flatMap((r) =>
      Object.keys(r.headers ?? {}),
    );
    assert.ok(count.includes('X-Total-Count'), JSON.stringify(count));
    assert.ok('Cache-Control' in (responses('/api/v2/client/tokens', 'post')['200']?.headers ?? {}));
    const download = responses('/api/v2/client/employee_documents/{id}/file', 'get')['200']?.headers ?? {};
    assert.ok('Content-Disposition' in download, JSON.stringify(Object.keys(download)));
  });
});
