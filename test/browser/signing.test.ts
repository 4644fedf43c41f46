/**
 * The signing page (docs/hr-api.md, "Electronic signature") in Debian's Chromium: a two-signer process run in
 * order to `done` by each signer on their own page (the second told it is not their turn until the first has
 * signed), a refusal with its comment, axe-core's checks at 1280 and 390 px in light and dark, and no request
 * outside the server's own origin. The signed PDF's pages are parsed: a block per signer, then the audit page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PDFDocument } from '@cantoo/pdf-lib';
import type { Browser } from 'playwright-core';
import { seriousViolations } from '../support/axe.js';
import {
  launchBrowser,
  lookOf,
  openPage,
  type PageLook,
  type RecordedPage,
  skipWithoutBrowser,
} from '../support/browser.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { pdf } from '../support/pdf.js';

const dialect = dialects()[0] ?? 'sqlite';

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text) as T;
}

/** Polls until `check` holds (bounded; no timing is asserted). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the signing page in Chromium', { skip: skipWithoutBrowser() }, () => {
  let server: TestServer;
  let browser: Browser;
  let hr: HrCaller;
  let origin: string;
  const open: RecordedPage[] = [];

  const newPage = async (options: PageLook = {}) => {
    const recorded = await openPage(browser, lookOf(options));
    open.push(recorded);
    return recorded;
  };
  /** A process in signing, with its signers (in order) and their links. */
  const process = async (title: string, names: [string, string][]) => {
    const upload = await fetch(`${server.url}/api/v2/client/uploads`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${hr.token}`,
        'content-type': 'application/octet-stream',
        'content-disposition': 'attachment; filename="offer.pdf"',
      },
      body: await pdf(1),
    });
    const { id: uploadId } = await json<{ id: string }>(upload, 201);
    const made = await json<{ id: string }>(
      await hr.call('POST', '/signature_processes', {
        signature_type_id: 'docusign',
        title,
        reason: 'Offer letter',
        upload_id: uploadId,
      }),
      201,
    );
    const signers: string[] = [];
    for (const [i, [first, last]] of names.entries()) {
      const s = await json<{ id: string }>(
        await hr.call('POST', '/signers', {
          signature_process_id: made.id,
          first_name: first,
          last_name: last,
          signing_order: i + 1,
        }),
        201,
      );
      signers.push(s.id);
    }
    assert.equal((await hr.call('PATCH', `/signature_processes/${made.id}`, { state: 'signing' })).status, 200);
    const links: string[] = [];
    for (const id of signers) {
      links.push((await json<{ signing_url: string }>(await hr.call('GET', `/signers/${id}`), 200)).signing_url);
    }
    return { id: made.id, signers, links };
  };
  /** Requests outside Atrium, but for the browser's own PDF viewer (`chrome-extension:`, `chrome:`), which shows the frame. */
  const ownOrigin = (page: RecordedPage) => page.outside(origin).filter((r) => !/^chrome(-extension)?:/.test(r.url));
  /** Whether the page's frame has read the document to sign to its end. */
  const documentShown = (page: RecordedPage, from = 0) =>
    page.finished.slice(from).some((url) => url.endsWith('/document'));
  const state = async (id: string) =>
    (await json<{ state: string }>(await hr.call('GET', `/signature_processes/${id}`), 200)).state;

  before(async () => {
    server = await startServer(dialect, { ATRIUM_JOB_POLL_MS: '20' });
    origin = server.url;
    hr = await hrCaller(server);
    browser = await launchBrowser();
  });
  after(async () => {
    for (const page of open) await page.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  it('runs two signers in order to done, each on their own page, with no request outside Atrium', async () => {
    const p = await process('Offer for two', [
      ['Ada', 'Lovelace'],
      ['Grace', 'Hopper'],
    ]);
    assert.ok(p.links[0]?.startsWith(`${origin}/api/v2/client/signing/`));

    // The second signer's page first: not their turn.
    const second = await newPage();
    await second.page.goto(p.links[1] as string);
    await second.page.getByText('It is not your turn yet').waitFor();
    // The frame shows the document in every state; let it finish before this page reloads, or the reload aborts it.
    await until(async () => documentShown(second), 'the document in the frame');
    assert.equal(await second.page.getByRole('button', { name: 'Sign the document' }).count(), 0);

    const first = await newPage();
    await first.page.goto(p.links[0] as string);
    await first.page.getByRole('heading', { name: 'Offer for two' }).waitFor();
    assert.equal(await first.page.locator('iframe[title^="The document to sign"]').count(), 1);
    // As a signer would, read the document before signing: a frame still loading when the form posts is aborted.
    await until(async () => documentShown(first), 'the document in the frame');
    await first.page.getByLabel('Your name').fill('Augusta Ada King');
    await first.page.getByRole('button', { name: 'Sign the document' }).click();
    await first.page.getByText('You signed this document on').waitFor();
    assert.match((await first.page.getByRole('status').textContent()) ?? '', /as “Augusta Ada King”/);
    const signer1 = await json<{ state: string }>(await hr.call('GET', `/signers/${p.signers[0]}`), 200);
    assert.equal(signer1.state, 'signed');

    const readBefore = second.finished.length;
    await second.page.reload();
    await until(async () => documentShown(second, readBefore), 'the document in the frame');
    await second.page.getByRole('button', { name: 'Sign the document' }).click();
    await second.page.getByText('You signed this document on').waitFor();
    await until(async () => (await state(p.id)) === 'done', 'the process to be done');

    const file = await hr.call('GET', `/signature_processes/${p.id}/file`);
    const doc = await PDFDocument.load(Buffer.from(await file.arrayBuffer()));
    assert.equal(doc.getPageCount(), 2, 'the page signed, then the audit page');

    for (const page of [first, second]) {
      assert.deepEqual(ownOrigin(page), [], 'nothing outside Atrium');
      // The browser's PDF viewer may abort its own requests when the page moves on: not the page's. Nor is the
      // frame's PDF, which Chromium sometimes reports as aborted when it hands the response over to that viewer
      // (three CI runs out of many, 26 and 27 November, the last on Node 24 with every wait above in place). That
      // each page's frame did read the document to its end is what the `documentShown` waits above check.
      assert.deepEqual(
        page.failed.filter((f) => !/^chrome(-extension)?:/.test(f) && !/\/document: net::ERR_ABORTED$/.test(f)),
        [],
      );
      assert.deepEqual(page.errors, []);
    }
  });

  it('refuses with a comment: the process is rejected, and an empty comment is refused on the page', async () => {
    const p = await process('Offer to refuse', [['Alan', 'Turing']]);
    const page = await newPage();
    await page.page.goto(p.links[0] as string);
    // The browser's own check asks for a comment; sent without it anyway, the server says so on the page.
    await page.page.evaluate('document.getElementById("refuse-comment").removeAttribute("required")');
    await page.page.getByRole('button', { name: 'Refuse to sign' }).click();
    await page.page.getByRole('alert').waitFor();
    assert.match((await page.page.getByRole('alert').textContent()) ?? '', /Say why you refuse/);
    assert.equal(await state(p.id), 'signing', 'nothing changed');
    await page.page.getByLabel('Comment').fill('The start date is wrong.');
    await page.page.getByRole('button', { name: 'Refuse to sign' }).click();
    await page.page.getByText('You refused to sign this document.').waitFor();
    assert.equal(await state(p.id), 'rejected');
    assert.match(page.page.url(), /\/signing\/[^/]+$/, 'back on the link itself');
    assert.deepEqual(ownOrigin(page), []);
  });

  for (const width of [1280, 390]) {
    for (const dark of [false, true]) {
      it(`passes axe-core at ${width} px, ${dark ? 'dark' : 'light'}`, async () => {
        const p = await process(`Checked ${width} ${dark}`, [['Hedy', 'Lamarr']]);
        const page = await newPage({ width, dark, axe: true });
        await page.page.goto(p.links[0] as string);
        await page.page.getByRole('button', { name: 'Sign the document' }).waitFor();
        assert.deepEqual(await seriousViolations(page.page, { coloursOnly: dark }), []);
        const overflow = await page.page.evaluate('document.documentElement.scrollWidth > window.innerWidth');
        assert.equal(overflow, false, 'no horizontal scrolling');
      });
    }
  }
});
