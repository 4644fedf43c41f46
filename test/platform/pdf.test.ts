/**
 * platform/pdf: the page count itself (pages.ts, in this thread) and the worker that bounds its cost (runner.ts).
 * The HTTP side is test/hr/page-count.test.ts.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { countPdfPages, splitPdf } from '../../src/platform/pdf/pages.js';
import { PdfWorker } from '../../src/platform/pdf/runner.js';
import { bomb, CYCLIC, ENCRYPTED, pdf, sharedPageTree } from '../support/pdf.js';

describe('PDF page count', () => {
  it('counts the pages of PDFs the library writes, with and without object streams', async () => {
    for (const pages of [1, 3, 250]) {
      assert.equal(await countPdfPages(await pdf(pages)), pages);
      assert.equal(await countPdfPages(await pdf(pages, { objectStreams: false })), pages);
    }
  });

  it('is null for what is not a readable PDF, and never rejects', async () => {
    for (const bytes of [new Uint8Array(0), Buffer.from('%PDF-1.4\nnothing else'), Buffer.from('plain text')]) {
      assert.equal(await countPdfPages(bytes), null);
    }
    assert.equal(await countPdfPages((await pdf(3)).subarray(0, 300)), null, 'cut short');
  });

  it('walks a page tree once per node: a shared node or a cycle is null at once, not 2^40 visits or a stack overflow', async () => {
    // A walk that followed every reference would not end (2^40 visits): the suite's timeout would fail it. No
    // wall-clock bound is asserted here.
    assert.equal(await countPdfPages(sharedPageTree(40)), null);
    assert.equal(await countPdfPages(CYCLIC), null);
  });

  it('counts an encrypted PDF without its password', async () => {
    assert.equal(await countPdfPages(ENCRYPTED), 2);
  });
});

describe('PDF page counter (worker thread)', () => {
  const counter = new PdfWorker({ timeoutMs: 500 });
  after(() => counter.stop());

  it('stops a compression bomb at the timeout without blocking this thread, then counts again', async () => {
    const hostile = bomb(256);
    assert.ok(hostile.length < 1024 * 1024, `${hostile.length} bytes`);
    assert.equal(await counter.count(await pdf(2)), 2, 'the worker is started and ready');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const count = await counter.count(hostile);
    clearInterval(ticker);
    // Null: the worker was stopped at its timeout (the bomb takes seconds to unpack). No wall-clock bound is asserted.
    assert.equal(count, null);
    assert.ok(ticks > 0, 'this thread’s event loop ran while the worker parsed');
    assert.equal(await counter.count(await pdf(3)), 3, 'a new worker took over');
  });

  it('runs counts one at a time, each with its own answer', async () => {
    const answers = await Promise.all([
      counter.count(await pdf(1)),
      counter.count(Buffer.from('x')),
      counter.count(await pdf(4)),
    ]);
    assert.deepEqual(answers, [1, null, 4]);
  });

  it('answers null past its queue', async () => {
    const small = new PdfWorker({ maxQueued: 1 });
    try {
      const one = await pdf(1);
      assert.deepEqual(await Promise.all([small.count(one), small.count(one), small.count(one)]), [1, 1, null]);
    } finally {
      await small.stop();
    }
  });
});

describe('PDF split and page texts (distributions)', () => {
  const worker = new PdfWorker();
  after(() => worker.stop());

  it('splits pages into new PDFs, in the order given; null for a page outside, a cycle, or what is not a PDF', async () => {
    assert.deepEqual(
      await splitPdf(await pdf(3), [[0, 2], [1]]).then((parts) => Promise.all((parts ?? []).map(countPdfPages))),
      [2, 1],
    );
    const again = await splitPdf(await pdf(3), [[0, 2]]);
    assert.deepEqual(again, await splitPdf(await pdf(3), [[0, 2]]), 'the same pages give the same bytes');
    assert.equal(await splitPdf(await pdf(2), [[2]]), null);
    assert.equal(await splitPdf(await pdf(2), [[]]), null);
    assert.equal(await splitPdf(CYCLIC, [[0]]), null);
    assert.equal(await splitPdf(sharedPageTree(40), [[0]]), null);
    assert.equal(await splitPdf(Buffer.from('not a PDF'), [[0]]), null);
    const viaWorker = await worker.split(await pdf(2), [[1], [0]]);
    assert.ok(Array.isArray(viaWorker), 'the worker answers the parts');
    assert.deepEqual(await Promise.all(viaWorker.map(countPdfPages)), [1, 1]);
  });

  it('reads the text of each page in the worker; null when unreadable', async () => {
    const texts = await worker.texts(await pdf(2));
    assert.ok(Array.isArray(texts), 'texts');
    assert.deepEqual(
      texts.map((t) => t.trim()),
      ['Page 1', 'Page 2'],
    );
    assert.equal(await worker.texts(Buffer.from('not a PDF')), null);
  });
});
