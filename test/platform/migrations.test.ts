/**
 * Migrations from an empty database and from the previous release's schema (every migration up to
 * 0006_documents), on both dialects: rows written under the old schema survive, and the new tables work.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import pino from 'pino';
import { type App, buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/platform/config.js';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { migrateTo, migrateToLatest, migrationNames } from '../../src/platform/db/migrate.js';
import { dialects, freshDatabase, organizationRow, type TestDatabase } from '../support/harness.js';
import { json } from '../support/people-assist.js';

const PREVIOUS_RELEASE = '0006_documents';

function open(db: TestDatabase): Database {
  return openDatabase({ dataDir: db.env.ATRIUM_DATA_DIR as string, databaseUrl: db.env.DATABASE_URL, dbPoolSize: 4 });
}

for (const dialect of dialects()) {
  describe(`migrations (${dialect})`, () => {
    it('an empty database gets every migration once, in order', async () => {
      const tdb = await freshDatabase(dialect);
      const database = open(tdb);
      try {
        assert.deepEqual(await migrateToLatest(database), migrationNames);
        assert.deepEqual(await migrateToLatest(database), []);
      } finally {
        await database.close();
        await tdb.drop();
      }
    });

    it('0022_bulk_counts gives the bulk calls stored before it their counts, from their items', async () => {
      const tdb = await freshDatabase(dialect);
      const database = open(tdb);
      try {
        await migrateTo(database, '0021_imports');
        const db = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
        await db.insertInto('hr_clients').values({ id: 'c1', name: 'C1', created_at: 1 }).execute();
        const operation = (id: string) => ({
          client_id: 'c1',
          id,
          resource: 'employees',
          action: 'replace',
          status: 'in_progress',
          total: 6,
          caller: '{}',
          job_id: null,
          created_at: 1,
          started_at: 1,
          finished_at: null,
        });
        await db
          .insertInto('hr_bulk_operations')
          .values([operation('op-1'), operation('op-2')])
          .execute();
        const item = (operationId: string, index: number, status: string, outcome: string | null) => ({
          client_id: 'c1',
          operation_id: operationId,
          item_index: index,
          input: '{}',
          status,
          outcome,
          message: null,
          result: null,
          resource_id: null,
          settled_at: status === 'pending' ? null : 1,
        });
        await db
          .insertInto('hr_bulk_items')
          .values([
            item('op-1', 0, 'success', 'created'),
            item('op-1', 1, 'success', 'created'),
            item('op-1', 2, 'success', 'updated'),
            item('op-1', 3, 'failed', 'failed'),
            item('op-1', 4, 'pending', null),
            item('op-1', 5, 'pending', null),
            item('op-2', 0, 'failed', 'failed'),
          ])
          .execute();
        await migrateToLatest(database);
        const rows = await db
          .selectFrom('hr_bulk_operations')
          .select(['id', 'created_count', 'updated_count', 'failed_count'])
          .orderBy('id')
          .execute();
        assert.deepEqual(
          rows.map((r) => ({
            ...r,
            created_count: Number(r.created_count),
            updated_count: Number(r.updated_count),
            failed_count: Number(r.failed_count),
          })),
          [
            { id: 'op-1', created_count: 2, updated_count: 1, failed_count: 1 },
            { id: 'op-2', created_count: 0, updated_count: 0, failed_count: 1 },
          ],
        );
      } finally {
        await database.close();
        await tdb.drop();
      }
    });

    describe('from the previous release', () => {
      let tdb: TestDatabase;
      let app: App;
      let url: string;
      const secret = `secret-${randomUUID()}`;
      const at = Date.UTC(2025, 0, 15);

      before(async () => {
        tdb = await freshDatabase(dialect);
        const old = open(tdb);
        try {
          const applied = await migrateTo(old, PREVIOUS_RELEASE);
          assert.deepEqual(applied, migrationNames.slice(0, migrationNames.indexOf(PREVIOUS_RELEASE) + 1));
          // Rows as the previous release wrote them.
          const db = old.db;
          await db.insertInto('hr_clients').values({ id: 'old-client', name: 'Old client', created_at: at }).execute();
          await db
            .insertInto('hr_applications')
            .values({
              id: 'old-app',
              client_id: 'old-client',
              name: 'Old app',
              secret_hash: createHash('sha256').update(secret).digest('hex'),
              read_only: 0,
              revoked_at: null,
              created_at: at,
            })
            .execute();
          const org = (id: string, name: string, parent: string | null) =>
            organizationRow('old-client', id, name, parent, at);
          await db
            .insertInto('hr_organizations')
            .values([org('hq', 'Head office', null), org('paris', 'Paris', 'hq')])
            .execute();
          // A folder as the previous release labelled them (`en`, `fr`); 0040 rewrites the codes.
          await db
            .insertInto('hr_folders' as never)
            .values({
              client_id: 'old-client',
              kind: 'employee',
              id: 'payroll',
              parent_folder_id: null,
              label: 'Payroll',
              localized_labels: JSON.stringify([
                { language_code: 'en', value: 'Payroll' },
                { language_code: 'fr', value: 'Paie' },
              ]),
              created_at: at,
            } as never)
            .execute();
        } finally {
          await old.close();
        }
        const config = loadConfig({ ...tdb.env, DATABASE_URL: tdb.env.DATABASE_URL ?? '' });
        app = await buildApp(config, { logger: pino({ level: 'silent' }), database: open(tdb) });
        url = await app.server.listen({ port: 0, host: '127.0.0.1' });
      });
      after(async () => {
        await app?.close();
        await tdb?.drop();
      });

      const token = async () => {
        const res = await fetch(`${url}/api/v2/client/tokens`, {
          method: 'POST',
          headers: {
            authorization: `Basic ${Buffer.from(`old-app:${secret}`).toString('base64')}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: 'grant_type=client_credentials&scope=client&client_id=old-client',
        });
        return (await json<{ access_token: string }>(res, 200)).access_token;
      };
      const call = (t: string, method: string, p: string, body?: unknown) =>
        fetch(`${url}/api/v2/client${p}`, {
          method,
          headers: {
            authorization: `Bearer ${t}`,
            accept: 'application/json',
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });

      it('the rows of the old schema are intact and served', async () => {
        const rows = await app.database.db
          .selectFrom('kysely_migration' as never)
          .select('name' as never)
          .execute();
        assert.deepEqual(
          rows.map((r) => (r as { name: string }).name),
          migrationNames,
          'the rest of the migrations were applied on start',
        );
        const t = await token();
        const orgs = await json<{ id: string; name: string; parent_organization_id: string | null }[]>(
          await call(t, 'GET', '/organizations'),
          200,
        );
        assert.deepEqual(
          orgs.map((o) => [o.id, o.name, o.parent_organization_id]),
          [
            ['hq', 'Head office', null],
            ['paris', 'Paris', 'hq'],
          ],
        );
        const found = await json<{ id: string }[]>(await call(t, 'GET', '/organizations?q=HEAD'), 200);
        assert.deepEqual(
          found.map((o) => o.id),
          ['hq'],
          'search over migrated rows',
        );
        const folder = await app.database.db
          .selectFrom('hr_folders')
          .select('localized_labels')
          .where('id', '=', 'payroll')
          .where('client_id', '=', 'old-client') // tenant-by-hand: the test reads the migrated row itself
          .executeTakeFirstOrThrow();
        assert.deepEqual(JSON.parse(folder.localized_labels), [
          { language_code: 'en-us', value: 'Payroll' },
          { language_code: 'fr-fr', value: 'Paie' },
        ]);
      });

      it('the tables of the newer migrations work next to them', async () => {
        const t = await token();
        const category = randomUUID();
        await json(
          await call(t, 'PUT', `/kb_categories/${category}`, {
            localized_name: [{ language_code: 'en-us', value: 'Migrated' }],
          }),
          200,
        );
        await json(
          await call(t, 'PUT', '/request_forms/question', {
            name: 'Question',
            category_id: category,
            employee_organization_mandatory: false,
            formidable: { fields: [{ slug: 'subject', label: 'Subject', type_id: 'text', required: true }] },
          }),
          200,
        );
        const request = await json<{ request_number: string | number; organization_ids: string[] }>(
          await call(t, 'POST', '/requests', {
            form_id: 'question',
            organization_ids: ['paris'],
            form_data: [{ field_id: 'subject', values: ['After the upgrade'] }],
          }),
          201,
        );
        assert.equal(Number(request.request_number), 1);
      });
    });
  });
}
