/**
 * The server's web pages in a real browser (Debian's Chromium through playwright-core; test/support/browser.ts):
 * `/docs` renders the operations of `/openapi.json` when opened under a host name that is not loopback, over plain
 * http (no asset upgraded to https) and over https behind a TLS-terminating proxy; the landing page `/` renders in
 * light and dark mode and its links answer. Every other host name resolves to nothing: the pages need no network.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../support/axe.js';
import { launchBrowser, openPage, type RecordedPage, skipWithoutBrowser } from '../support/browser.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';
import { startTlsProxy, type TlsProxy } from '../support/tls-proxy.js';

const dialect = dialects()[0] ?? 'sqlite';
/** The name the browser reaches the server by: not loopback, as from another machine (mapped to 127.0.0.1). */
const HOST = 'atrium.test';

/** Relative luminance (0 black, 1 white) of a computed `rgb(r, g, b)` colour. */
function luminance(rgb: string): number {
  const [r = 0, g = 0, b = 0] = (rgb.match(/\d+(\.\d+)?/g) ?? []).map((c) => {
    const v = Number(c) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The summary of every operation Swagger UI renders. It renders only the items (tags and operations) near the
 * viewport (a virtual list, `data-index` numbering them): scroll each last item rendered to the top and wait for the
 * next to render, to the list's end, so that none is missed whatever the machine's speed.
 */
async function renderedOperations(page: Page): Promise<string[]> {
  const items = new Map<number, string | null>();
  // Swagger UI spends about 5 s of CPU on the 1.3 MB document before its first item; with the whole suite running on
  // two cores that passed the 60 s default once, so the first item gets four minutes (the file's limit is ten).
  await page.locator('.operations-virtual__item').first().waitFor({ timeout: 240_000 });
  for (;;) {
    const rendered = await page.$$eval('.operations-virtual__item', (elements) =>
      elements.map((e) => ({
        index: Number(e.getAttribute('data-index')),
        summary: e.querySelector('.opblock-summary-description')?.textContent ?? null,
      })),
    );
    for (const { index, summary } of rendered) items.set(index, summary);
    // The list pads its end for the items not rendered: none left when it is 0.
    const style = await page.$eval('.operations-virtual__list', (list) => list.getAttribute('style') ?? '');
    if (/padding-bottom: 0px/.test(style)) break;
    const last = Math.max(...rendered.map((r) => r.index));
    await page.$eval(`.operations-virtual__item[data-index="${last}"]`, (e) => e.scrollIntoView({ block: 'start' }));
    await page.locator(`.operations-virtual__item[data-index="${last + 1}"]`).waitFor({ state: 'attached' });
  }
  const count = Math.max(...items.keys()) + 1;
  assert.equal(items.size, count, 'every item of the list was seen');
  return [...items.values()].filter((s): s is string => s !== null);
}

describe('web pages in Chromium', { skip: skipWithoutBrowser() }, () => {
  let server: TestServer;
  let browser: Browser;
  let proxy: TlsProxy;
  /** `http://atrium.test:<port>`: the server itself, by a name that is not loopback. */
  let origin: string;
  /** The summary of every operation of the document, as the page must show them. */
  let summaries: string[];
  before(async () => {
    // The proxy connects from 127.0.0.1: trusted, so its X-Forwarded-Proto says https. The browser's direct
    // requests send no such header, so they are plain http, as with the default settings.
    server = await startServer(dialect, { ATRIUM_TRUST_PROXY: '127.0.0.1' });
    origin = server.url.replace('127.0.0.1', HOST);
    proxy = await startTlsProxy(server.url, HOST);
    browser = await launchBrowser({ hosts: { [HOST]: '127.0.0.1' } });
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { summary?: string }>>;
    };
    summaries = [
      ...new Set(Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.summary ?? ''))),
    ]
      .filter(Boolean)
      .sort();
    for (const known of ['List and search organizations', 'List in-class events', 'List every tenant']) {
      assert.ok(summaries.includes(known), `the document has "${known}" (HR, Academy and admin APIs)`);
    }
  });
  after(async () => {
    await browser?.close();
    await proxy?.close();
    await server?.close();
  });

  /**
   * Opens `/docs` under `base`, waits for every operation, and checks the page is Atrium's; gives the page and the
   * policy its HTML came with.
   */
  async function renderDocs(
    base: string,
    options: { ignoreHTTPSErrors?: boolean } = {},
  ): Promise<{ recorded: RecordedPage; policy: string }> {
    const recorded = await openPage(browser, options);
    const { page } = recorded;
    const response = await page.goto(`${base}/docs`);
    assert.ok(response, 'a response');
    assert.equal(response.status(), 200);
    assert.equal(response.url(), `${base}/docs/static/index.html`, 'the relative redirect, under the same origin');
    assert.match(response.headers()['content-type'] ?? '', /^text\/html/);
    const shown = await renderedOperations(page).catch((error: Error) => {
      // A blank page: say what the browser refused or failed to load.
      throw new Error(`${error.message}\nfailed: ${recorded.failed.join('\n')}\nerrors: ${recorded.errors.join('\n')}`);
    });
    assert.deepEqual([...new Set(shown)].sort(), summaries, 'every operation is shown');
    assert.equal(await page.title(), 'Atrium API reference');
    assert.match((await page.locator('.info .title').textContent()) ?? '', /^Atrium/, 'the document’s title');
    assert.equal(await page.locator('.topbar').count(), 0, 'no Swagger top bar (logo, URL box)');
    assert.match(
      (await page.locator('link[rel="icon"]').getAttribute('href')) ?? '',
      /^data:image\/svg\+xml,/,
      'Atrium’s icon, not Swagger’s',
    );
    return { recorded, policy: response.headers()['content-security-policy'] ?? '' };
  }

  /** What every page load must show: nothing outside the origin, no failure, no error. */
  function assertClean(recorded: RecordedPage, base: string): void {
    assert.deepEqual(recorded.outside(base), [], `every request under ${base}`);
    assert.deepEqual(recorded.failed, [], 'no request failed');
    assert.deepEqual(recorded.errors, [], 'no console error (blocked asset, CSP violation) and no page error');
  }

  it('/docs over plain http, under a host name that is not loopback, renders every operation; no asset goes to https', async () => {
    const { recorded, policy } = await renderDocs(origin);
    try {
      assert.match(policy, /^default-src 'self'; /);
      assert.doesNotMatch(policy, /upgrade-insecure-requests/);
      assertClean(recorded, origin);
      assert.deepEqual(
        recorded.requests.filter((r) => r.url.startsWith('https:')),
        [],
        'no request was upgraded to https',
      );
      const paths = recorded.requests.map((r) => new URL(r.url).pathname);
      for (const expected of ['/docs/static/swagger-ui-bundle.js', '/docs/static/swagger-ui.css', '/openapi.json']) {
        assert.ok(paths.includes(expected), `${expected} was fetched (${paths.join(', ')})`);
      }
    } finally {
      await recorded.close();
    }
  });

  it('/docs over https behind a TLS-terminating proxy renders every operation, its policy upgrading requests', async () => {
    const { recorded, policy } = await renderDocs(proxy.url, { ignoreHTTPSErrors: true });
    try {
      assert.match(policy, /^default-src 'self'; .*; upgrade-insecure-requests$/);
      assertClean(recorded, proxy.url);
      assert.ok(
        recorded.requests.some((r) => r.url === `${proxy.url}/openapi.json`),
        'the document came through the proxy',
      );
    } finally {
      await recorded.close();
    }
  });

  it('the landing page renders alone (one request), in light and dark mode, and each of its links answers', async () => {
    const recorded = await openPage(browser);
    const { page } = recorded;
    try {
      const response = await page.goto(`${origin}/`);
      assert.ok(response, 'a response');
      assert.equal(response.status(), 200);
      assert.match(response.headers()['content-type'] ?? '', /^text\/html; charset=utf-8$/);
      assert.equal(await page.title(), 'Atrium');
      assert.match((await page.locator('h1').textContent()) ?? '', /^Atrium/);
      assert.deepEqual(
        recorded.requests.map((r) => `${r.method} ${r.url}`),
        [`GET ${origin}/`],
        'nothing else is fetched: style inline, icon a data: URL',
      );
      assertClean(recorded, origin);

      // The body's background and text colours, computed in the page.
      const colours = '[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]';
      await page.emulateMedia({ colorScheme: 'light' });
      const light = await page.evaluate<string[]>(colours);
      await page.emulateMedia({ colorScheme: 'dark' });
      const dark = await page.evaluate<string[]>(colours);
      assert.ok(luminance(light[0] ?? '') > 0.8 && luminance(light[1] ?? '') < 0.1, `light: ${light}`);
      assert.ok(luminance(dark[0] ?? '') < 0.05 && luminance(dark[1] ?? '') > 0.6, `dark: ${dark}`);

      const links = (await page.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''))).map(
        (href) => new URL(href, `${origin}/`).href,
      );
      assert.deepEqual(
        links.map((l) => l.replace(origin, '')),
        ['/console/', '/docs', '/openapi.json', '/parity', '/docs/postman.json', '/healthz', '/readyz', '/version'],
      );
      // A click on the reference link reaches /docs (its redirect included), and the page fetches the document to
      // its end. The wait matters: going on to the next link while that fetch is under way aborts it, a failed
      // request (seen once on Node 24 in CI).
      await Promise.all([
        page.waitForURL(`${origin}/docs/static/index.html`),
        page.waitForEvent('requestfinished', (r) => r.url() === `${origin}/openapi.json`),
        page.getByRole('link', { name: 'API reference' }).click(),
      ]);
      for (const link of links.slice(2)) {
        const answer = await page.goto(link);
        assert.equal(answer?.status(), 200, `${link} answers 200 (the Postman collection needs npm run build)`);
        // The parity page is HTML (made from docs/parity.json); the rest are JSON.
        const type = link.endsWith('/parity') ? /^text\/html/ : /^application\/json/;
        assert.match(answer?.headers()['content-type'] ?? '', type, link);
      }
      const console = await page.goto(links[0] as string);
      assert.equal(console?.status(), 200, 'the console answers (npm run build builds it)');
      assert.match(console?.headers()['content-type'] ?? '', /^text\/html/);
      assert.deepEqual(recorded.failed, [], 'no request failed');
    } finally {
      await recorded.close();
    }
  });

  it('the parity page renders alone (one request), with no serious axe violation in light and dark mode', async () => {
    // axe-core is injected as a script, which the page's own policy refuses (test/support/axe.ts).
    const recorded = await openPage(browser, { bypassCSP: true });
    const { page } = recorded;
    try {
      const response = await page.goto(`${origin}/parity`);
      assert.equal(response?.status(), 200);
      assert.equal(await page.title(), 'Atrium: parity with the real APIs');
      assert.deepEqual(
        recorded.requests.map((r) => `${r.method} ${r.url}`),
        [`GET ${origin}/parity`],
        'nothing else is fetched: style inline, icon a data: URL',
      );
      assertClean(recorded, origin);
      await page.emulateMedia({ colorScheme: 'light' });
      assert.deepEqual(await seriousViolations(page), [], 'light');
      await page.emulateMedia({ colorScheme: 'dark' });
      assert.deepEqual(await seriousViolations(page, { coloursOnly: true }), [], 'dark');
    } finally {
      await recorded.close();
    }
  });

  it('the landing page over https behind the proxy renders with no error', async () => {
    const recorded = await openPage(browser, { ignoreHTTPSErrors: true });
    try {
      const response = await recorded.page.goto(`${proxy.url}/`);
      assert.equal(response?.status(), 200);
      assert.match(response?.headers()['content-security-policy'] ?? '', /; upgrade-insecure-requests$/);
      assert.equal(await recorded.page.title(), 'Atrium');
      assertClean(recorded, proxy.url);
    } finally {
      await recorded.close();
    }
  });
});
