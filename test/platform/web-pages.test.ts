/**
 * The server's web pages at the HTTP level: the landing page `GET /`, and the Content-Security-Policy of it and of
 * `/docs`, which upgrades insecure requests over https only (https known from the connection, or from
 * `X-Forwarded-Proto` sent by a proxy ATRIUM_TRUST_PROXY trusts). test/browser/pages.test.ts renders them.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { dialects, startServer, type TestServer } from '../support/harness.js';

const dialect = dialects()[0] ?? 'sqlite';
const PAGES = ['/', '/docs/static/index.html'];
/** The docs page is compressed per Accept-Encoding too (test/platform/compression.test.ts). */
const VARY: Record<string, string> = {
  '/': 'X-Forwarded-Proto',
  '/docs/static/index.html': 'X-Forwarded-Proto, Accept-Encoding',
};

describe('web pages', () => {
  let server: TestServer;
  let proxied: TestServer;
  before(async () => {
    server = await startServer(dialect);
    proxied = await startServer(dialect, { ATRIUM_TRUST_PROXY: '1' });
  });
  after(async () => {
    await server?.close();
    await proxied?.close();
  });

  it('GET / answers the landing page: HTML, no script, its style allowed by its hash, links to the pages and health endpoints', async () => {
    const res = await fetch(`${server.url}/`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'no-cache');
    assert.equal(res.headers.get('vary'), 'X-Forwarded-Proto');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const html = await res.text();
    const style = /<style>([\s\S]*)<\/style>/.exec(html)?.[1] ?? '';
    assert.match(style, /@media \(prefers-color-scheme: dark\)/, 'a dark mode');
    assert.equal(
      res.headers.get('content-security-policy'),
      `default-src 'none'; style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    assert.match(html, /^<!DOCTYPE html>\n<html lang="en">/);
    assert.match(html, /<title>Atrium<\/title>/);
    assert.match(html, /<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,/);
    const { version } = (await (await fetch(`${server.url}/version`)).json()) as { version: string };
    assert.ok(html.includes(`<span class="version">${version}</span>`), `the version, ${version}`);
    assert.doesNotMatch(html, /<script/i, 'no script');
    assert.deepEqual(
      [...html.matchAll(/ (?:href|src)="([^"]*)"/g)].map((m) => m[1]).filter((u) => !u?.startsWith('data:')),
      ['console/', 'docs', 'openapi.json', 'parity', 'docs/postman.json', 'healthz', 'readyz', 'version'],
      'relative links (so a path prefix keeps working), nothing from another host',
    );

    const head = await fetch(`${server.url}/`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(await head.text(), '');
  });

  it('the pages’ policy never upgrades requests on plain http, and a client cannot claim https without a trusted proxy', async () => {
    for (const page of PAGES) {
      for (const headers of [{}, { 'x-forwarded-proto': 'https' }] as Record<string, string>[]) {
        const res = await fetch(`${server.url}${page}`, { headers });
        assert.equal(res.status, 200, page);
        assert.equal(res.headers.get('vary'), VARY[page], page);
        const policy = res.headers.get('content-security-policy') ?? '';
        assert.match(policy, /^default-src '(self|none)'; /, page);
        assert.doesNotMatch(policy, /upgrade-insecure-requests/, `${page} ${JSON.stringify(headers)}`);
        assert.match(await res.text(), /^<!DOCTYPE html>/, page);
      }
    }
  });

  it('behind a trusted proxy, X-Forwarded-Proto: https adds upgrade-insecure-requests to the pages’ policy', async () => {
    for (const page of PAGES) {
      const plain = await fetch(`${proxied.url}${page}`);
      const upgraded = await fetch(`${proxied.url}${page}`, { headers: { 'x-forwarded-proto': 'https' } });
      // A chain of proxies: the last one (the one Atrium trusts) says how it was reached.
      const chain = await fetch(`${proxied.url}${page}`, { headers: { 'x-forwarded-proto': 'https, http' } });
      for (const res of [plain, upgraded, chain]) {
        assert.equal(res.status, 200, page);
        assert.equal(res.headers.get('vary'), VARY[page], page);
        assert.match(await res.text(), /^<!DOCTYPE html>/, page);
      }
      const base = plain.headers.get('content-security-policy') ?? '';
      assert.doesNotMatch(base, /upgrade-insecure-requests/, `${page} over http`);
      assert.equal(upgraded.headers.get('content-security-policy'), `${base}; upgrade-insecure-requests`, page);
      assert.equal(chain.headers.get('content-security-policy'), base, `${page}: the last proxy reached it over http`);
    }
  });
});
