/**
 * Keyset pages (src/platform/db/keyset.ts) as SQLite runs them: the page size is written into the SQL. Given
 * `limit ?`, SQLite plans for any number of rows; measured on the bench's 100k requests, the literal made a page
 * of 20 cost 19–22% less server CPU (docs/PERFORMANCE.md, "Literal page sizes").
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CompiledQuery, Kysely, SqliteDialect } from 'kysely';
import { Sqlite } from '../../src/platform/db/database.js';
import { keysetPage } from '../../src/platform/db/keyset.js';

interface Db {
  items: { pk: number; name: string };
}

describe('keyset pages', () => {
  it('write the page size into the SQL as a literal, not a parameter, on every page', async () => {
    const seen: CompiledQuery[] = [];
    const sqlite = new Sqlite(':memory:');
    const db = new Kysely<Db>({
      dialect: new SqliteDialect({ database: sqlite }),
      log: (event) => {
        seen.push(event.query);
      },
    });
    try {
      await db.schema
        .createTable('items')
        .addColumn('pk', 'integer', (c) => c.primaryKey())
        .addColumn('name', 'text')
        .execute();
      await db
        .insertInto('items')
        .values(Array.from({ length: 50 }, (_, i) => ({ pk: i + 1, name: `n${i + 1}` })))
        .execute();
      seen.length = 0;
      const order = [{ column: 'pk', direction: 'asc' as const }];
      const base = db.selectFrom('items').selectAll();
      const first = await keysetPage(base, order, (row) => [row.pk], 20);
      assert.deepEqual(
        first.items.map((r) => r.pk),
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
      const second = await keysetPage(base, order, (row) => [row.pk], 20, {
        direction: 'after',
        keys: [20],
        inclusive: false,
      });
      assert.deepEqual(
        second.items.map((r) => r.pk),
        Array.from({ length: 20 }, (_, i) => i + 21),
      );
      const pages = seen.filter((q) => /^select\b/i.test(q.sql) && /\blimit\b/i.test(q.sql));
      assert.equal(pages.length, 2, 'one statement a page');
      for (const query of pages) {
        assert.match(query.sql, /\blimit 21$/, `the page size plus one, as a literal: ${query.sql}`);
        assert.ok(!query.parameters.includes(21), 'and not among the parameters');
      }
    } finally {
      await db.destroy();
    }
  });
});
