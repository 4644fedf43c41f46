/**
 * The database layer on both dialects: transactions retried on serialization failures and busy databases,
 * the statement timeout, and identical text behaviour (order, case-insensitive search) whatever the
 * PostgreSQL database's locale.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../../src/platform/config.js';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import {
  inLightTransaction,
  inTransaction,
  isRetryableConflict,
  withLightCommits,
} from '../../src/platform/db/transaction.js';
import {
  dialects,
  freshDatabase,
  type HrCaller,
  hrCaller,
  sleep,
  startServer,
  type TestDatabase,
  type TestServer,
} from '../support/harness.js';
import { json } from '../support/people-assist.js';

function open(
  db: TestDatabase,
  extra: { sqliteBusyTimeoutMs?: number; dbStatementTimeoutMs?: number; sqliteCacheMb?: number } = {},
) {
  return openDatabase({
    dataDir: db.env.ATRIUM_DATA_DIR as string,
    databaseUrl: db.env.DATABASE_URL,
    dbPoolSize: 4,
    ...extra,
  });
}

describe('settings of the database layer', () => {
  it('pool size, statement timeout, busy timeout and workers have defaults and bounds', () => {
    const config = loadConfig({});
    assert.equal(config.dbPoolSize, 10);
    assert.equal(config.dbStatementTimeoutMs, 30_000);
    assert.equal(config.sqliteBusyTimeoutMs, 5000);
    assert.equal(config.workers, 1);
    const set = loadConfig({
      ATRIUM_DB_POOL_SIZE: '3',
      ATRIUM_DB_STATEMENT_TIMEOUT_MS: '0',
      ATRIUM_SQLITE_BUSY_TIMEOUT_MS: '250',
      ATRIUM_WORKERS: '4',
    });
    assert.deepEqual([set.dbPoolSize, set.dbStatementTimeoutMs, set.sqliteBusyTimeoutMs, set.workers], [3, 0, 250, 4]);
    assert.throws(() => loadConfig({ ATRIUM_WORKERS: '0' }), /ATRIUM_WORKERS/);
    assert.throws(() => loadConfig({ ATRIUM_DB_STATEMENT_TIMEOUT_MS: '-1' }), /ATRIUM_DB_STATEMENT_TIMEOUT_MS/);
  });

  it("SQLite's page cache is 8 MiB per process unless ATRIUM_SQLITE_CACHE_MB says otherwise", async () => {
    assert.equal(loadConfig({}).sqliteCacheMb, 8);
    assert.equal(loadConfig({ ATRIUM_SQLITE_CACHE_MB: '64' }).sqliteCacheMb, 64);
    assert.throws(() => loadConfig({ ATRIUM_SQLITE_CACHE_MB: '0' }), /ATRIUM_SQLITE_CACHE_MB/);
    for (const [mb, kib] of [
      [undefined, -8192],
      [64, -65_536],
    ] as const) {
      const tdb = await freshDatabase('sqlite');
      const database = open(tdb, mb === undefined ? {} : { sqliteCacheMb: mb });
      try {
        const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(database.db);
        assert.equal(rows[0]?.cache_size, kib);
      } finally {
        await database.close();
        await tdb.drop();
      }
    }
  });

  it('knows which driver errors are worth another attempt', () => {
    for (const code of ['40001', '40P01', 'SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT']) {
      assert.equal(isRetryableConflict(Object.assign(new Error('x'), { code })), true, code);
    }
    for (const code of ['23505', 'SQLITE_CONSTRAINT_UNIQUE', '57014', undefined]) {
      assert.equal(isRetryableConflict(Object.assign(new Error('x'), { code })), false, String(code));
    }
  });
});

for (const dialect of dialects()) {
  describe(`transactions retried transparently (${dialect})`, () => {
    let tdb: TestDatabase;
    let database: Database;
    before(async () => {
      tdb = await freshDatabase(dialect);
      database = open(tdb);
      await migrateToLatest(database);
    });
    after(async () => {
      await database.close();
      await tdb.drop();
    });

    it('runs the work again after a retryable failure, and gives up on anything else', async () => {
      let attempts = 0;
      const value = await inTransaction(database.db, async (trx) => {
        attempts += 1;
        await trx
          .insertInto('settings')
          .values({ key: 'retry-a', value: String(attempts) })
          .execute();
        if (attempts < 3)
          throw Object.assign(new Error('conflict'), { code: dialect === 'sqlite' ? 'SQLITE_BUSY' : '40001' });
        return attempts;
      });
      assert.equal(value, 3);
      const rows = await database.db.selectFrom('settings').selectAll().where('key', '=', 'retry-a').execute();
      assert.deepEqual(rows, [{ key: 'retry-a', value: '3' }], 'the failed attempts were rolled back');
      let other = 0;
      await assert.rejects(
        inTransaction(database.db, async () => {
          other += 1;
          throw Object.assign(new Error('duplicate'), { code: '23505' });
        }),
        /duplicate/,
      );
      assert.equal(other, 1, 'a non-retryable error is not retried');
    });

    it('a light transaction commits without the flush, and only it: the setting is restored after', async (t) => {
      const outer: Database = database;
      const level = async (db: Database['db']) => {
        if (dialect === 'postgres') {
          const { rows } = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db);
          return rows[0]?.synchronous_commit;
        }
        const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
        return rows[0]?.synchronous;
      };
      const [flushed, light] = dialect === 'postgres' ? ['on', 'off'] : [2, 1]; // SQLite: 2 FULL, 1 NORMAL
      let subject = outer;
      if (dialect === 'postgres') {
        // The test cluster runs with synchronous_commit off: this database's new sessions get PostgreSQL's default.
        const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(outer.db);
        await sql.raw(`alter database "${rows[0]?.name}" set synchronous_commit = on`).execute(outer.db);
        subject = open(tdb);
      }
      t.after(() => (subject === outer ? undefined : subject.close()));
      assert.equal(await level(subject.db), flushed, 'ordinary commits are flushed');
      for (const round of [1, 2]) {
        // Twice: the level is lowered for every light transaction, not for the first only.
        const inside = await inLightTransaction(subject.db, async (trx) => {
          await trx
            .insertInto('settings')
            .values({ key: `light-${round}`, value: 'v' })
            .execute();
          return level(trx);
        });
        assert.equal(inside, light, `round ${round}: the light transaction's commit is not flushed`);
        assert.equal(await level(subject.db), flushed, `round ${round}: the next transactions are flushed again`);
        await inTransaction(subject.db, async (trx) => {
          assert.equal(await level(trx), flushed, `round ${round}: an ordinary transaction is flushed`);
        });
      }
      const rows = await subject.db.selectFrom('settings').select('key').where('key', 'like', 'light-%').execute();
      assert.deepEqual(rows.map((r) => r.key).sort(), ['light-1', 'light-2'], 'both committed');
      await assert.rejects(
        inLightTransaction(subject.db, async (trx) => {
          await trx.insertInto('settings').values({ key: 'light-3', value: 'v' }).execute();
          throw new Error('refused');
        }),
        /refused/,
      );
      assert.equal(await level(subject.db), flushed, 'restored after a rollback too');
      const none = await subject.db.selectFrom('settings').select('key').where('key', '=', 'light-3').execute();
      assert.deepEqual(none, [], 'rolled back');

      // withLightCommits: every transaction started inside is light (a bulk call's and an import's rows), the
      // writes outside it and after it are flushed again.
      const seen = await withLightCommits(async () => {
        const first = await inTransaction(subject.db, (trx) => level(trx));
        const second = await inTransaction(subject.db, async (trx) => {
          await trx.insertInto('settings').values({ key: 'light-4', value: 'v' }).execute();
          return level(trx);
        });
        return [first, second];
      });
      assert.deepEqual(seen, [light, light], 'inside withLightCommits, each transaction is light');
      assert.equal(await level(subject.db), flushed, 'and the level is restored after it');
      await inTransaction(subject.db, async (trx) => {
        assert.equal(await level(trx), flushed, 'a transaction after it is flushed');
      });
      const kept = await subject.db.selectFrom('settings').select('key').where('key', '=', 'light-4').execute();
      assert.equal(kept.length, 1, 'committed');
    });

    if (dialect === 'postgres') {
      it('a real serialization failure (two serializable read-then-write transactions) is retried', async () => {
        await database.db.insertInto('settings').values({ key: 'counter', value: '0' }).execute();
        let attempts = 0;
        let reads = 0;
        let release: () => void = () => {};
        const bothRead = new Promise<void>((resolve) => {
          release = resolve;
        });
        const increment = () =>
          inTransaction(database.db, async (trx) => {
            attempts += 1;
            await sql`set transaction isolation level serializable`.execute(trx);
            const row = await trx
              .selectFrom('settings')
              .select('value')
              .where('key', '=', 'counter')
              .executeTakeFirstOrThrow();
            reads += 1;
            if (reads === 2) release();
            if (reads <= 2) await bothRead;
            await trx
              .updateTable('settings')
              .set({ value: String(Number(row.value) + 1) })
              .where('key', '=', 'counter')
              .execute();
          });
        await Promise.all([increment(), increment()]);
        const row = await database.db
          .selectFrom('settings')
          .select('value')
          .where('key', '=', 'counter')
          .executeTakeFirstOrThrow();
        assert.equal(row.value, '2', 'both increments counted');
        assert.equal(attempts, 3, 'one of them ran twice');
      });

      it('a statement running past ATRIUM_DB_STATEMENT_TIMEOUT_MS is cancelled', async () => {
        const limited = open(tdb, { dbStatementTimeoutMs: 100 });
        try {
          await assert.rejects(sql`select pg_sleep(3)`.execute(limited.db), (err: { code?: string }) => {
            assert.equal(err.code, '57014');
            return true;
          });
        } finally {
          await limited.close();
        }
      });
    } else {
      it('a write waiting for another connection’s write lock succeeds once it is released', async () => {
        // Two connections to one file, as two worker processes have, with a short busy timeout.
        const first = open(tdb, { sqliteBusyTimeoutMs: 20 });
        const second = open(tdb, { sqliteBusyTimeoutMs: 20 });
        try {
          let locked: () => void = () => {};
          const holding = new Promise<void>((resolve) => {
            locked = resolve;
          });
          const slow = inTransaction(first.db, async (trx) => {
            await trx.insertInto('settings').values({ key: 'lock-a', value: 'a' }).execute();
            locked();
            await sleep(150);
          });
          await holding;
          await assert.rejects(
            second.db
              .transaction()
              .execute((trx) => trx.insertInto('settings').values({ key: 'lock-x', value: 'x' }).execute()),
            (err: { code?: string }) => {
              assert.equal(err.code, 'SQLITE_BUSY', 'without the retry, the busy database is an error');
              return true;
            },
          );
          await inTransaction(second.db, (trx) =>
            trx.insertInto('settings').values({ key: 'lock-b', value: 'b' }).execute(),
          );
          await slow;
          const keys = (await database.db.selectFrom('settings').select('key').where('key', 'like', 'lock-%').execute())
            .map((r) => r.key)
            .sort();
          assert.deepEqual(keys, ['lock-a', 'lock-b']);
        } finally {
          await first.close();
          await second.close();
        }
      });
    }
  });
}

/**
 * On PostgreSQL, a database whose default collation is linguistic (ICU en-US: `É` sorts between `e` and `f`,
 * `lower('É')` is `é`), where text would sort and fold unlike SQLite without migration 0010.
 */
