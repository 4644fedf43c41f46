/**
 * Prepared queries (`src/platform/db/prepared.ts`) on both dialects: each call answers exactly what the same
 * query built afresh answers, with its own values, whatever the array lengths, in a transaction too; a builder
 * that misuses a placeholder is refused instead of running the wrong SQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../src/platform/config.js';
import { type Database, type Db, MAX_NAMED_STATEMENTS, openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { prepared } from '../../src/platform/db/prepared.js';
import { inTransaction } from '../../src/platform/db/transaction.js';
import { dialects, freshDatabase, organizationRow, type TestDatabase } from '../support/harness.js';

const byIds = prepared((db: Db, p: { clientId: string; ids: string[] }) =>
  db
    .selectFrom('hr_organizations')
    .select(['id', 'name'])
    .where('client_id', '=', p.clientId)
    .where('id', 'in', p.ids)
    // A constant of the builder stays a constant.
    .where('name', '!=', 'never')
    .orderBy('id'),
);
const one = prepared((db: Db, p: { clientId: string; id: string }) =>
  db.selectFrom('hr_organizations').selectAll().where('client_id', '=', p.clientId).where('id', '=', p.id),
);

for (const dialect of dialects()) {
  describe(`prepared queries (${dialect})`, () => {
    let tdb: TestDatabase;
    let database: Database;

    before(async () => {
      tdb = await freshDatabase(dialect);
      database = openDatabase({
        dataDir: tdb.env.ATRIUM_DATA_DIR as string,
        databaseUrl: tdb.env.DATABASE_URL,
        dbPoolSize: 2,
      });
      await migrateToLatest(database);
      const { db } = database;
      for (const client of ['c1', 'c2']) {
        await db.insertInto('hr_clients').values({ id: client, name: client, created_at: 0 }).execute();
        for (const id of ['a', 'b', 'c', 'd']) {
          await db
            .insertInto('hr_organizations')
            .values(organizationRow(client, id, `${client}-${id}`, null, 0))
            .execute();
        }
      }
    });
    after(async () => {
      await database?.close();
      await tdb?.drop();
    });

    const fresh = (db: Db, clientId: string, ids: string[]) =>
      db
        .selectFrom('hr_organizations')
        .select(['id', 'name'])
        .where('client_id', '=', clientId)
        .where('id', 'in', ids)
        .where('name', '!=', 'never')
        .orderBy('id')
        .execute();

    it('answers what the query built afresh answers, for each call’s own values and array lengths', async () => {
      const { db } = database;
      const cases: [string, string[]][] = [
        ['c1', ['a']],
        ['c2', ['a']],
        ['c1', ['b', 'd']],
        ['c2', ['d', 'c', 'zz']],
        ['c1', ['zz']],
        ['c2', ['a', 'b', 'c', 'd']],
        ['c1', ['a']],
      ];
      for (const [clientId, ids] of cases) {
        const rows = await byIds.all(db, { clientId, ids });
        assert.deepEqual(rows, await fresh(db, clientId, ids), `${clientId} ${ids.join(',')}`);
        assert.ok(
          rows.every((r) => r.name.startsWith(`${clientId}-`) && ids.includes(r.id)),
          `only ${clientId}'s rows among ${ids.join(',')}`,
        );
      }
      assert.equal((await one.first(db, { clientId: 'c2', id: 'c' }))?.name, 'c2-c', 'first row');
      assert.equal(await one.first(db, { clientId: 'c3', id: 'c' }), undefined, 'no row');
    });

    it('runs inside a transaction, on the transaction’s connection', async () => {
      const seen = await inTransaction(database.db, async (trx) => {
        await trx
          .updateTable('hr_organizations')
          .set({ name: 'renamed' })
          .where('client_id', '=', 'c1')
          .where('id', '=', 'a')
          .execute();
        return one.first(trx, { clientId: 'c1', id: 'a' });
      });
      assert.equal(seen?.name, 'renamed', 'the uncommitted change is seen inside the transaction');
      assert.equal((await one.first(database.db, { clientId: 'c1', id: 'a' }))?.name, 'renamed', 'and after it');
    });

    it('writes too, built once for the database and all its transactions, with the rows they changed', async () => {
      let builds = 0;
      const rename = prepared((db: Db, p: { clientId: string; id: string; name: string }) => {
        builds += 1;
        return db
          .updateTable('hr_organizations')
          .set({ name: p.name })
          .where('client_id', '=', p.clientId)
          .where('id', '=', p.id);
      });
      const changed = async (db: Db, id: string, name: string) =>
        Number((await rename.execute(db, { clientId: 'c2', id, name })).numAffectedRows);
      assert.equal(await changed(database.db, 'b', 'one'), 1);
      for (const [id, name] of [
        ['c', 'two'],
        ['d', 'three'],
      ] as const) {
        assert.equal(await inTransaction(database.db, (trx) => changed(trx, id, name)), 1, `in a transaction: ${id}`);
      }
      assert.equal(await changed(database.db, 'nothing-here', 'x'), 0, 'no row changed');
      assert.equal(builds, 1, 'built once, then only its values swapped in');
      const names = await database.db
        .selectFrom('hr_organizations')
        .select(['id', 'name'])
        .where('client_id', '=', 'c2')
        .where('id', 'in', ['b', 'c', 'd'])
        .orderBy('id')
        .execute();
      assert.deepEqual(names, [
        { id: 'b', name: 'one' },
        { id: 'c', name: 'two' },
        { id: 'd', name: 'three' },
      ]);
    });

    it('a read from outside never runs inside another caller’s open transaction', async () => {
      const { db } = database;
      let inserted!: () => void;
      const insertedYet = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      let finish!: () => void;
      const gate = new Promise<void>((resolve) => {
        finish = resolve;
      });
      // A transaction that writes a row, stays open across awaits, then rolls back.
      const rolledBack = db
        .transaction()
        .execute(async (trx) => {
          await trx
            .insertInto('hr_organizations')
            .values(organizationRow('c1', 'uncommitted', 'u', null, 0))
            .execute();
          inserted();
          await gate;
          throw new Error('roll back');
        })
        .catch((error: Error) => error.message);
      await insertedYet;
      const reading = one.first(db, { clientId: 'c1', id: 'uncommitted' });
      finish();
      assert.equal(await rolledBack, 'roll back', 'the transaction rolled back');
      assert.equal(await reading, undefined, 'the read waited for it, and never saw its uncommitted row');
      assert.deepEqual(
        await byIds.all(db, { clientId: 'c1', ids: ['b', 'uncommitted'] }),
        [{ id: 'b', name: 'c1-b' }],
        'nor does a read afterwards',
      );
    });

    if (dialect === 'postgres') {
      /** The test database through a pool of one connection, so that every query runs on that connection. */
      const oneConnection = () =>
        openDatabase({ dataDir: tdb.env.ATRIUM_DATA_DIR as string, databaseUrl: tdb.env.DATABASE_URL, dbPoolSize: 1 });

      it('on PostgreSQL, runs as a named statement of the connection, which a failed call keeps open', async () => {
        // One connection, so every query below, prepared or not, runs on it.
        const single = oneConnection();
        try {
          const { db } = single;
          const backend = async () =>
            (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]?.pid;
          const named = async () =>
            (
              await sql<{
                name: string;
                statement: string;
              }>`select name, statement from pg_prepared_statements`.execute(db)
            ).rows;
          const pid = await backend();
          assert.deepEqual(await named(), [], 'a fresh connection has no named statement');
          assert.equal((await one.first(db, { clientId: 'c1', id: 'b' }))?.name, 'c1-b');
          const text = db
            .selectFrom('hr_organizations')
            .selectAll()
            .where('client_id', '=', 'x')
            .where('id', '=', 'y')
            .compile().sql;
          const statements = await named();
          assert.equal(statements.length, 1, 'the prepared query is a named statement of the connection');
          assert.match(statements[0]?.name ?? '', /^atrium_[0-9]+$/);
          assert.equal(statements[0]?.statement, text, 'named for its own text');

          const insert = prepared((db: Db, p: { clientId: string; id: string }) =>
            db.insertInto('hr_organizations').values(organizationRow(p.clientId, p.id, 'again', null, 0)),
          );
          await assert.rejects(insert.execute(db, { clientId: 'c1', id: 'b' }), (error: Error & { code?: string }) => {
            assert.equal(error.code, '23505', 'the driver’s own error: a unique violation');
            return true;
          });
          assert.equal(await backend(), pid, 'the failed call gave its connection back, open');
          assert.equal(single.pool?.totalCount, 1);
          assert.equal(
            (await one.first(db, { clientId: 'c2', id: 'a' }))?.name,
            'c2-a',
            'and the next call runs on it',
          );
          assert.equal((await named()).length, 2, 'both statements are still named on it');
          assert.equal(await backend(), pid);
        } finally {
          await single.close();
        }
      });
      it('names at most MAX_NAMED_STATEMENTS texts; later ones run unnamed, and answer', async () => {
        const single = oneConnection();
        try {
          const { db } = single;
          // 6 queries × 200 array lengths: 1,200 texts, more than the process names.
          const queries = Array.from({ length: 6 }, (_, k) =>
            prepared((db: Db, p: { ids: string[] }) =>
              db
                .selectFrom('hr_organizations')
                .select(['id', sql.lit(k).as('k')])
                .where('client_id', '=', 'c1')
                .where('id', 'in', p.ids)
                .orderBy('id'),
            ),
          );
          for (const [k, query] of queries.entries()) {
            for (let length = 1; length <= 200; length++) {
              const ids = ['a', ...Array.from({ length: length - 1 }, (_, i) => `none-${i}`)];
              assert.deepEqual(await query.all(db, { ids }), [{ id: 'a', k }], `query ${k}, ${length} ids`);
            }
          }
          const named = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements`.execute(db);
          const count = named.rows[0]?.n ?? 0;
          assert.ok(count > 900 && count <= MAX_NAMED_STATEMENTS, `${count} named on the connection`);
        } finally {
          await single.close();
        }
      });

      it('runs again unnamed when another process’s migration changed the table a named statement reads', async () => {
        const single = oneConnection();
        const other = oneConnection();
        const everything = prepared((db: Db, p: { clientId: string; id: string }) =>
          db.selectFrom('hr_organizations').selectAll().where('client_id', '=', p.clientId).where('id', '=', p.id),
        );
        try {
          assert.equal((await everything.first(single.db, { clientId: 'c1', id: 'b' }))?.name, 'c1-b');
          await sql`alter table hr_organizations add column atrium_test_added integer`.execute(other.db);
          const row = (await everything.first(single.db, { clientId: 'c1', id: 'b' })) as Record<string, unknown>;
          assert.equal(row.name, 'c1-b', 'answered, not refused');
          assert.ok('atrium_test_added' in row, 'with the new column');
          assert.equal((await everything.first(single.db, { clientId: 'c1', id: 'c' }))?.name, 'c1-c', 'and after');
        } finally {
          await sql`alter table hr_organizations drop column if exists atrium_test_added`.execute(other.db);
          await other.close();
          await single.close();
        }
      });

      it('with ATRIUM_DB_NAMED_STATEMENTS off, runs unnamed, through Kysely', async () => {
        const config = loadConfig({ ...tdb.env, ATRIUM_DB_NAMED_STATEMENTS: '0', ATRIUM_DB_POOL_SIZE: '1' });
        assert.equal(config.dbNamedStatements, false);
        assert.equal(loadConfig(tdb.env).dbNamedStatements, true, 'on by default');
        const unnamed = openDatabase(config);
        try {
          assert.equal((await one.first(unnamed.db, { clientId: 'c1', id: 'b' }))?.name, 'c1-b');
          const statements = await sql`select name from pg_prepared_statements`.execute(unnamed.db);
          assert.deepEqual(statements.rows, [], 'no named statement on its one connection');
        } finally {
          await unnamed.close();
        }
      });
    }

    it('refuses a builder that computes with a placeholder or splices it into SQL', async () => {
      const computed = prepared((db: Db, p: { name: string }) =>
        db.selectFrom('hr_organizations').select('id').where('name', '=', `${p.name}-x`),
      );
      await assert.rejects(computed.all(database.db, { name: 'c1' }), /computed with a placeholder/);
      const spliced = prepared((db: Db, p: { column: string }) =>
        db.selectFrom('hr_organizations').select(sql.ref(p.column).as('x')),
      );
      await assert.rejects(spliced.all(database.db, { column: 'id' }), /placeholder into its SQL text/);
    });
  });
}
