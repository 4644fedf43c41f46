/**
 * What client generators and API tools need from the OpenAPI document (issue 17, item 8): a unique operationId on
 * every operation, named after the SDK method that calls it; servers, license and contact; a real description on
 * every response; examples of the main bodies that match their schemas.
 */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { dialects, startServer, type TestServer } from '../support/harness.js';
import { fetchOpenApi, type OpenApiDocument, operations, resolveRefs } from '../support/openapi.js';
import { ROOT } from '../support/root.js';
import { BROWSER_ONLY, NOT_IN_SDK, sdkOperations } from '../support/sdk.js';

interface Media {
  schema?: unknown;
  example?: unknown;
}
interface Operation {
  operationId?: string;
  tags?: string[];
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { description?: string; content?: Record<string, Media> }>;
}
type Document = OpenApiDocument & {
  info: { license?: { name?: string; identifier?: string }; contact?: { name?: string; url?: string } };
  servers?: Array<{ url: string; description?: string }>;
  tags?: Array<{ name: string }>;
};

/** `requests.comments.list` → `hr_requests_comments_list` (the convention, docs/openapi.md). */
const idOf = (api: 'hr' | 'academy' | 'admin', method: string) => `${api}_${method.replaceAll('.', '_')}`;

describe('OpenAPI document for tools', () => {
  let server: TestServer;
  let doc: Document;
  const each = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op: op as Operation })),
    );

  before(async () => {
    server = await startServer(dialects()[0] ?? 'sqlite');
    doc = (await fetchOpenApi(server.url)) as Document;
  });
  after(() => server.close());

  it('every operation has a unique operationId, the SDK method that calls it', async () => {
    const ids = new Map<string, string>();
    for (const { key, op } of each()) ids.set(key, op.operationId ?? '');
    const missing = [...ids].filter(([, id]) => !/^[A-Za-z0-9_]+$/.test(id)).map(([key]) => key);
    assert.deepEqual(missing, [], 'operations without an operationId');
    assert.equal(new Set(ids.values()).size, ids.size, 'operationIds are unique');

    const wrong: string[] = [];
    for (const api of ['hr', 'academy', 'admin'] as const) {
      const templates = operations(doc, [api])
        .filter((o) => o.api === api)
        .map((o) => `${o.method} ${o.path}`);
      const { byOperation, strays } = await sdkOperations(api, templates);
      assert.deepEqual(strays, [], 'every SDK method calls a documented operation');
      for (const template of templates) {
        // A browser-only operation has no SDK method: its operationId follows the convention all the same.
        if (template in BROWSER_ONLY) continue;
        const alias = NOT_IN_SDK[template];
        const names = [...(byOperation.get(alias?.aliasOf ?? template) ?? [])];
        const expected = names.map((name) => idOf(api, name) + (alias ? '_alias' : ''));
        if (!expected.includes(ids.get(template) ?? '')) {
          wrong.push(`${template}: ${ids.get(template)}, expected ${expected.join(' or ') || '(no SDK method)'}`);
        }
      }
    }
    assert.deepEqual(wrong, [], `operationIds that are not their SDK method:\n${wrong.join('\n')}`);
    assert.equal(ids.get('GET /api/v2/client/requests/{id}/comments'), 'hr_requests_comments_list');
    assert.equal(ids.get('GET /v1/events/vc'), 'academy_events_vc_list');
  });

  it('has servers, an MIT license and a contact (a name: the project has no public URL yet)', () => {
    assert.deepEqual(doc.info.license, { name: 'MIT', identifier: 'MIT' });
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
      bugs?: { url?: string } | string;
      homepage?: string;
    };
    // A contact URL only once package.json names the project's issue tracker or home page.
    const url = typeof pkg.bugs === 'string' ? pkg.bugs : (pkg.bugs?.url ?? pkg.homepage);
    assert.deepEqual(doc.info.contact, url ? { name: 'Atrium maintainers', url } : { name: 'Atrium maintainers' });
    assert.equal((doc.info as { version?: string }).version, pkg.version);
    assert.equal(doc.servers?.[0]?.url, '/', 'relative to where the document is served');
    assert.ok(
      doc.servers?.some((s) => s.url === 'http://127.0.0.1:8080'),
      JSON.stringify(doc.servers),
    );
  });

  it('every response has a description of its own, and the tags are declared', () => {
    const bare: string[] = [];
    let count = 0;
    for (const { key, op } of each()) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        count++;
        const text = response.description ?? '';
        if (text.length < 8 || text === 'Default Response' || text === 'No body.' || text.includes('undefined')) {
          bare.push(`${key} ${status}: ${JSON.stringify(text)}`);
        }
      }
    }
    assert.deepEqual(bare, [], `responses without a real description:\n${bare.join('\n')}`);
    assert.ok(count > 900, `${count} responses`);
    const op = (path: string, method: string) => doc.paths[path]?.[method] as Operation;
    const described = (path: string, method: string, status: string) =>
      op(path, method).responses?.[status]?.description;
    assert.equal(described('/api/v2/client/employees/{id}', 'get', '404'), 'No such employee in this tenant.');
    assert.match(described('/api/v2/client/requests', 'get', '200') ?? '', /^A page of the requests/);
    assert.equal(described('/v1/events/vc/{eventid}', 'get', '200'), 'The virtual classroom event.');
    assert.equal(
      described('/api/v2/client/requests/{id}/comments/{comment_id}/attachments/{attachment_id}', 'get', '404'),
      'No such request, comment or attachment in this tenant.',
    );
    const used = new Set(each().flatMap(({ op }) => op.tags ?? []));
    assert.deepEqual(new Set(doc.tags?.map((t) => t.name)), used);
  });

  it('the main request and response bodies have examples, each valid against its schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const invalid: string[] = [];
    const requests: string[] = [];
    let responses = 0;
    // Compiled once per schema (every error response shares a few).
    const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
    for (const { key, op } of each()) {
      const check = (where: string, media: Media) => {
        if (media.example === undefined) return false;
        const text = JSON.stringify(media.schema ?? {});
        const validate = compiled.get(text) ?? ajv.compile(resolveRefs(media.schema ?? {}, doc) as object);
        compiled.set(text, validate);
        if (!validate(media.example)) invalid.push(`${key} ${where}: ${ajv.errorsText(validate.errors)}`);
        return true;
      };
      for (const media of Object.values(op.requestBody?.content ?? {})) if (check('body', media)) requests.push(key);
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        for (const media of Object.values(response.content ?? {})) if (check(status, media)) responses++;
      }
    }
    assert.deepEqual(invalid, [], `examples that break their schema:\n${invalid.join('\n')}`);
    for (const main of [
      'POST /api/v2/client/tokens',
      'PUT /api/v2/client/organizations/{id}',
      'POST /api/v2/client/employees',
      'POST /api/v2/client/employee_documents',
      'POST /api/v2/client/requests',
      'POST /api/v2/client/requests/{id}/comments',
      'POST /v1/events/vc',
    ]) {
      assert.ok(requests.includes(main), `${main} has a request example`);
    }
    assert.ok(responses > 100, `${responses} response examples`);
    const retrieve = doc.paths['/api/v2/client/employees/{id}']?.get as Operation | undefined;
    const employee = retrieve?.responses?.['200']?.content?.['application/json']?.example as { firstname?: string };
    assert.equal(employee?.firstname, 'Ada');
  });
});
