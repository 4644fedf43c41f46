/**
 * Issue 49: the previews' renderer is bounded in resident memory, native memory included (docs/RELIABILITY.md,
 * "The renderer's memory"). It runs in a child process (platform/workers/child-worker.ts); a render that takes the
 * child past its limit has no answer (`limits`, the API's 422 `rendering_limits`), the child is replaced, and the
 * next render works. The hostile file is a small PDF drawing one 6,000 × 6,000 image (imageBomb): its render
 * passes 500 MB resident, an ordinary page's stays near 130 MB.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PdfWorker } from '../../src/platform/pdf/runner.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { imageBomb, markedPdf } from '../support/pdf.js';
import { json, upload } from '../support/people-assist.js';

const PAGE = { page: 1, width: 800, crop: 1 };

describe('the renderer in a child process, bounded in resident memory', () => {
  // Between an ordinary render's peak and the hostile one's, with room on both sides.
  const renderer = new PdfWorker({ isolation: 'process', rssLimitMb: 256, preload: true, renderTimeoutMs: 60_000 });
  after(() => renderer.stop());

  it('fails a render past the limit cleanly, replaces the child, and renders the next page', async () => {
    const ordinary = await markedPdf(2, 1);
    const first = await renderer.render(ordinary, 'pdf', PAGE);
    assert.equal(first.ok, true, JSON.stringify(first));
    assert.equal(renderer.started, 1, 'one child so far');

    assert.deepEqual(await renderer.render(imageBomb(6000), 'pdf', PAGE), { ok: false, reason: 'limits' });

    const next = await renderer.render(ordinary, 'pdf', PAGE);
    assert.equal(next.ok, true, JSON.stringify(next));
    assert.equal(next.ok && next.pages, 2);
    assert.equal(renderer.started, 2, 'the child past its limit was replaced by a new one');
    assert.equal((await renderer.renderable(ordinary, 'pdf')) as number, 2, 'and it goes on serving');
    assert.equal(renderer.started, 2);
  });
});

describe('a renderer child that stays large after a task', () => {
  // An ordinary render leaves the child near 130 MiB: with a recycle size of 64 MiB it is replaced after each task,
  // with the default (192 MiB) it is kept.
  const small = new PdfWorker({ isolation: 'process', recycleRssMb: 64, preload: true, renderTimeoutMs: 60_000 });
  const kept = new PdfWorker({ isolation: 'process', preload: true, renderTimeoutMs: 60_000 });
  after(async () => {
    await small.stop();
    await kept.stop();
  });

  it('answers its task, then is replaced: the next render runs in a new child', async () => {
    const ordinary = await markedPdf(2, 1);
    const first = await small.render(ordinary, 'pdf', PAGE);
    assert.equal(first.ok, true, JSON.stringify(first));
    assert.equal(first.ok && first.pages, 2, 'the large child’s answer is the answer');
    const second = await small.render(ordinary, 'pdf', PAGE);
    assert.equal(second.ok, true, JSON.stringify(second));
    assert.equal(small.started, 2, 'the second render ran in a fresh child');

    assert.equal((await kept.render(ordinary, 'pdf', PAGE)).ok, true);
    assert.equal((await kept.render(ordinary, 'pdf', PAGE)).ok, true);
    assert.equal(kept.started, 1, 'below the recycle size the child is kept');
  });
});

for (const dialect of dialects()) {
  describe(`a hostile preview past the renderer's memory (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    before(async () => {
      server = await startServer(dialect, {
        ATRIUM_RATE_LIMIT: '0',
        ATRIUM_RENDER_TIMEOUT_MS: '60000',
        ATRIUM_RENDER_RSS_LIMIT_MB: '256',
      });
      hr = await hrCaller(server);
      assert.equal((await hr.call('PUT', '/organizations/hq', { name: 'HQ' })).status, 201);
      const type = await hr.call('PUT', '/company_document_types/policy', {
        localized_labels: [{ language_code: 'en', value: 'policy' }],
      });
      assert.equal(type.status, 201, await type.text());
    });
    after(() => server.close());

    const document = async (data: Buffer, filename: string): Promise<string> => {
      const file_id = await upload(server, hr, data, filename);
      const body = { organization_ids: ['hq'], document_type_id: 'policy', uploaded_file: { filename, file_id } };
      return (await json<{ id: string }>(await hr.call('POST', '/company_documents', body), 201)).id;
    };
    const preview = (id: string) =>
      fetch(`${server.url}/api/v2/client/company_documents/${id}/preview`, {
        headers: { authorization: `Bearer ${hr.token}` },
      });

    it('is refused with 422 rendering_limits, and the next preview renders', async () => {
      const hostile = await document(imageBomb(6000), 'hostile.pdf');
      const refused = await preview(hostile);
      const body = (await refused.json()) as { code: string; message: string };
      assert.equal(refused.status, 422, JSON.stringify(body));
      assert.equal(body.code, 'rendering_limits');
      assert.match(body.message, /within the limits \(time and memory\)/);

      const ordinary = await document(await markedPdf(2, 1), 'ordinary.pdf');
      const rendered = await preview(ordinary);
      assert.equal(rendered.status, 200, rendered.status === 200 ? '' : await rendered.clone().text());
      assert.equal(rendered.headers.get('content-type'), 'image/png');
      await rendered.arrayBuffer();
    });
  });
}
