/**
 * The SQLite statement cache (`withStatementCache`): reader rows are made from raw values by a generated
 * function, and must be exactly the objects better-sqlite3 makes itself, whatever the columns; a schema change
 * on the connection must never leave a cached row shape behind.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { openDatabase, rowMaker, Sqlite, withStatementCache } from '../../src/platform/db/database.js';

describe('SQLite statement cache and row making', () => {
  let dir: string;
  let plain: SqliteDatabase.Database;
  let cached: ReturnType<typeof withStatementCache>;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-stmt-'));
    const file = path.join(dir, 'db.sqlite');
    plain = new Sqlite(file);
    plain.exec(
      "create table t (pk integer primary key, name text, n real, b blob, z text); insert into t values (1, 'é\"x', 1.5, x'00ff', null), (2, 'two', -3, null, 'z')",
    );
    cached = withStatementCache(new Sqlite(file));
  });
  after(() => {
    plain.close();
    cached.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const same = (text: string, params: unknown[] = []) => {
    const expected = plain.prepare(text).all(...params);
    const actual = cached.prepare(text).all(params);
    assert.deepEqual(actual, expected, `rows of ${text}`);
    for (const [i, row] of (actual as object[]).entries()) {
      assert.deepEqual(Object.keys(row), Object.keys(expected[i] as object), `key order of ${text}`);
      assert.equal(Object.getPrototypeOf(row), Object.prototype, `a plain object for ${text}`);
    }
    return actual as Record<string, unknown>[];
  };

  it('makes the same objects as better-sqlite3: every type, nulls, no rows, parameters', () => {
    const rows = same('select * from t order by pk');
    assert.equal(rows.length, 2, 'both rows');
    assert.ok(Buffer.isBuffer(rows[0]?.b), 'a blob stays a Buffer');
    assert.equal(rows[0]?.name, 'é"x', 'text with a quote and a non-ASCII letter');
    same('select * from t where pk = ?', [2]);
    assert.deepEqual(same('select * from t where pk = ?', [99]), [], 'no rows');
    same('select count(*) as n, sum(n) as "weird name ""q""" from t');
  });

  it('a duplicate column name keeps the last value, as better-sqlite3 does; __proto__ is an own property', () => {
    const dup = same('select pk as a, name as a, pk from t order by pk');
    assert.equal(dup[0]?.a, 'é"x', 'the later column wins');
    // better-sqlite3 itself turns a `__proto__` column into the row's prototype; here it is a plain property.
    const proto = cached.prepare('select pk as "__proto__", name from t order by pk').all([]) as object[];
    assert.ok(Object.hasOwn(proto[0] as object, '__proto__'), '__proto__ is a column, not the prototype');
    assert.equal(Object.getPrototypeOf(proto[0]), Object.prototype, 'the prototype is untouched');
    assert.deepEqual(Object.keys(proto[1] as object), ['__proto__', 'name'], 'both columns, in order');
    assert.equal(Object.getOwnPropertyDescriptor(proto[1], '__proto__')?.value, 2, 'its value is the column');
  });

  it('a generated maker cannot be steered by a column name', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a column name that reads like a template is the point.
    const make = rowMaker(['a', "b'}; throw new Error('x'); ({", '`${1}`']);
    assert.deepEqual(make([1, 2, 3]), { a: 1, "b'}; throw new Error('x'); ({": 2, '`${1}`': 3 });
  });

  it('a statement still being iterated is not handed out again, and iteration makes the same rows', () => {
    const text = 'select * from t order by pk';
    const first = cached.prepare(text);
    const iterator = first.iterate([]);
    const one = iterator.next();
    const second = cached.prepare(text);
    assert.notEqual(second, first, 'a busy statement is not shared');
    assert.deepEqual(second.all([]), plain.prepare(text).all(), 'the other statement reads all rows');
    assert.deepEqual(one.value, plain.prepare(text).all()[0], 'the iterated row is the same object');
    iterator.return?.();
  });

  it('a schema change on the connection is seen at once: no stale row shape', () => {
    const text = 'select * from t where pk = 1';
    assert.deepEqual(Object.keys(cached.prepare(text).all([])[0] as object), ['pk', 'name', 'n', 'b', 'z']);
    cached.prepare('alter table t add column extra text').run([]);
    cached.prepare("update t set extra = 'more' where pk = 1").run([]);
    const row = cached.prepare(text).all([])[0] as Record<string, unknown>;
    assert.deepEqual(Object.keys(row), ['pk', 'name', 'n', 'b', 'z', 'extra'], 'the new column is there');
    assert.equal(row.extra, 'more', 'with its value');
    // The same number of columns under a new name: only the cache's reaction to the DDL can tell.
    cached.prepare('alter table t rename column extra to renamed').run([]);
    const renamed = cached.prepare(text).all([])[0] as Record<string, unknown>;
    assert.deepEqual(Object.keys(renamed), ['pk', 'name', 'n', 'b', 'z', 'renamed'], 'the renamed column');
  });

  it('serves Kysely: selects, inserts with returning, and transactions', async () => {
    const database = openDatabase({ dataDir: path.join(dir, 'k'), databaseUrl: undefined, dbPoolSize: 1 });
    try {
      const { db } = database;
      await sql`create table k (id integer primary key, v text not null)`.execute(db);
      const inserted = await sql<{
        id: number;
        v: string;
      }>`insert into k (v) values ('a'), ('b') returning id, v`.execute(db);
      assert.deepEqual(inserted.rows, [
        { id: 1, v: 'a' },
        { id: 2, v: 'b' },
      ]);
      await db.transaction().execute(async (trx) => {
        await sql`update k set v = 'c' where id = 2`.execute(trx);
      });
      const rows = await sql<{ id: number; v: string }>`select * from k order by id`.execute(db);
      assert.deepEqual(rows.rows, [
        { id: 1, v: 'a' },
        { id: 2, v: 'c' },
      ]);
    } finally {
      await database.close();
    }
  });
});

describe('SQLite reads share one read transaction per turn of the event loop', () => {
  let dir: string;
  let file: string;
  let raw: SqliteDatabase.Database;
  let cached: ReturnType<typeof withStatementCache>;
  let other: SqliteDatabase.Database;
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  const count = () => (cached.prepare('select count(*) as n from r').all([])[0] as { n: number }).n;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-batch-'));
    file = path.join(dir, 'db.sqlite');
    raw = new Sqlite(file);
    raw.pragma('journal_mode = WAL');
    raw.exec('create table r (id integer primary key, v text)');
    cached = withStatementCache(raw);
    other = new Sqlite(file);
  });
  after(() => {
    other.close();
    cached.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a read opens the transaction, later reads in the turn join it, and it ends in the next turn', async () => {
    await nextTurn();
    assert.equal(raw.inTransaction, false, 'nothing open before the first read');
    assert.equal(count(), 0, 'the table starts empty');
    assert.equal(raw.inTransaction, true, 'the read opened a transaction');
    // Another process commits in the same turn: the turn keeps one snapshot.
    other.prepare("insert into r (v) values ('from elsewhere')").run();
    assert.equal(count(), 0, 'the same snapshot for the whole turn');
    await nextTurn();
    assert.equal(raw.inTransaction, false, 'the transaction ended with the turn');
    assert.equal(count(), 1, "the next turn sees the other connection's commit");
    await nextTurn();
  });

  it('a write, an insert with returning and begin immediate each end the read transaction first', async () => {
    count();
    assert.equal(raw.inTransaction, true, 'a read transaction is open');
    cached.prepare("insert into r (v) values ('here')").run([]);
    assert.equal(raw.inTransaction, false, 'the write ran outside it (autocommit)');
    assert.equal(
      (other.prepare('select count(*) as n from r').get() as { n: number }).n,
      2,
      'and is committed: another connection sees it at once',
    );
    count();
    const returned = cached.prepare("insert into r (v) values ('returning') returning id").all([]);
    assert.equal(returned.length, 1, 'the insert returned its row');
    assert.equal(raw.inTransaction, false, 'an insert … returning is a write, not a batched read');
    assert.equal((other.prepare('select count(*) as n from r').get() as { n: number }).n, 3, 'committed at once');
    count();
    cached.prepare('begin immediate').run([]);
    assert.equal(raw.inTransaction, true, 'the explicit transaction began (no "transaction within a transaction")');
    cached.prepare("insert into r (v) values ('explicit')").run([]);
    assert.equal(count(), 4, 'a read inside the explicit transaction sees its write');
    cached.prepare('commit').run([]);
    assert.equal(raw.inTransaction, false, 'the commit ended it; no read transaction was opened inside it');
    await nextTurn();
  });

  it('a read transaction outlives the turn while a statement is still being iterated', async () => {
    const rows = cached.prepare('select v from r order by id').iterate([]);
    assert.deepEqual(rows.next().value, { v: 'from elsewhere' }, 'the first row');
    await nextTurn();
    assert.equal(raw.inTransaction, true, 'still open under the iteration');
    assert.equal([...rows].length, 3, 'the iteration finishes');
    await nextTurn();
    await nextTurn();
    assert.equal(raw.inTransaction, false, 'ended once the iteration was done');
  });

  it('Kysely transactions after reads in the same turn work, through openDatabase', async () => {
    const database = openDatabase({ dataDir: path.join(dir, 'k'), databaseUrl: undefined, dbPoolSize: 1 });
    try {
      const { db } = database;
      await sql`create table k (id integer primary key, v text not null)`.execute(db);
      await sql`insert into k (v) values ('a')`.execute(db);
      const read = await sql<{ n: number }>`select count(*) as n from k`.execute(db);
      assert.equal(read.rows[0]?.n, 1, 'a read in this turn');
      await db.transaction().execute(async (trx) => {
        await sql`insert into k (v) values ('b')`.execute(trx);
      });
      const after = await sql<{ n: number }>`select count(*) as n from k`.execute(db);
      assert.equal(after.rows[0]?.n, 2, 'the transaction committed its row');
    } finally {
      await database.close();
    }
  });
});
