/**
 * platform/docgen: the engine's worker thread (runner.ts, on platform/workers/bounded-worker.ts) and the office
 * converter (convert.ts) with the real LibreOffice, skipped, and said, only when `findOffice()` finds none.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildDocx, type DocxBlock } from '../../src/platform/docgen/build-docx.js';
import { convertDocument, findOffice } from '../../src/platform/docgen/convert.js';
import { generate } from '../../src/platform/docgen/fill.js';
import { DocgenWorker } from '../../src/platform/docgen/runner.js';
import type { GenerateInput } from '../../src/platform/docgen/types.js';
import { PdfWorker } from '../../src/platform/pdf/runner.js';
import { readZip } from '../support/docgen.js';

const TEMPLATE_BLOCKS: DocxBlock[] = [
  { paragraph: 'Dear {$name},' },
  { table: [['{#$rows}{$a}', '{$b}', '{$c}{/$rows}']] },
];
const TEMPLATE = buildDocx(TEMPLATE_BLOCKS);

function input(rows: number, format: 'DOCX' | 'PDF' = 'DOCX'): GenerateInput {
  const value = Array.from({ length: rows }, (_, i) => [
    { slug: 'a', value: `alpha ${i} `.repeat(5) },
    { slug: 'b', value: `beta ${i}` },
    { slug: 'c', value: `gamma ${i}` },
  ]);
  return {
    template: TEMPLATE,
    syntax: 'V2',
    fields: [
      { slug: 'name', value: 'Ada' },
      { slug: 'rows', value },
    ],
    fragments: {},
    dateSlugs: [],
    locale: 'en-gb',
    strict: false,
    format,
  };
}

describe('docgen worker', () => {
  const worker = new DocgenWorker({ timeoutMs: 1_000 });
  after(() => worker.stop());

  it('inspects, generates, migrates and lays out in the worker thread', async () => {
    const inspection = await worker.inspect(TEMPLATE, 'V2');
    assert.ok('placeholders' in inspection);
    assert.deepEqual(
      inspection.placeholders.map((p) => p.slug),
      ['name', 'rows'],
    );
    const out = await worker.generate(input(3));
    assert.ok(out.ok);
    assert.match(readZip(out.bytes).file('word/document.xml')?.asText() ?? '', /gamma 2/);
    const migrated = await worker.migrate(buildDocx([{ paragraph: '[$name]' }]));
    assert.ok(migrated.ok);
    assert.match(readZip(migrated.bytes).file('word/document.xml')?.asText() ?? '', /\{\$name\}/);
    const laid = await worker.layout(out.bytes);
    assert.ok(laid.ok && laid.pages === 1 && Buffer.from(laid.pdf.subarray(0, 5)).toString() === '%PDF-');
    const broken = await worker.inspect(Buffer.from('%PDF-1.4'), 'V2');
    assert.ok('reason' in broken && broken.reason === 'not_docx');
  });

  it('stops a task past its time limit (`limits`), and the next task works in a fresh worker', async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    // 10,000 rows laid out over 500 pages: seconds of work, past the 1 s limit.
    const slow = await worker.generate(input(10_000, 'PDF'));
    clearInterval(ticker);
    assert.deepEqual(slow, { ok: false, reason: 'limits' });
    assert.ok(ticks > 0, 'this thread’s event loop ran meanwhile');
    const next = await worker.generate(input(2));
    assert.ok(next.ok, JSON.stringify(next).slice(0, 300));
    // Its own answer (a DOCX of 2 rows), not the stopped task's late PDF.
    assert.match(readZip(next.bytes).file('word/document.xml')?.asText() ?? '', /beta 1</);
  });

  it('answers `limits` past its queue, and never rejects', async () => {
    const small = new DocgenWorker({ maxQueued: 1 });
    try {
      const answers = await Promise.all([
        small.inspect(TEMPLATE, 'V2'),
        small.inspect(TEMPLATE, 'V2'),
        small.inspect(TEMPLATE, 'V2'),
      ]);
      assert.deepEqual(
        answers.map((a) => ('reason' in a ? a.reason : 'inspected')),
        ['inspected', 'inspected', 'limits'],
      );
    } finally {
      await small.stop();
    }
  });
});

describe('a campaign’s result: zip (docgen worker) and concat (PDF worker)', () => {
  const worker = new DocgenWorker();
  const pdf = new PdfWorker();
  after(async () => {
    await worker.stop();
    await pdf.stop();
  });

  it('zips documents in order, DEFLATE, with safe and unique names, off the event loop', async () => {
    const docs = Array.from({ length: 300 }, (_, i) => buildDocx([{ paragraph: `Document ${i + 1}` }]));
    const entries = docs.map((bytes, i) => ({ name: `${i + 1}-ref.docx`, bytes }));
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    const zipped = await worker.zip([
      ...entries,
      { name: '../../etc/passwd', bytes: new Uint8Array([1]) },
      { name: '1-ref.docx', bytes: new Uint8Array([2]) },
      { name: 'a\\b\u0000c.docx', bytes: new Uint8Array([3]) },
    ]);
    clearInterval(ticker);
    assert.ok(zipped.ok);
    assert.ok(ticks > 0, 'this thread’s event loop ran meanwhile');
    assert.equal(entries[0]?.bytes.length, docs[0]?.length, 'the caller’s bytes are copied, not moved');
    const zip = readZip(zipped.bytes);
    const names = Object.keys(zip.files);
    assert.equal(names.length, 303);
    assert.deepEqual(names.slice(0, 2), ['1-ref.docx', '2-ref.docx']);
    assert.deepEqual(names.slice(300), ['etc/passwd', '1-ref (2).docx', 'a_b_c.docx']);
    const inner = zip.file('157-ref.docx')?.asUint8Array() as Uint8Array;
    assert.match(readZip(inner).file('word/document.xml')?.asText() ?? '', /Document 157</);
    assert.ok(zipped.bytes.length < docs.reduce((n, d) => n + d.length, 0), 'compressed');
  });

  it('answers `limits` past the zip’s time limit', async () => {
    const slow = new DocgenWorker({ zipTimeoutMs: 1 });
    try {
      const big = Array.from({ length: 50 }, (_, i) => ({ name: `${i}.bin`, bytes: new Uint8Array(1 << 20).fill(i) }));
      assert.deepEqual(await slow.zip(big), { ok: false, reason: 'limits' });
    } finally {
      await slow.stop();
    }
  });

  it('joins PDFs in order (the PDF worker’s concat), and refuses a part that is not one', async () => {
    const parts: Uint8Array[] = [];
    for (let i = 1; i <= 3; i++) {
      const laid = await worker.layout(buildDocx([{ paragraph: `Part ${i}` }]));
      assert.ok(laid.ok);
      parts.push(laid.pdf);
    }
    const joined = await pdf.concat(parts);
    assert.ok(typeof joined === 'object');
    assert.equal(joined.pages, 3);
    assert.equal(await pdf.count(joined.pdf), 3);
    const texts = await pdf.texts(joined.pdf);
    assert.ok(Array.isArray(texts));
    assert.deepEqual(
      texts.map((t) => t.trim()),
      ['Part 1', 'Part 2', 'Part 3'],
    );
    assert.equal(await pdf.concat([parts[0] as Uint8Array, new Uint8Array([1, 2, 3])]), 'unreadable');
    assert.equal(await pdf.concat([]), 'unreadable');
  });
});

describe('office converter', () => {
  const office = findOffice();
  if (!office) console.log('office converter tests SKIPPED: findOffice() found no LibreOffice (soffice)');

  it('finds nothing at a configured path that is not there, or when turned off', () => {
    assert.equal(findOffice('/nonexistent'), undefined);
    assert.equal(findOffice('off'), undefined);
  });

  it('converts a DOCX to ODT and DOC with LibreOffice', { skip: office ? false : 'no LibreOffice found' }, async () => {
    // A generated document (a repeated table row, a fragment): what the converter is given in use.
    const template = buildDocx([{ paragraph: 'Converted by {$who}' }, { paragraph: '{@$part}' }, ...TEMPLATE_BLOCKS]);
    const fragment = { template: buildDocx([{ paragraph: 'A fragment' }]), syntax: 'V2' as const, fields: [] };
    const generated = await generate({
      ...input(3),
      template,
      fields: [...input(3).fields, { slug: 'who', value: 'Atrium' }],
      fragments: { part: fragment },
    });
    assert.ok(generated.ok && generated.errors.length === 0, JSON.stringify(generated).slice(0, 300));
    const docx = generated.bytes;
    const [odt, doc] = await Promise.all([
      convertDocument(office as string, docx, 'ODT'),
      convertDocument(office as string, docx, 'DOC'),
    ]);
    assert.ok(odt.ok, JSON.stringify(odt));
    const zip = readZip(odt.bytes);
    assert.equal(zip.file('mimetype')?.asText(), 'application/vnd.oasis.opendocument.text');
    const content = zip.file('content.xml')?.asText() ?? '';
    for (const text of ['Converted by Atrium', 'A fragment', 'gamma 2']) assert.ok(content.includes(text), text);
    assert.ok(doc.ok, JSON.stringify(doc));
    assert.equal(Buffer.from(doc.bytes.subarray(0, 4)).toString('hex'), 'd0cf11e0', 'an OLE compound file');
    const words = (encoding: BufferEncoding) => Buffer.from('Converted by Atrium', encoding);
    assert.ok(Buffer.from(doc.bytes).includes(words('utf16le')) || Buffer.from(doc.bytes).includes(words('latin1')));
  });

  it('kills a conversion past its timeout', { skip: office ? false : 'no LibreOffice found' }, async () => {
    const outcome = await convertDocument(office as string, buildDocx([{ paragraph: 'x' }]), 'PDF', { timeoutMs: 50 });
    assert.equal(outcome.ok, false);
    assert.ok(!outcome.ok && outcome.reason === 'timeout');
  });
});
