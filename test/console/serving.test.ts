/**
 * The console's page and assets as HTTP sees them (the browser tests drive the page itself). They need the console
 * built (`npm run build`, which `npm test` runs first).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../support/harness.js';
import { fetchOpenApi } from '../support/openapi.js';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

describe('the console, /console', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('sqlite');
  });
  after(() => server.close());

  it('redirects /console to /console/, and serves its page there and at every page path, uncached', async () => {
    const bare = await fetch(`${server.url}/console`, { redirect: 'manual' });
    assert.equal(bare.status, 302);
    assert.equal(bare.headers.get('location'), '/console/');
    for (const path of ['/console/', '/console/tenants', '/console/some/deep/page?x=1']) {
      const res = await fetch(`${server.url}${path}`);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(res.headers.get('content-security-policy'), CSP);
      assert.equal(res.headers.get('cache-control'), 'no-cache');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
      const html = await res.text();
      assert.match(html, /<title>Atrium console<\/title>/);
      assert.match(html, /<div id="app"><\/div>/);
      assert.match(html, /<script type="module" crossorigin src="\/console\/assets\/index-[\w-]+\.js"><\/script>/);
      assert.doesNotMatch(html, /https?:\/\//, 'nothing from another origin');
    }
  });

  it('serves each asset the page names, cached for good (content-hashed names), and 404s any other', async () => {
    const html = await (await fetch(`${server.url}/console/`)).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1] as string);
    assert.ok(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')), assets.join(', '));
    for (const asset of assets) {
      const res = await fetch(`${server.url}${asset}`);
      assert.equal(res.status, 200, asset);
      assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(
        res.headers.get('content-type'),
        asset.endsWith('.js') ? 'application/javascript; charset=utf-8' : 'text/css; charset=utf-8',
      );
      assert.ok((await res.arrayBuffer()).byteLength > 100);
    }
    for (const missing of ['/console/assets/nope.js', '/console/assets/..%2F..%2Fpackage.json', '/console/assets/']) {
      const res = await fetch(`${server.url}${missing}`);
      assert.ok(res.status === 404, `${missing}: ${res.status}`);
      assert.doesNotMatch(await res.text(), /"name":\s*"atrium"/);
    }
  });

  it('is not an operation of the OpenAPI document', async () => {
    const doc = (await fetchOpenApi(server.url)) as { paths: Record<string, unknown> };
    assert.deepEqual(
      Object.keys(doc.paths).filter((p) => p.startsWith('/console')),
      [],
    );
  });
});

describe('the console with the admin API on a port of its own', () => {
  let server: TestServer;
  let adminUrl: string;
  before(async () => {
    server = await startServer('sqlite', { ATRIUM_ADMIN_PORT: '0' });
    adminUrl = ((await server.app.listenAdmin()) as { url: string }).url;
  });
  after(() => server.close());

  it('is served on the admin port, beside the API it calls, and not on the main port', async () => {
    assert.equal((await fetch(`${adminUrl}/console/`)).status, 200);
    assert.equal((await fetch(`${server.url}/console/`)).status, 404);
    assert.equal((await fetch(`${server.url}/console`)).status, 404);
    const landing = await (await fetch(`${server.url}/`)).text();
    assert.doesNotMatch(landing, /href="console\//, 'the landing page links only to what its port serves');
    assert.match(landing, /href="docs"/);
  });
});
