/**
 * The SDK covers the API: every operation of the OpenAPI document has an SDK method, and every SDK method calls a
 * documented operation. The methods are found by walking the clients (no list kept by hand; test/support/sdk.ts):
 * each is called once with placeholder arguments against a recording `fetch`, and the (method, path) it sent is
 * matched to the document's path templates. A new route without an SDK method, or a method whose path drifted,
 * fails here.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, startServer, type TestServer } from '../support/harness.js';
import { fetchOpenApi, operations } from '../support/openapi.js';
import { BROWSER_ONLY, NOT_IN_SDK, sdkOperations } from '../support/sdk.js';

const dialect = dialects()[0] ?? 'sqlite';

describe('SDK ↔ OpenAPI parity', () => {
  let server: TestServer;
  let documented: { hr: string[]; academy: string[]; admin: string[] };

  before(async () => {
    server = await startServer(dialect);
    const ops = operations(await fetchOpenApi(server.url), ['hr', 'academy', 'admin']);
    documented = {
      hr: ops.filter((o) => o.api === 'hr').map((o) => `${o.method} ${o.path}`),
      academy: ops.filter((o) => o.api === 'academy').map((o) => `${o.method} ${o.path}`),
      admin: ops.filter((o) => o.api === 'admin').map((o) => `${o.method} ${o.path}`),
    };
  });
  after(() => server.close());

  const check = async (api: 'hr' | 'academy' | 'admin') => {
    const templates = documented[api];
    assert.ok(templates.length > (api === 'admin' ? 3 : 10), 'the document lists the operations');
    const { byOperation, strays } = await sdkOperations(api, templates);
    assert.deepEqual(strays, [], `SDK methods without a documented operation:\n${strays.join('\n')}`);
    const missing = templates.filter((t) => !byOperation.has(t) && !(t in NOT_IN_SDK) && !(t in BROWSER_ONLY)).sort();
    assert.deepEqual(missing, [], `documented operations without an SDK method:\n${missing.join('\n')}`);
  };

  it('every exception names a documented operation', () => {
    const all = new Set([...documented.hr, ...documented.academy]);
    const stale = Object.entries(NOT_IN_SDK)
      .filter(([t, { aliasOf }]) => !all.has(t) || !all.has(aliasOf))
      .map(([t]) => t);
    assert.deepEqual(stale, [], 'exceptions for operations the document no longer has');
    const admin = new Set(documented.admin);
    assert.deepEqual(
      Object.keys(BROWSER_ONLY).filter((t) => !admin.has(t)),
      [],
      'browser-only operations the document no longer has',
    );
  });

  it('every HR operation has an HrClient method, and every method calls one', async () => {
    await check('hr');
  });

  it('every Academy operation has an AcademyClient method, and every method calls one', async () => {
    await check('academy');
  });

  it('every admin operation has an AdminClient method, and every method calls one', async () => {
    await check('admin');
  });
});
