/**
 * Reading CSV (src/platform/csv.ts; docs/imports.md, "Limits"): the parser is fed a piece at a time with a turn of
 * the event loop between two, so that a long line (a header of 200,000 columns) does not hold the loop while it is
 * split; and a header of more than MAX_COLUMNS columns is refused as a whole.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CsvFormatError, csvRecords, MAX_COLUMNS } from '../../src/platform/csv.js';

/** A source handing over the whole file at once, as one chunk already in memory. */
async function* whole(text: string): AsyncGenerator<string> {
  yield text;
}

describe('csv reading', () => {
  it('lets the event loop run while it splits a 200,000-column header, then refuses it', async () => {
    const header = Array.from({ length: 200_000 }, () => 'c').join(',');
    let turns = 0;
    let watching = true;
    const watch = () => {
      if (!watching) return;
      turns++;
      setImmediate(watch);
    };
    setImmediate(watch);
    let refused: unknown;
    try {
      for await (const _ of csvRecords(whole(`${header}\nx\n`))) assert.fail('no record is read');
    } catch (error) {
      refused = error;
    }
    watching = false;
    assert.ok(refused instanceof CsvFormatError, String(refused));
    assert.equal(refused.line, 0);
    assert.equal(refused.message, `The header has 200000 columns: a file may have at most ${MAX_COLUMNS}.`);
    // 400,000 characters in pieces of 16,384: the loop ran between them.
    assert.ok(turns >= 20, `the event loop ran ${turns} times while the header was parsed`);
  });

  it('reads a header of MAX_COLUMNS columns, and its rows', async () => {
    const header = Array.from({ length: MAX_COLUMNS }, (_, i) => `c${i}`).join(';');
    const row = Array.from({ length: MAX_COLUMNS }, (_, i) => String(i)).join(';');
    const records = [];
    for await (const record of csvRecords(whole(`${header}\n${row}\n`))) records.push(record);
    assert.equal(records.length, 2);
    assert.equal(records[0]?.cells.length, MAX_COLUMNS);
    assert.deepEqual([records[1]?.line, records[1]?.cells.at(-1)], [1, String(MAX_COLUMNS - 1)]);
  });
});
