/**
 * The server's large fixed answers, `/openapi.json`, `/docs/postman.json` and the `/docs` page's files, are compressed
 * per `Accept-Encoding` (Brotli, else gzip, else identity) with `Vary: Accept-Encoding`, carry a strong `ETag` per
 * representation, and a second visit that names it moves nothing (304, no body). src/platform/http/static-body.ts.
 *
 * Requests go through node:http, which (unlike fetch) neither sends an `Accept-Encoding` of its own nor decodes the
 * body, so what the server sends is what is asserted.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { chooseCoding } from '../../src/platform/http/static-body.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** Each answer, its type and its Cache-Control. */
const FILES: Array<[string, RegExp, string]> = [
  ['/openapi.json', /^application\/json; charset=utf-8$/, 'no-cache'],
  ['/docs/json', /^application\/json; charset=utf-8$/, 'no-cache'],
  ['/docs/postman.json', /^application\/json; charset=utf-8$/, 'no-cache'],
  ['/docs/static/swagger-ui-bundle.js', /^application\/javascript/, 'public, max-age=3600'],
  ['/docs/static/swagger-ui.css', /^text\/css/, 'public, max-age=3600'],
  ['/docs/static/index.html', /^text\/html/, 'public, max-age=3600'],
];

describe('compression and caching of the documents and the /docs page', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(dialects()[0] ?? 'sqlite');
  });
  after(() => server?.close());

  for (const [path, type, cacheControl] of FILES) {
    it(`${path}: Brotli, gzip or identity per Accept-Encoding, the same bytes decoded, a strong ETag each`, async () => {
      const identity = await get(`${server.url}${path}`);
      assert.equal(identity.status, 200);
      assert.equal(identity.headers['content-encoding'], undefined, 'no Accept-Encoding: identity');
      assert.match(String(identity.headers['content-type']), type);
      assert.equal(identity.headers['cache-control'], cacheControl);
      assert.match(String(identity.headers.vary), /(^|, )Accept-Encoding$/);
      assert.equal(Number(identity.headers['content-length']), identity.body.length);
      const etag = String(identity.headers.etag);
      assert.match(etag, /^"[A-Za-z0-9_-]{32}"$/, 'a strong ETag');

      const br = await get(`${server.url}${path}`, { 'accept-encoding': 'gzip, deflate, br' });
      assert.equal(br.status, 200);
      assert.equal(br.headers['content-encoding'], 'br');
      assert.match(String(br.headers.vary), /(^|, )Accept-Encoding$/);
      assert.equal(br.headers['cache-control'], cacheControl);
      assert.equal(br.headers.etag, `${etag.slice(0, -1)}-br"`, 'its own ETag');
      assert.ok(br.body.length < identity.body.length / 2, `${br.body.length} bytes of ${identity.body.length}`);
      assert.ok(brotliDecompressSync(br.body).equals(identity.body), 'decoded, the identity body');

      const gzip = await get(`${server.url}${path}`, { 'accept-encoding': 'gzip, br;q=0' });
      assert.equal(gzip.headers['content-encoding'], 'gzip');
      assert.equal(gzip.headers.etag, `${etag.slice(0, -1)}-gzip"`);
      assert.ok(gunzipSync(gzip.body).equals(identity.body), 'decoded, the identity body');

      const refused = await get(`${server.url}${path}`, { 'accept-encoding': 'identity, br;q=0, gzip;q=0' });
      assert.equal(refused.headers['content-encoding'], undefined);
      assert.ok(refused.body.equals(identity.body));

      // A second visit moves nothing; an ETag of another representation does not stand for this one.
      for (const [headers, current] of [
        [{}, etag],
        [{ 'accept-encoding': 'br' }, String(br.headers.etag)],
        [{ 'accept-encoding': 'gzip' }, String(gzip.headers.etag)],
      ] as const) {
        const again = await get(`${server.url}${path}`, { ...headers, 'if-none-match': `"other", ${current}` });
        assert.equal(again.status, 304, JSON.stringify(headers));
        assert.equal(again.body.length, 0, 'no body');
        assert.equal(again.headers.etag, current);
        assert.equal(again.headers['cache-control'], cacheControl);
        assert.match(String(again.headers.vary), /(^|, )Accept-Encoding$/);
      }
      const stale = await get(`${server.url}${path}`, { 'accept-encoding': 'br', 'if-none-match': etag });
      assert.equal(stale.status, 200, 'the identity ETag does not match the Brotli answer');
      assert.equal(stale.headers['content-encoding'], 'br');
    });
  }

  it('the same answer is served again from what was computed (same bytes, same ETag)', async () => {
    const first = await get(`${server.url}/openapi.json`, { 'accept-encoding': 'br' });
    const second = await get(`${server.url}/openapi.json`, { 'accept-encoding': 'br' });
    assert.equal(second.headers.etag, first.headers.etag);
    assert.ok(second.body.equals(first.body));
  });

  it('Accept-Encoding is read with its weights', () => {
    assert.equal(chooseCoding(undefined), undefined);
    assert.equal(chooseCoding(''), undefined);
    assert.equal(chooseCoding('identity'), undefined);
    assert.equal(chooseCoding('gzip'), 'gzip');
    assert.equal(chooseCoding('gzip, deflate, br, zstd'), 'br');
    assert.equal(chooseCoding('BR;Q=0.5'), 'br');
    assert.equal(chooseCoding('br;q=0, gzip;q=0.1'), 'gzip');
    assert.equal(chooseCoding('*'), 'br');
    assert.equal(chooseCoding('*;q=0'), undefined);
    assert.equal(chooseCoding('*, br;q=0'), 'gzip');
    assert.equal(chooseCoding('deflate'), undefined);
    assert.equal(chooseCoding('br;q=nonsense'), undefined);
  });
});
