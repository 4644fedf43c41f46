/**
 * platform/docgen: the document-generation engine in this thread (fill.ts, inspect.ts, syntax.ts, layout.ts,
 * package.ts), with templates written by build-docx.ts. The worker and the office converter are
 * docgen-worker.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { zipSync } from 'fflate';
import { buildDocx, type DocxBlock } from '../../src/platform/docgen/build-docx.js';
import { MAX_DEPTH, MAX_ROWS } from '../../src/platform/docgen/dataset.js';
import { generate } from '../../src/platform/docgen/fill.js';
import { inspectTemplate } from '../../src/platform/docgen/inspect.js';
import { layoutPdf, MAX_LAYOUT_PAGES } from '../../src/platform/docgen/layout.js';
import { openDocx } from '../../src/platform/docgen/package.js';
import { migrateV1toV2 } from '../../src/platform/docgen/syntax.js';
import type { DatasetField, GenerateInput, GenerateOutcome, SyntaxVersion } from '../../src/platform/docgen/types.js';
import { pageTexts } from '../../src/platform/pdf/text.js';

// Eleven hours behind UTC: a date written in the process's own time zone, not UTC, would be a day early.
process.env.TZ = 'Pacific/Pago_Pago';

/** The body of the engine's main template, in a syntax (V1 writes `[` and `]` where V2 writes `{` and `}`). */
function contract(syntax: SyntaxVersion, options: { splitAt?: number[] } = {}): Uint8Array {
  const v = (text: string) => (syntax === 'V2' ? text : text.replace(/\{/g, '[').replace(/\}/g, ']'));
  const blocks: DocxBlock[] = [
    { paragraph: 'Employment contract', style: 'Title' },
    { paragraph: v('Employee: {$name}, from {$start_date}.') },
    { paragraph: v('Skills: {#$skills}{$.}; {/$skills}') },
    {
      table: [
        ['Item', 'Amount'],
        [v('{#$lines}{$item}'), v('{$amount}{/$lines}')],
      ],
    },
    { paragraph: v('{@$clause}') },
    { paragraph: v('Reference (1) {#$remote}Remote work.{/$remote}') },
  ];
  return buildDocx(blocks, options);
}

const FIELDS: DatasetField[] = [
  { slug: 'name', value: 'Ada Lovelace' },
  { slug: 'start_date', value: '2026-03-02', type: 'date' },
  { slug: 'skills', value: ['Analysis', 'Poetry'] },
  {
    slug: 'lines',
    value: [
      [
        { slug: 'item', value: 'Salary' },
        { slug: 'amount', value: 4200 },
      ],
      [
        { slug: 'item', value: 'Bonus' },
        { slug: 'amount', value: 300 },
      ],
      [
        { slug: 'item', value: 'Transport' },
        { slug: 'amount', value: 75 },
      ],
    ],
  },
  { slug: 'remote', value: true },
];

const CLAUSE = buildDocx([{ paragraph: 'Clause: the place of work is {$city}.' }]);

function input(overrides: Partial<GenerateInput> = {}): GenerateInput {
  return {
    template: contract('V2'),
    syntax: 'V2',
    fields: FIELDS,
    fragments: { clause: { template: CLAUSE, syntax: 'V2', fields: [{ slug: 'city', value: 'Lyon' }] } },
    dateSlugs: [],
    locale: 'en-us',
    strict: false,
    format: 'DOCX',
    ...overrides,
  };
}

