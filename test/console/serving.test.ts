/**
 * The console's page and assets as HTTP sees them (the browser tests drive the page itself). They need the console
 * built (`npm run build`, which `npm test` runs first).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startServer, type TestServer } from '../support/harness.js';
import { fetchOpenApi } from '../support/openapi.js';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; frame-src blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

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

  /** A raw GET (fetch would decompress): status, headers and the bytes as sent. */
  const raw = (path: string, acceptEncoding?: string) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .get(
          `${server.url}${path}`,
          { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
            );
          },
        )
        .on('error', reject);
    });

  it('compresses the page and its assets for a client that takes it (brotli, else gzip), the same bytes inside', async () => {
    const html = (await raw('/console/')).body.toString('utf8');
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1] as string;
    const plain = await raw(script);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    const br = await raw(script, 'gzip, deflate, br');
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.headers.vary, 'Accept-Encoding');
    assert.ok(br.body.length < plain.body.length / 2, `${br.body.length} of ${plain.body.length}`);
    assert.deepEqual(brotliDecompressSync(br.body), plain.body);
    const gz = await raw(script, 'br;q=0, gzip');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(gz.body), plain.body);
    assert.equal((await raw(script, 'identity')).headers['content-encoding'], undefined);
    assert.equal((await raw(script, 'br;q=0')).headers['content-encoding'], undefined);
    const again = await raw(script, 'br');
    assert.deepEqual(again.body, br.body, 'made once, then kept');
  });

  it('loads in under 300 KB, compressed: the page, its script and its style (docs/console.md)', async () => {
    const page = await raw('/console/', 'br');
    // The page itself is under a kilobyte: sent as it is.
    const html = (page.headers['content-encoding'] === 'br' ? brotliDecompressSync(page.body) : page.body).toString(
      'utf8',
    );
    const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1] as string);
    let total = page.body.length;
    for (const asset of assets) total += (await raw(asset, 'br')).body.length;
    assert.ok(total < 300 * 1024, `first load: ${total} bytes`);
    console.log(`console first load, brotli: ${(total / 1024).toFixed(1)} KB`);
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