async function linguisticDatabase(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const admin = process.env.ATRIUM_TEST_PG_URL;
  if (!admin) return undefined;
  const name = `atrium_icu_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`create database ${name} template template0 locale_provider icu icu_locale 'en-US' locale 'C'`);
  } catch {
    return undefined;
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

for (const dialect of dialects()) {
  describe(`text behaves the same on both databases (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let linguistic: { url: string; drop(): Promise<void> } | undefined;
    const lastnames = ['Zola', 'Émile', 'eve', 'Fabre', 'abel', 'Ébène', 'ÉMILE-2'];

    before(async () => {
      if (dialect === 'postgres') linguistic = await linguisticDatabase();
      server = await startServer(dialect, linguistic ? { DATABASE_URL: linguistic.url } : {});
      hr = await hrCaller(server);
      await json(await hr.call('PUT', '/organizations/hq', { name: 'HQ' }), 201);
      for (const [i, lastname] of lastnames.entries()) {
        await json(
          await hr.call('POST', '/employees', {
            firstname: `P${i}`,
            email: `p${i}@example.com`,
            lastname,
            registration_references: [{ organization_id: 'hq', employee_number: `N${i}` }],
          }),
          201,
        );
      }
    });
    after(async () => {
      await server.close();
      await linguistic?.drop();
    });

    const search = async (body: Record<string, unknown>) =>
      (
        await json<{ lastname: string }[]>(await hr.call('POST', '/employees/search', { per_page: 100, ...body }), 200)
      ).map((e) => e.lastname);

    it('sorts text by code point after ASCII case folding, on every page', async () => {
      const expected = ['abel', 'eve', 'Fabre', 'Zola', 'Ébène', 'Émile', 'ÉMILE-2'];
      assert.deepEqual(await search({ sort: '+lastname' }), expected);
      assert.deepEqual(await search({ sort: '-lastname' }), [...expected].reverse());
      // Keyset pages compare in the same collation as the sort.
      const paged: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 10; i++) {
        const res = await hr.call('POST', '/employees/search', {
          per_page: 2,
          sort: '+lastname',
          ...(cursor ? { next_cursor: cursor } : {}),
        });
        paged.push(...(await json<{ lastname: string }[]>(res, 200)).map((e) => e.lastname));
        cursor = res.headers.get('next-cursor') ?? undefined;
        if (!cursor) break;
      }
      assert.deepEqual(paged, expected);
    });

    it('case-insensitive search folds every letter, accented ones too', async () => {
      assert.deepEqual((await search({ q: 'émile' })).sort(), ['ÉMILE-2', 'Émile']);
      assert.deepEqual((await search({ q: 'ÉMILE' })).sort(), ['ÉMILE-2', 'Émile']);
      assert.deepEqual(await search({ q: 'ÉBÈ' }), ['Ébène']);
      assert.deepEqual(await search({ q: 'emile' }), [], 'folding keeps accents: e is not é');
      assert.deepEqual(await search({ q: 'ZOL' }), ['Zola']);
    });

    if (dialect === 'postgres') {
      it('every text column of PostgreSQL has the C collation (a new migration must keep it so)', async () => {
        const rows = await sql<{ table_name: string; column_name: string; collation_name: string | null }>`
          select table_name, column_name, collation_name from information_schema.columns
          where table_schema = current_schema() and data_type in ('text', 'character varying')
            and table_name not like 'kysely%' and coalesce(collation_name, '') <> 'C'`.execute(server.app.database.db);
        assert.deepEqual(rows.rows, []);
        if (linguistic) {
          // The premise: this database's own collation orders linguistically (É between e and f).
          const premise = await sql<{ before: boolean }>`select 'Émile' < 'f' as before`.execute(
            server.app.database.db,
          );
          assert.equal(premise.rows[0]?.before, true);
        } else {
          console.log('PostgreSQL has no ICU: the text parity test ran on a database with the C locale only');
        }
      });
    }
  });
}