/** The output's document.xml. */
/** The package of a DOCX (the engine's own reader). */
const packageOf = (bytes: Uint8Array) => {
  const opened = openDocx(bytes);
  assert.ok(opened.ok, 'a readable DOCX');
  return opened.zip;
};
const documentXml = (bytes: Uint8Array) => packageOf(bytes).file('word/document.xml')?.asText() ?? '';
/** The text of each paragraph of a document.xml (runs joined). */
const paragraphTexts = (xml: string) =>
  [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((p) =>
    [...p[0].matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((t) => t[1]).join(''),
  );

function written(outcome: GenerateOutcome): Extract<GenerateOutcome, { ok: true }> {
  assert.equal(outcome.ok, true, JSON.stringify(outcome).slice(0, 500));
  return outcome as Extract<GenerateOutcome, { ok: true }>;
}

describe('docgen: generation', () => {
  it('writes a scalar, a date, a list, a 3-row table and a fragment in a DOCX, the placeholders gone', async () => {
    const out = written(await generate(input()));
    assert.deepEqual(out.errors, []);
    const xml = documentXml(out.bytes);
    const texts = paragraphTexts(xml);
    assert.ok(texts.includes('Employee: Ada Lovelace, from 03/02/2026.'), texts.join(' | '));
    assert.ok(texts.includes('Skills: Analysis; Poetry; '), texts.join(' | '));
    assert.ok(texts.includes('Clause: the place of work is Lyon.'), 'the fragment replaces its paragraph');
    assert.ok(texts.includes('Reference (1) Remote work.'));
    assert.equal((xml.match(/<w:tr>/g) ?? []).length, 4, 'the header row and 3 repeated rows');
    for (const value of ['Salary', '4200', 'Bonus', '300', 'Transport', '75']) assert.ok(texts.includes(value), value);
    assert.doesNotMatch(xml, /\$|\uE000|\uE001/, 'no placeholder left');
    assert.equal(out.pages, 1);
    // Every other part of the template is kept.
    const parts = (bytes: Uint8Array) =>
      Object.keys(packageOf(bytes).files)
        .filter((n) => !n.endsWith('/'))
        .sort();
    assert.deepEqual(parts(out.bytes), parts(contract('V2')));
  });

  it('writes the same as a PDF whose text reads back, with the table’s 3 rows', async () => {
    const out = written(await generate(input({ format: 'PDF' })));
    assert.equal(Buffer.from(out.bytes.subarray(0, 5)).toString(), '%PDF-');
    const texts = await pageTexts(out.bytes);
    assert.ok(texts);
    assert.equal(texts.length, out.pages);
    const text = texts.join('\n');
    for (const value of ['Employment contract', 'Ada Lovelace', '03/02/2026', 'Analysis; Poetry;', 'Lyon']) {
      assert.ok(text.includes(value), `${value} in ${text}`);
    }
    assert.match(text, /Salary\s+4200/);
    assert.match(text, /Bonus\s+300/);
    assert.match(text, /Transport\s+75/);
    assert.doesNotMatch(text, /\$/);
  });

  it('finds placeholders split across runs', async () => {
    const template = contract('V2', { splitAt: [1, 2, 5, 9, 13] });
    const xml = documentXml(template);
    assert.doesNotMatch(xml, /\{\$name\}/, 'the template really splits its tags');
    const inspection = inspectTemplate(template, 'V2');
    assert.ok('placeholders' in inspection);
    assert.deepEqual(inspection.issues, []);
    const texts = paragraphTexts(documentXml(written(await generate(input({ template }))).bytes));
    assert.ok(texts.includes('Employee: Ada Lovelace, from 03/02/2026.'), texts.join(' | '));
  });

  it('reads V1 templates, where other text between brackets stays as it is', async () => {
    const template = buildDocx([{ paragraph: 'Note [1]: [$name] [#$skills][$.] [/$skills]{$name}' }]);
    const out = written(await generate(input({ template, syntax: 'V1', fragments: {} })));
    assert.deepEqual(paragraphTexts(documentXml(out.bytes)), ['Note [1]: Ada Lovelace Analysis Poetry {$name}']);
  });

  it('migrates V1 to V2, tags split across runs included, and the migrated template generates the same', async () => {
    const v1 = contract('V1', { splitAt: [3, 7, 11] });
    const migrated = migrateV1toV2(v1);
    assert.ok(migrated.ok);
    const xml = documentXml(migrated.bytes);
    assert.doesNotMatch(xml, /\[\$|\[#|\[\/|\[@/, 'no V1 tag left');
    assert.ok(paragraphTexts(xml).includes('Employee: {$name}, from {$start_date}.'));
    const clause = { template: CLAUSE, syntax: 'V2' as const, fields: [{ slug: 'city', value: 'Lyon' }] };
    const fromV1 = written(await generate(input({ template: v1, syntax: 'V1', fragments: { clause } })));
    const fromV2 = written(await generate(input({ template: migrated.bytes, syntax: 'V2', fragments: { clause } })));
    assert.equal(documentXml(fromV2.bytes), documentXml(fromV1.bytes));
    assert.deepEqual(inspectTemplate(migrated.bytes, 'V2'), inspectTemplate(v1, 'V1'));
  });

  it('permissive: a placeholder without a value stays as written and is missing; a field without one is unknown', async () => {
    const fields = [...FIELDS.filter((f) => f.slug !== 'name' && f.slug !== 'skills'), { slug: 'extra', value: 1 }];
    fields[fields.findIndex((f) => f.slug === 'lines')] = {
      slug: 'lines',
      value: [
        [{ slug: 'item', value: 'Salary' }],
        [
          { slug: 'item', value: 'Bonus' },
          { slug: 'amount', value: 2 },
        ],
      ],
    };
    const out = written(await generate(input({ fields })));
    const texts = paragraphTexts(documentXml(out.bytes));
    assert.ok(texts.includes('Employee: {$name}, from 03/02/2026.'), texts.join(' | '));
    assert.ok(texts.includes('Skills: '), 'a missing loop writes nothing');
    assert.ok(texts.includes('{$amount}'), 'a missing column stays as written');
    const errors = out.errors.map((e) => `${e.code} ${e.field}`).sort();
    assert.deepEqual(errors, ['missing lines.0.amount', 'missing name', 'missing skills', 'unknown extra']);
  });

  it('strict: the same differences refuse the generation, nothing written', async () => {
    const outcome = await generate(input({ strict: true, fields: [...FIELDS, { slug: 'extra', value: 1 }] }));
    assert.equal(outcome.ok, false);
    assert.ok(!outcome.ok && outcome.reason === 'strict');
    assert.deepEqual(
      outcome.errors.map((e) => `${e.code} ${e.field}`),
      ['unknown extra'],
    );
    const missing = await generate(input({ strict: true, fields: FIELDS.slice(1) }));
    assert.ok(!missing.ok && missing.reason === 'strict' && missing.errors.some((e) => e.field === 'name'));
    assert.equal(written(await generate(input({ strict: true }))).errors.length, 0, 'strict and complete: written');
  });

  it('writes dates in UTC in the locale; a value that is not a date is invalid and written as given', async () => {
    const template = buildDocx([{ paragraph: '{$d}' }]);
    const run = async (value: unknown, locale: string, type?: string) => {
      const field: DatasetField = type ? { slug: 'd', value, type } : { slug: 'd', value };
      const out = written(
        await generate(input({ template, fields: [field], fragments: {}, locale, dateSlugs: ['d'] })),
      );
      return { text: paragraphTexts(documentXml(out.bytes))[0], errors: out.errors };
    };
    assert.equal((await run('2026-01-31T23:30:00-02:00', 'fr-fr')).text, '01/02/2026', '1 February in UTC');
    assert.equal((await run('2026-01-31T23:30:00-02:00', 'en-us', 'date')).text, '02/01/2026');
    assert.equal((await run('2026-07-14', 'de-de')).text, '14.07.2026');
    const invalid = await run('soon', 'fr-fr');
    assert.equal(invalid.text, 'soon');
    assert.deepEqual(
      invalid.errors.map((e) => e.code),
      ['invalid'],
    );
  });

  it('writes {label, value} as its label, a number as text, and hides a false condition', async () => {
    const template = buildDocx([{ paragraph: '{$who} {$n}{#$flag} shown{/$flag}{^$flag} hidden{/$flag}' }]);
    const fields = [
      { slug: 'who', value: { label: 'Grace', value: 'g-1' } },
      { slug: 'n', value: 12.5 },
      { slug: 'flag', value: false },
    ];
    const out = written(await generate(input({ template, fields, fragments: {} })));
    assert.deepEqual(paragraphTexts(documentXml(out.bytes)), ['Grace 12.5 hidden']);
  });
});

describe('docgen: inspection', () => {
  it('lists the placeholders in order with their kind; a table’s columns are not placeholders of their own', () => {
    const inspection = inspectTemplate(contract('V2'), 'V2');
    assert.ok('placeholders' in inspection);
    assert.deepEqual(inspection.placeholders, [
      { slug: 'name', kind: 'text' },
      { slug: 'start_date', kind: 'text' },
      { slug: 'skills', kind: 'list' },
      { slug: 'lines', kind: 'table', columns: ['item', 'amount'] },
      { slug: 'clause', kind: 'fragment' },
      { slug: 'remote', kind: 'condition' },
    ]);
    assert.deepEqual(inspection.issues, []);
  });

  it('reports malformed placeholders as ERROR issues, never a throw; what still generates as WARNINGs', async () => {
    const cases: [string, string][] = [
      ['Hello {$x', 'unclosed_tag'],
      ['{#$a}text', 'unclosed_loop'],
      ['text{/$a}', 'unopened_loop'],
      ['{#$a} x {/$b}', 'mismatched_loop'],
      ['{$bad slug}', 'invalid_slug'],
      ['Before {@$frag}', 'raw_tag_not_alone'],
    ];
    for (const [text, code] of cases) {
      const inspection = inspectTemplate(buildDocx([{ paragraph: text }]), 'V2');
      assert.ok('issues' in inspection, text);
      assert.ok(
        inspection.issues.some((i) => i.code === code && i.severity === 'ERROR'),
        `${text}: ${JSON.stringify(inspection.issues)}`,
      );
    }
    const outcome = await generate(input({ template: buildDocx([{ paragraph: 'Hello {$x' }]) }));
    assert.ok(!outcome.ok && outcome.reason === 'template' && outcome.issues[0]?.code === 'unclosed_tag');
    const warned = inspectTemplate(buildDocx([{ paragraph: '{$a} {#$a}{$.}{/$a} {#$e}{/$e}' }]), 'V2');
    assert.ok('issues' in warned);
    assert.deepEqual(
      warned.issues.map((i) => `${i.severity} ${i.code} ${i.field}`),
      ['WARNING mixed_use a', 'WARNING empty_loop e'],
    );
  });
});

describe('docgen: layout', () => {
  it('follows the section’s page size, page breaks and long tables onto new pages', async () => {
    const letter = { width: 12240, height: 15840, margin: 1440 };
    const rows = Array.from({ length: 120 }, (_, i) => [`row ${i}`, `value ${i}`]);
    const template = buildDocx(
      [{ paragraph: 'First', style: 'Heading1' }, { pageBreak: true }, { paragraph: 'Second' }, { table: rows }],
      { page: letter },
    );
    const out = written(await generate(input({ template, fields: [], fragments: {}, format: 'PDF' })));
    const { PDFDocument } = await import('@cantoo/pdf-lib');
    const pdf = await PDFDocument.load(out.bytes);
    assert.deepEqual(pdf.getPage(0).getSize(), { width: 612, height: 792 });
    const texts = (await pageTexts(out.bytes)) ?? [];
    assert.ok(texts.length >= 4, `${texts.length} pages`);
    assert.match(texts[0] ?? '', /First/);
    assert.doesNotMatch(texts[0] ?? '', /Second/, 'the page break');
    assert.match(texts.at(-1) ?? '', /row 119\s+value 119/);
    assert.equal(written(await generate(input({ template, fields: [], fragments: {} }))).pages, texts.length);
  });
});

describe('docgen: layout limits', () => {
  it('cuts the layout at MAX_LAYOUT_PAGES pages', async () => {
    const blocks: DocxBlock[] = Array.from({ length: MAX_LAYOUT_PAGES + 20 }, (_, i) => ({
      paragraph: `Page ${i + 1}`,
      pageBreakBefore: i > 0,
    }));
    const laid = await layoutPdf(buildDocx(blocks));
    assert.ok(laid.ok);
    assert.equal(laid.pages, MAX_LAYOUT_PAGES);
    const texts = (await pageTexts(laid.pdf)) ?? [];
    assert.equal(texts.length, MAX_LAYOUT_PAGES);
    assert.match(texts.at(-1) ?? '', new RegExp(`Page ${MAX_LAYOUT_PAGES}\\b`));
  });
});

/** A zip of the given entries (names to contents). */
const zipOf = (entries: Record<string, string>) =>
  zipSync(
    Object.fromEntries(Object.entries(entries).map(([name, content]) => [name, new TextEncoder().encode(content)])),
  );

/** The zip with every entry's declared unpacked size (central directory and local headers) set to `size`. */
function declaring(bytes: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(bytes);
  const view = new DataView(out.buffer);
  let end = out.length - 22;
  while (view.getUint32(end, true) !== 0x06054b50) end--;
  let at = view.getUint32(end + 16, true);
  for (let i = 0; i < view.getUint16(end + 10, true); i++) {
    view.setUint32(at + 24, size, true);
    view.setUint32(view.getUint32(at + 42, true) + 22, size, true);
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return out;
}

describe('docgen: hostile input', () => {
  const reasonOf = (bytes: Uint8Array) => {
    const inspection = inspectTemplate(bytes, 'V2');
    return 'reason' in inspection ? inspection.reason : 'inspected';
  };
  const mib = (n: number) => 'x'.repeat(n * 1024 * 1024);

  it('refuses a PDF named .docx, broken XML, zip bombs (declared and actual) and a 100 MB document.xml', async () => {
    const { pdf } = await import('../support/pdf.js');
    assert.equal(reasonOf(await pdf(1)), 'not_docx');
    assert.equal(reasonOf(new Uint8Array(0)), 'not_docx');
    assert.equal(reasonOf(zipOf({ 'word/other.xml': '<a/>' })), 'not_docx', 'no word/document.xml');
    assert.equal(reasonOf(zipOf({ 'word/document.xml': '<w:document><w:body><w:p>' })), 'broken');
    const big = zipOf({ 'word/document.xml': `<a>${mib(100)}</a>` });
    assert.ok(big.length < 1024 * 1024, `${big.length} bytes packed`);
    assert.equal(reasonOf(big), 'too_large', '100 MB unpacked');
    const many = zipOf({ 'word/document.xml': '<a/>', a: mib(20), b: mib(20), c: mib(20) });
    assert.equal(reasonOf(many), 'too_large', 'declared in all');
    assert.equal(reasonOf(declaring(big, 1000)), 'too_large', 'declared small, actually 100 MB');
    const entries = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`f${i}`, '']));
    assert.equal(reasonOf(zipOf({ ...entries, 'word/document.xml': '<a/>' })), 'too_large', '2,001 entries');
    const outcome = await generate(input({ template: big }));
    assert.ok(!outcome.ok && outcome.reason === 'template' && outcome.issues[0]?.code === 'too_large');
  });

  it('refuses a dataset past the limits: a million rows, fields nested 1,000 deep', async () => {
    const million = await generate(input({ fields: [{ slug: 'skills', value: new Array(1_000_000).fill('x') }] }));
    assert.ok(!million.ok && million.reason === 'dataset' && million.message.includes(String(MAX_ROWS)));
    let deep: unknown = 'bottom';
    for (let i = 0; i < 1_000; i++) deep = { label: 'level', value: deep };
    const nested = await generate(input({ fields: [{ slug: 'name', value: deep }] }));
    assert.ok(!nested.ok && nested.reason === 'dataset' && nested.message.includes(String(MAX_DEPTH)));
    const rows = Array.from({ length: MAX_ROWS + 1 }, () => [{ slug: 'item', value: 'x' }]);
    const tooMany = await generate(input({ fields: [{ slug: 'lines', value: rows }] }));
    assert.ok(!tooMany.ok && tooMany.reason === 'dataset');
  });
});
