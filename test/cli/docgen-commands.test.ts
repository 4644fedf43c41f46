/**
 * `atrium hr sample-template` and `atrium hr pdf-text` (docs/cli.md): the sample template is a DOCX whose
 * placeholders the engine reads, in either syntax; pdf-text prints a PDF's text page by page, and refuses a file
 * that is not a PDF with exit 1 and one line.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { inspectTemplate } from '../../src/platform/docgen/inspect.js';
import { atrium, json } from '../support/cli.js';
import { textPdf } from '../support/distributions.js';

describe('atrium hr sample-template and pdf-text', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-docgen-cli-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes the sample certificate in V2 and V1, whose placeholders the engine reads', async () => {
    for (const syntax of ['V2', 'V1'] as const) {
      const file = path.join(dir, `certificate-${syntax}.docx`);
      const run = await atrium({}, 'hr', 'sample-template', '--out', file, '--syntax', syntax, '--json');
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(json<{ file: string; syntax: string }>(run), {
        file,
        bytes: fs.statSync(file).size,
        syntax,
      });
      const inspection = inspectTemplate(new Uint8Array(fs.readFileSync(file)), syntax);
      assert.ok('placeholders' in inspection);
      assert.deepEqual(inspection.issues, []);
      assert.deepEqual(
        inspection.placeholders.map((p) => p.slug),
        ['firstname', 'lastname', 'company', 'hire_date', 'position', 'salaries', 'remote', 'city'],
      );
    }
    const bad = await atrium({}, 'hr', 'sample-template', '--out', path.join(dir, 'x.docx'), '--syntax', 'V3');
    assert.equal(bad.code, 2);
  });

  it('prints the text of each page of a PDF, and refuses what is not one', async () => {
    const pdf = path.join(dir, 'two-pages.pdf');
    fs.writeFileSync(pdf, await textPdf([['Ada Lovelace, page one'], ['page two']]));
    const run = await atrium({}, 'hr', 'pdf-text', pdf, '--json');
    assert.equal(run.code, 0, run.stderr);
    const pages = json<{ pages: string[] }>(run).pages;
    assert.equal(pages.length, 2);
    assert.match(pages[0] ?? '', /Ada Lovelace, page one/);
    const text = await atrium({}, 'hr', 'pdf-text', pdf);
    assert.match(text.stdout, /--- page 1\nAda Lovelace, page one/);
    const notPdf = path.join(dir, 'not.pdf');
    fs.writeFileSync(notPdf, 'hello');
    const refused = await atrium({}, 'hr', 'pdf-text', notPdf);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /is not a PDF that can be read/);
  });
});
