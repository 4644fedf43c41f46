/**
 * CSV written by Atrium is safe to open in a spreadsheet (issue 51, finding 3): every writer goes through
 * `platform/csv-write.ts`, which prefixes a formula-like text cell with `'`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { csvStream, csvText } from '../../src/platform/csv-write.js';
import { ROOT } from '../support/root.js';

const RISKY = ['=1+1', '+1', '-1', '@A1', '\tx', '\rx', '＝1', '＋1', '－1', '＠A1'];

describe('CSV writing', () => {
  it('prefixes every formula-like text cell with a quote, and leaves numbers and plain text alone', () => {
    const text = csvText([[...RISKY, -5, 'plain', 'a=b']], {});
    const cells = text.trimEnd().split(',');
    for (const [i, risky] of RISKY.entries()) {
      assert.ok(
        (cells[i] ?? '').replace(/^"|"$/g, '').startsWith(`'${risky[0]}`),
        `${JSON.stringify(risky)}: ${cells[i]}`,
      );
    }
    assert.deepEqual(cells.slice(RISKY.length), ['-5', 'plain', 'a=b']);
  });

  it('does the same in a stream', async () => {
    const stream = csvStream({ header: true, columns: ['a'] });
    Readable.from([['=cmd']]).pipe(stream);
    let out = '';
    for await (const chunk of stream) out += String(chunk);
    assert.equal(out, "a\n'=cmd\n");
  });

  it('is the only way src/ writes CSV', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.tsx?$/.test(entry.name) && !full.endsWith(path.join('platform', 'csv-write.ts'))) {
          if (/from 'csv-stringify/.test(fs.readFileSync(full, 'utf8'))) offenders.push(path.relative(ROOT, full));
        }
      }
    };
    walk(path.join(ROOT, 'src'));
    assert.deepEqual(offenders, []);
  });
});
