/**
 * A hot list's pages as prepared queries (`PreparedPages`, src/platform/db/listing.ts), on both dialects: every
 * page, in every sort, at every position (forward and back, inclusive or not) and by row offset, is the page that
 * `listPage` reads from the same query built afresh; calls of one shape with other values (another tenant, other
 * filter values, other array lengths) each get their own rows; and each shape is built once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Database, type Db, openDatabase } from '../../src/platform/db/database.js';
import type { KeysetPosition, Page } from '../../src/platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest, PreparedPages } from '../../src/platform/db/listing.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import type { Tables } from '../../src/platform/db/schema.js';
import { Tenant } from '../../src/platform/db/tenant.js';
import { dialects, freshDatabase, organizationRow, type TestDatabase } from '../support/harness.js';

type Field = 'name' | 'created_at';
const ORDER: ListOrder<Field> = { fields: { name: 'o.name', created_at: 'o.created_at' }, tiebreak: 'o.pk' };

interface Params {
  [name: string]: unknown;
  clientId: string;
  parent?: string;
  ids?: string[];
  since?: number;
}
type Row = { id: string; name: string; created_at: number; pk: number };

let builds = 0;
/** The organizations of a client, filtered by what `p` holds (the shape: which of parent, ids and since). */
function organizations(db: Db, p: Params) {
  builds++;
  let q = new Tenant<Tables>(db, p.clientId)
    .selectFrom('hr_organizations as o')
    .select(['o.id', 'o.name', 'o.created_at', 'o.pk']);
  if (p.parent !== undefined) q = q.where('o.parent_organization_id', '=', p.parent);
  if (p.ids !== undefined) q = q.where('o.id', 'in', p.ids);
  if (p.since !== undefined) q = q.where('o.created_at', '>=', p.since);
  return q;
}
const shapeOf = (p: Params) =>
  ['parent', 'ids', 'since'].filter((k) => (p as Record<string, unknown>)[k] !== undefined).join(' ');

for (const dialect of dialects()) {
  describe(`prepared list pages (${dialect})`, () => {
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
        await db
          .insertInto('hr_organizations')
          .values(organizationRow(client, 'root', `${client} root`, null, 0))
          .execute();
        for (let i = 0; i < 23; i++) {
          // Names repeat (so the tiebreak orders them) and instants repeat in threes.
          const row = organizationRow(
            client,
            `o${i}`,
            `${client} name ${i % 7}`,
            i % 2 ? 'root' : null,
            Math.floor(i / 3),
          );
          await db.insertInto('hr_organizations').values(row).execute();
        }
      }
    });
    after(async () => {
      await database?.close();
      await tdb?.drop();
    });

    const ids = (page: Page<Row>) => page.items.map((r) => r.id);

    it('reads every page as listPage does, of each call’s own values, each shape built once', async () => {
      const { db } = database;
      const pages = new PreparedPages<Field, Params, Row>(ORDER);
      const read = (p: Params, request: PageRequest<Field>) => pages.page(db, shapeOf(p), organizations, p, request);
      const fresh = (p: Params, request: PageRequest<Field>) => listPage(organizations(db, p), ORDER, request);
      const filters: Params[] = [
        { clientId: 'c1' },
        { clientId: 'c2' },
        { clientId: 'c1', parent: 'root' },
        { clientId: 'c2', ids: ['o1', 'o4', 'o9', 'o10', 'o22'] },
        { clientId: 'c1', ids: ['o3', 'o5'] },
        { clientId: 'c1', since: 4 },
        { clientId: 'c2', parent: 'root', since: 2 },
        { clientId: 'c3' },
      ];
      const sorts: PageRequest<Field>['sort'][] = [
        [],
        [{ field: 'name', direction: 'asc' }],
        [
          { field: 'created_at', direction: 'desc' },
          { field: 'name', direction: 'asc' },
        ],
      ];
      let calls = 0;
      for (const filter of filters) {
        for (const sort of sorts) {
          for (const limit of [4, 10]) {
            // Every page forward, then back from the end, by the cursors each page gives.
            let at: { position?: KeysetPosition; offset?: number } = {};
            const forward: string[][] = [];
            for (let n = 0; n < 10; n++) {
              const request = { limit, sort, at };
              const page = await read(filter, request);
              calls++;
              const expected = await fresh(filter, request);
              assert.deepEqual(page, expected, `${JSON.stringify(filter)} ${JSON.stringify(request)}`);
              forward.push(ids(page));
              if (!page.next) {
                if (page.previous) {
                  const back = await read(filter, { limit, sort, at: { position: page.previous } });
                  assert.deepEqual(back, await fresh(filter, { limit, sort, at: { position: page.previous } }));
                  assert.deepEqual(ids(back), forward.at(-2), 'the previous page is the one before');
                }
                break;
              }
              at = { position: page.next };
            }
            // Inclusive positions both ways, at a row of the first page.
            const row = (await fresh(filter, { limit, sort, at: {} })).items[1];
            if (row) {
              const keys = [...sort.map((k) => row[k.field]), row.pk];
              for (const direction of ['after', 'before'] as const) {
                const request = { limit, sort, at: { position: { keys, direction, inclusive: true } } };
                assert.deepEqual(await read(filter, request), await fresh(filter, request), `inclusive, ${direction}`);
              }
            }
            for (const offset of [2, 7, 40]) {
              const request = { limit, sort, at: { offset } };
              assert.deepEqual(await read(filter, request), await fresh(filter, request), `offset ${offset}`);
            }
          }
        }
      }
      assert.ok(calls > 100);
      // A client's page holds only its own rows, whichever client's call compiled the shape first.
      const c1 = await read({ clientId: 'c1' }, { limit: 50, sort: [], at: {} });
      const c2 = await read({ clientId: 'c2' }, { limit: 50, sort: [], at: {} });
      assert.equal(c1.items.length, 24);
      assert.equal(c2.items.length, 24);
      assert.ok(c1.items.every((r) => r.name.startsWith('c1 ')) && c2.items.every((r) => r.name.startsWith('c2 ')));

      // Each shape is built once: another call of a shape already read builds nothing, whatever its values.
      const before = builds;
      await read({ clientId: 'c2', parent: 'root' }, { limit: 4, sort: [{ field: 'name', direction: 'asc' }], at: {} });
      await read({ clientId: 'c2', ids: ['o1', 'o2'] }, { limit: 10, sort: [], at: {} });
      assert.equal(builds, before, 'built once per shape');
    });

    it('refuses a cursor of another sort as unknown', async () => {
      const pages = new PreparedPages<Field, Params, Row>(ORDER);
      const p = { clientId: 'c1' };
      await assert.rejects(
        pages.page(database.db, '', organizations, p, {
          limit: 5,
          sort: [{ field: 'name', direction: 'asc' }],
          at: { position: { keys: [1], direction: 'after', inclusive: false } },
        }),
        /unknown cursor/,
      );
    });
  });
}
