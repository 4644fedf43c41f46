import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/platform/config.js';
import { BinaryCopyParser, type BinaryRow } from '../../src/platform/db/copy-binary.js';
import { copyReader, type Database, openDatabase } from '../../src/platform/db/database.js';
import { dialects, freshDatabase, type TestDatabase } from '../support/harness.js';

/** PostgreSQL's binary copy format for `rows`, as one buffer. */
function encode(rows: BinaryRow[], extension = Buffer.alloc(0)): Buffer {
  const parts: Buffer[] = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1')];
  const int = (n: number, bytes: 2 | 4) => {
    const b = Buffer.alloc(bytes);
    if (bytes === 2) b.writeInt16BE(n);
    else b.writeInt32BE(n);
    return b;
  };
  parts.push(int(0, 4), int(extension.length, 4), extension);
  for (const row of rows) {
    parts.push(int(row.length, 2));
    for (const field of row) parts.push(field === null ? int(-1, 4) : Buffer.concat([int(field.length, 4), field]));
  }
  parts.push(int(-1, 2));
  return Buffer.concat(parts);
}

const ROWS: BinaryRow[] = [
  [Buffer.from([0, 0, 0, 7]), randomBytes(300)],
  [null, Buffer.alloc(0)],
  [Buffer.from('é', 'utf8'), randomBytes(5)],
];

describe('binary COPY parser', () => {
  it('reads the rows of one message', () => {
    const parser = new BinaryCopyParser();
    parser.push(encode(ROWS, Buffer.from('ext')));
    assert.deepEqual(parser.rows, ROWS);
    assert.equal(parser.complete, true);
  });

  it('reads the same rows however the messages are cut, and copies them out of the driver’s buffer', () => {
    const whole = encode(ROWS);
    for (let cut = 1; cut < whole.length; cut += 7) {
      const parser = new BinaryCopyParser();
      for (let at = 0; at < whole.length; at += cut) {
        const message = Buffer.from(whole.subarray(at, at + cut));
        parser.push(message);
        message.fill(0xee); // the driver reuses its buffer once the message is handled
      }
      assert.deepEqual(parser.rows, ROWS, `cut every ${cut} bytes`);
      assert.equal(parser.complete, true);
    }
  });

  it('is not complete without the trailer, and refuses another format', () => {
    const whole = encode(ROWS);
    const parser = new BinaryCopyParser();
    parser.push(whole.subarray(0, whole.length - 2));
    assert.equal(parser.rows.length, 3);
    assert.equal(parser.complete, false);
    assert.throws(() => new BinaryCopyParser().push(Buffer.from('1\tabc\n'.repeat(5))), /not a binary COPY stream/);
  });
});

for (const dialect of dialects()) {
  describe(`binary COPY reader (${dialect})`, () => {
    let testDb: TestDatabase;
    let database: Database;

    before(async () => {
      testDb = await freshDatabase(dialect);
      database = openDatabase(loadConfig(testDb.env));
    });
    after(async () => {
      await database.close();
      await testDb.drop();
    });

    if (dialect === 'sqlite') {
      it('is PostgreSQL’s only', () => {
        assert.equal(copyReader(database.db), undefined);
      });
      return;
    }

    it('gives bytea as its bytes, integers in network order, NULL as null', async () => {
      const copy = copyReader(database.db);
      assert.ok(copy);
      const rows = await copy(
        "copy (select n, decode(repeat('00ff10', 100000), 'hex'), null::text from generate_series(1, 3) as n order by n) to stdout (format binary)",
      );
      assert.equal(rows.length, 3);
      const bytes = Buffer.from('00ff10'.repeat(100000), 'hex');
      rows.forEach(([n, data, nothing], i) => {
        assert.equal(n?.readInt32BE(0), i + 1);
        assert.ok(data?.equals(bytes));
        assert.equal(nothing, null);
      });
    });

    it('rejects a failed statement with PostgreSQL’s error and gives its connection back, usable', async () => {
      const copy = copyReader(database.db);
      assert.ok(copy);
      const pool = database.pool as { totalCount: number; idleCount: number };
      await copy('copy (select 0::int4) to stdout (format binary)');
      const connections = pool.totalCount;
      await assert.rejects(copy('copy (select * from no_such_table) to stdout (format binary)'), {
        code: '42P01',
      });
      assert.equal(pool.totalCount, connections, 'the connection was kept, not closed');
      assert.equal(pool.idleCount, pool.totalCount, 'every connection is back in the pool');
      const again = await copy('copy (select 1::int4) to stdout (format binary)');
      assert.equal(again[0]?.[0]?.readInt32BE(0), 1);
      // Not the binary format: refused, and the connection still answers the next call.
      await assert.rejects(copy('copy (select 1) to stdout'), /not a binary COPY stream/);
      assert.equal((await copy('copy (select 2::int4) to stdout (format binary)'))[0]?.[0]?.readInt32BE(0), 2);
    });
  });
}
