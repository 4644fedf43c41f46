import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { AdminClient } from '@atrium/client';
import { sql } from 'kysely';
import { NOT_TENANT_DATA, planFor, readSchema } from '../../src/admin/snapshots/catalogue.js';
import { sqlitePath } from '../../src/platform/db/database.js';
import { hrTenantId } from '../../src/platform/db/tenant.js';
import { type AcademyCaller, academyCaller } from '../support/academy.js';
import { adminCaller, expectJson } from '../support/admin.js';
import {
  dialects,
  getToken,
  type HrCaller,
  hrCaller,
  requestToken,
  startServer,
  type TestServer,
} from '../support/harness.js';
import { fullAcademyTenant, fullHrTenant, type HrTenant, uploadFile } from '../support/tenants.js';

interface Snapshot {
  name: string;
  tenant: string;
  rows_count: number;
  files_count: number;
  tables?: Record<string, number>;
}
interface Replaced {
  snapshot: string | null;
  credentials: string;
  deleted_rows: number;
  restored_rows: number;
  deleted_files: number;
}

type Dump = Record<string, string[]>;

const PDF = (seed: Buffer) => Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'), seed]);

for (const dialect of dialects()) {
  describe(`admin API: snapshots (${dialect})`, () => {
    let server: TestServer;
    let token: string;
    let a: HrTenant;
    let b: HrTenant;
    let academy: AcademyCaller;
    let otherAcademy: AcademyCaller;

    const admin = adminCaller(
      () => server,
      () => token,
    );
    const json = expectJson;
    const hrPath = (caller: HrCaller) => `/tenants/hr/${caller.creds.client_id}`;
    const ok = async <T>(res: Response): Promise<T> => {
      const text = await res.text();
      assert.ok(res.status >= 200 && res.status < 300, `${res.status} ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    };

    /** Tables holding a column of this name, read from the schema (not from the code under test). */
    async function tablesWith(column: string): Promise<string[]> {
      const db = server.app.database.db;
      const { rows } =
        dialect === 'postgres'
          ? await sql<{ name: string }>`select table_name as name from information_schema.columns
              where table_schema = current_schema() and column_name = ${column}`.execute(db)
          : await sql<{ name: string }>`select m.name from sqlite_master m join pragma_table_info(m.name) p
              where m.type = 'table' and p.name = ${column}`.execute(db);
      return rows.map((r) => r.name).sort();
    }

    /** Every row of the tenant, by table (its own row included), each table's rows as sorted JSON lines. */
    async function dump(kind: 'hr' | 'academy', id: string | number): Promise<Dump> {
      const db = server.app.database.db;
      const queries: [string, ReturnType<typeof sql>][] = [];
      if (kind === 'hr') {
        queries.push(['hr_clients', sql`select * from hr_clients where id = ${id}`]);
        for (const t of await tablesWith('client_id')) {
          queries.push([t, sql`select * from ${sql.table(t)} where client_id = ${id}`]);
        }
        queries.push([
          'pa_kb_article_fts',
          dialect === 'postgres'
            ? sql`select * from pa_kb_article_fts where article_pk in (select pk from pa_kb_articles where client_id = ${id})`
            : sql`select rowid, * from pa_kb_article_fts where rowid in (select pk from pa_kb_articles where client_id = ${id})`,
        ]);
      } else {
        queries.push(['academies', sql`select * from academies where id = ${id}`]);
        for (const t of await tablesWith('academy_id')) {
          queries.push([t, sql`select * from ${sql.table(t)} where academy_id = ${id}`]);
        }
        for (const t of ['academy_event_instructors', 'academy_registrations']) {
          queries.push([
            t,
            sql`select * from ${sql.table(t)} where event_id in (select id from academy_events where academy_id = ${id})`,
          ]);
        }
      }
      const out: Dump = {};
      for (const [table, query] of queries) {
        const { rows } = await query.execute(db);
        out[table] = rows.map((r) => JSON.stringify(r)).sort();
      }
      return out;
    }

    /** The SHA-256 of the bytes read back of each file the tenant's rows refer to. */
    async function files(clientId: string): Promise<Map<string, string>> {
      const db = server.app.database.db;
      const { rows } = await sql<{ sha256: string }>`
        select sha256 from hr_documents where client_id = ${clientId}
        union select sha256 from pa_request_files where client_id = ${clientId}
        union select sha256 from hr_task_files where client_id = ${clientId}
        union select sha256 from hr_task_templates where client_id = ${clientId} and sha256 is not null
        union select sha256 from hr_pdf_templates where client_id = ${clientId}
        union select sha256 from hr_dataset_imports where client_id = ${clientId}
        union select sha256 from hr_imports where client_id = ${clientId}
        union select sha256 from hr_distributions where client_id = ${clientId}
        union select sha256 from hr_distribution_items where client_id = ${clientId} and sha256 is not null
        union select sha256 from hr_docgen_template_versions where client_id = ${clientId}
        union select pdf_sha256 from hr_docgen_template_versions where client_id = ${clientId} and pdf_sha256 is not null
        union select sha256 from hr_docgen_generations where client_id = ${clientId} and sha256 is not null
        union select pdf_sha256 from hr_docgen_generations where client_id = ${clientId} and pdf_sha256 is not null
        union select sha256 from hr_docgen_campaigns where client_id = ${clientId} and sha256 is not null
        union select sha256 from hr_docgen_campaign_rows where client_id = ${clientId} and sha256 is not null
        union select sha256 from hr_kb_article_resources where client_id = ${clientId}
        union select sha256 from hr_kb_article_documents where client_id = ${clientId}`.execute(db);
      const out = new Map<string, string>();
      for (const { sha256 } of rows) {
        const hash = createHash('sha256');
        for await (const chunk of await server.app.services.blobs.read(sha256)) hash.update(chunk as Buffer);
        out.set(sha256, hash.digest('hex'));
      }
      return out;
    }

    const count = (d: Dump) => Object.values(d).reduce((n, rows) => n + rows.length, 0);

    before(async () => {
      server = await startServer(dialect);
      token = (await server.app.services.adminTokens.create('snapshots', 'cli')).token;
      a = await fullHrTenant(server);
      b = await fullHrTenant(server);
      academy = (await fullAcademyTenant(server)).caller;
      otherAcademy = await academyCaller(server);
    });
    after(() => server.close());

    it('covers every tenant table the schema has, and classifies every other table', async () => {
      const schema = await readSchema(server.app.database.db, dialect);
      const hr = planFor('hr', schema);
      const acad = planFor('academy', schema);
      const hrDump = Object.keys(await dump('hr', a.caller.creds.client_id)).sort();
      const acadDump = Object.keys(await dump('academy', academy.acadId)).sort();
      assert.deepEqual([hr.tenantRow.table, ...hr.tables.map((t) => t.name)].sort(), hrDump);
      assert.deepEqual([acad.tenantRow.table, ...acad.tables.map((t) => t.name)].sort(), acadDump);
      // A table that is neither a tenant's nor declared as holding no tenant data fails here: say which it is.
      const classified = new Set([...hrDump, ...acadDump, ...NOT_TENANT_DATA]);
      const unclassified = [...schema.keys()].filter((t) => !classified.has(t));
      assert.deepEqual(unclassified, []);
      assert.deepEqual(
        hr.tables.filter((t) => t.credentials).map((t) => t.name),
        ['hr_applications'],
      );
      assert.deepEqual(
        acad.tables.filter((t) => t.credentials).map((t) => t.name),
        ['academy_api_keys'],
      );
    });

    it('restores an HR tenant byte for byte, rows and files (a file shared with another tenant too); others untouched', async () => {
      // The same bytes in both tenants: one blob, two documents.
      const shared = PDF(randomBytes(900));
      const docOf = async (t: HrTenant) =>
        ok<{ id: string }>(
          await t.caller.call('POST', '/company_documents', {
            document_type_id: 'handbook',
            title: 'Shared',
            organization_ids: ['paris'],
            uploaded_file: {
              file_id: await uploadFile(server, t.caller, shared, 'shared.pdf'),
              filename: 'shared.pdf',
            },
          }),
        );
      const docA = await docOf(a);
      const docB = await docOf(b);
      const tenant = hrPath(a.caller);
      const before = await dump('hr', a.caller.creds.client_id);
      const beforeFiles = await files(a.caller.creds.client_id);
      const otherBefore = await dump('hr', b.caller.creds.client_id);
      const academyBefore = await dump('academy', academy.acadId);
      assert.ok(beforeFiles.size >= 5, `files: ${beforeFiles.size}`);

      const saved = await json<Snapshot>(await admin('POST', `${tenant}/snapshots`, { name: 'baseline' }), 201);
      assert.equal(saved.name, 'baseline');
      assert.equal(saved.rows_count, count(before));
      assert.equal(saved.files_count, beforeFiles.size);
      assert.equal(saved.tables?.hr_documents, before.hr_documents?.length);

      // Change, add and delete things, the shared document in both tenants (its blob is then kept by the
      // snapshot only).
      await ok(await a.caller.call('PUT', '/organizations/hq', { name: 'HQ renamed' }));
      await ok(await a.caller.call('PUT', '/organizations/lyon2', { name: 'Lyon 2', parent_organization_id: 'hq' }));
      await ok(await a.caller.call('DELETE', `/company_documents/${docA.id}`));
      await ok(await b.caller.call('DELETE', `/company_documents/${docB.id}`));
      const extra = await a.caller.call('POST', '/company_documents', {
        document_type_id: 'handbook',
        title: 'Added after',
        organization_ids: ['paris'],
        uploaded_file: {
          file_id: await uploadFile(server, a.caller, PDF(randomBytes(700)), 'new.pdf'),
          filename: 'new.pdf',
        },
      });
      await ok(extra);
      for (const id of a.ids['/employees'] ?? []) await a.caller.call('DELETE', `/employees/${id}`);
      // An organization deleted and made again under the same id: a new key, its group membership unchanged.
      await server.app.database.db
        .updateTable('hr_organizations')
        .set((eb) => ({ pk: eb('pk', '+', 1_000_000) }))
        .where('client_id', '=', a.caller.creds.client_id)
        .where('id', '=', 'paris')
        .execute();
      assert.notDeepEqual(await dump('hr', a.caller.creds.client_id), before);
      const otherChanged = await dump('hr', b.caller.creds.client_id);

      const restored = await json<Replaced>(await admin('POST', `${tenant}/snapshots/baseline/restore`), 200);
      assert.equal(restored.snapshot, 'baseline');
      assert.equal(restored.credentials, 'keep');
      assert.ok(restored.deleted_files >= 1, 'the file added after the snapshot is deleted');
      assert.deepEqual(await dump('hr', a.caller.creds.client_id), before);
      assert.deepEqual(await files(a.caller.creds.client_id), beforeFiles);
      for (const [sha, read] of beforeFiles) assert.equal(read, sha);
      // Over HTTP too: the shared document's bytes.
      const download = await a.caller.call('GET', `/company_documents/${docA.id}/file`);
      assert.equal(download.status, 200);
      assert.deepEqual(Buffer.from(await download.arrayBuffer()), shared);
      // The other tenants are as they were just before the restore.
      assert.deepEqual(await dump('hr', b.caller.creds.client_id), otherChanged);
      assert.notDeepEqual(otherChanged, otherBefore);
      assert.deepEqual(await dump('academy', academy.acadId), academyBefore);
      // Restoring twice changes nothing.
      await json<Replaced>(await admin('POST', `${tenant}/snapshots/baseline/restore`, {}), 200);
      assert.deepEqual(await dump('hr', a.caller.creds.client_id), before);

      // Deleting the snapshot lets go of the shared file (no row refers to it but A's document, restored).
      await json(await admin('DELETE', `${tenant}/snapshots/baseline`), 204);
      assert.deepEqual(await files(a.caller.creds.client_id), beforeFiles);
      const listed = await json<{ snapshots: Snapshot[] }>(await admin('GET', `${tenant}/snapshots`), 200);
      assert.deepEqual(listed.snapshots, []);
      const audit = await server.app.services.adminAudit.list(10);
      const actions = audit.filter((e) => e.target === `hr:${a.caller.creds.client_id}`).map((e) => e.action);
      assert.deepEqual(actions.slice(0, 4), [
        'tenant.snapshot_deleted',
        'tenant.snapshot_restored',
        'tenant.snapshot_restored',
        'tenant.snapshot_created',
      ]);
    });

    it('restores an academy byte for byte, its event children included; other academies untouched', async () => {
      const tenant = `/tenants/academy/${academy.acadId}`;
      const before = await dump('academy', academy.acadId);
      assert.ok((before.academy_registrations?.length ?? 0) > 0);
      const otherBefore = await dump('academy', otherAcademy.acadId);
      await json(await admin('POST', `${tenant}/snapshots`, { name: 'a.1' }), 201);
      const events = before.academy_events?.map((r) => JSON.parse(r) as { id: number; kind: string }) ?? [];
      for (const e of events) await academy.call('DELETE', `/events/${e.kind}/${e.id}`);
      await server.app.database.db.deleteFrom('academy_users').where('academy_id', '=', academy.acadId).execute();
      assert.notDeepEqual(await dump('academy', academy.acadId), before);
      await json(await admin('POST', `${tenant}/snapshots/a.1/restore`, { credentials: 'keep' }), 200);
      assert.deepEqual(await dump('academy', academy.acadId), before);
      assert.deepEqual(await dump('academy', otherAcademy.acadId), otherBefore);
      assert.equal((await academy.call('GET', '/users')).status, 200, 'its key still works');
    });

    it('keeps the credentials across a restore, or restores them when asked', async () => {
      const c = await hrCaller(server);
      const tenant = hrPath(c);
      await json(await admin('POST', `${tenant}/snapshots`, { name: 'creds' }), 201);
      const later = await server.app.services.tenants.createApplication(
        hrTenantId(c.creds.client_id),
        'later app',
        false,
      );
      const laterToken = await getToken(server, later);
      await json(await admin('POST', `${tenant}/snapshots/creds/restore`), 200);
      assert.equal((await c.call('GET', '/organizations')).status, 200, 'the old token still works');
      assert.equal((await requestToken(server, later)).status, 200, 'the application added later is kept');
      const apps = async () => (await dump('hr', c.creds.client_id)).hr_applications?.length;
      assert.equal(await apps(), 2);
      const withCreds = await json<Replaced>(
        await admin('POST', `${tenant}/snapshots/creds/restore`, { credentials: 'restore' }),
        200,
      );
      assert.equal(withCreds.credentials, 'restore');
      assert.equal(await apps(), 1);
      assert.equal((await requestToken(server, later)).status, 401, 'the application added later is gone');
      const refused = await fetch(`${server.url}/api/v2/client/organizations`, {
        headers: { authorization: `Bearer ${laterToken}` },
      });
      assert.equal(refused.status, 401, 'its token with it');
      assert.equal((await requestToken(server, c.creds)).status, 200, 'the saved application works');
    });

    it('resets a tenant to empty, keeping its credentials, its own row and its snapshots', async () => {
      const c = await fullHrTenant(server);
      const tenant = hrPath(c.caller);
      await json(await admin('POST', `${tenant}/snapshots`, { name: 'full' }), 201);
      const full = await dump('hr', c.caller.creds.client_id);
      const reset = await json<Replaced>(await admin('POST', `${tenant}/reset`), 200);
      assert.equal(reset.snapshot, null);
      const empty = await dump('hr', c.caller.creds.client_id);
      for (const [table, rows] of Object.entries(empty)) {
        if (table === 'hr_clients' || table === 'hr_applications') assert.deepEqual(rows, full[table], table);
        else assert.deepEqual(rows, [], table);
      }
      assert.deepEqual(await ok<unknown[]>(await c.caller.call('GET', '/organizations')), []);
      await json(await admin('POST', `${tenant}/snapshots/full/restore`), 200);
      assert.deepEqual(await dump('hr', c.caller.creds.client_id), full);
      const acad = await academyCaller(server);
      await json(await admin('POST', `/tenants/academy/${acad.acadId}/reset`), 200);
      assert.deepEqual((await dump('academy', acad.acadId)).academy_users, []);
      assert.equal((await acad.call('GET', '/users')).status, 200, 'its key still works');
    });

    it('a reader concurrent with restores sees one snapshot or the other, never a mix', async () => {
      const c = await hrCaller(server);
      const tenant = hrPath(c);
      for (let i = 0; i < 3; i++) await ok(await c.call('PUT', `/organizations/small-${i}`, { name: 'small' }));
      await json(await admin('POST', `${tenant}/snapshots`, { name: 'small' }), 201);
      await json(await admin('POST', `${tenant}/reset`), 200);
      for (let i = 0; i < 40; i++) await ok(await c.call('PUT', `/organizations/big-${i}`, { name: 'big' }));
      await json(await admin('POST', `${tenant}/snapshots`, { name: 'big' }), 201);
      let restoring = true;
      const seen = new Set<string>();
      const check = (state: string) => {
        assert.ok(state === 'small:3' || state === 'big:40', `a mix: ${state}`);
        seen.add(state);
      };
      // Over HTTP, a list of the organizations: all of one snapshot.
      const reader = (async () => {
        while (restoring) {
          const list = await ok<{ name: string }[]>(await c.call('GET', '/organizations?per_page=100'));
          check(`${[...new Set(list.map((o) => o.name))].join(',')}:${list.length}`);
        }
      })();
      // In the database, from another connection reading as fast as it can: on SQLite a thread of its own (this
      // process's event loop cannot run between two statements of the restore), on PostgreSQL the pool.
      const states = new Set<string>();
      const stop = new Int32Array(new SharedArrayBuffer(4));
      const query =
        'select count(*) as n, count(distinct name) as names, min(name) as name from hr_organizations where client_id = ?';
      const direct =
        dialect === 'sqlite'
          ? new Promise<string[]>((resolve, reject) => {
              const worker = new Worker(
                `const { parentPort, workerData } = require('node:worker_threads');
                 const Sqlite = require('better-sqlite3');
                 const db = new Sqlite(workerData.file, { readonly: true });
                 db.pragma('busy_timeout = 5000');
                 const read = db.prepare(workerData.query);
                 const states = new Set();
                 while (Atomics.load(workerData.stop, 0) === 0) {
                   const r = read.get(workerData.client);
                   states.add(r.names > 1 ? 'mixed:' + r.n : (r.name ?? '') + ':' + r.n);
                 }
                 db.close();
                 parentPort.postMessage([...states]);`,
                {
                  eval: true,
                  workerData: { file: sqlitePath(server.config.dataDir), query, stop, client: c.creds.client_id },
                },
              );
              worker.once('message', resolve);
              worker.once('error', reject);
            })
          : (async () => {
              const out = new Set<string>();
              while (restoring) {
                const { rows } = await sql<{ n: number; names: number; name: string | null }>`
                  select count(*) as n, count(distinct name) as names, min(name) as name from hr_organizations
                  where client_id = ${c.creds.client_id}`.execute(server.app.database.db);
                const r = rows[0] as { n: number; names: number; name: string | null };
                out.add(r.names > 1 ? `mixed:${r.n}` : `${r.name ?? ''}:${r.n}`);
              }
              return [...out];
            })();
      try {
        for (let i = 0; i < 12; i++) {
          await json(await admin('POST', `${tenant}/snapshots/${i % 2 ? 'big' : 'small'}/restore`), 200);
        }
      } finally {
        restoring = false;
        Atomics.store(stop, 0, 1);
      }
      const [http, db] = await Promise.allSettled([reader, direct]);
      if (http.status === 'rejected') throw http.reason;
      if (db.status === 'rejected') throw db.reason;
      for (const state of db.value) states.add(state);
      assert.deepEqual([...seen].sort(), ['big:40', 'small:3'], 'the reader saw both states');
      for (const state of states) check(state);
    });

    it('answers 401, 404, 409 and 422 as documented', async () => {
      const tenant = hrPath(b.caller);
      const err = async (res: Response, status: number, code: string) => {
        const body = await json<{ code: string }>(res, status);
        assert.equal(body.code, code);
      };
      await err(await admin('GET', `${tenant}/snapshots`, undefined, null), 401, 'invalid_token');
      await err(await admin('POST', `${tenant}/snapshots`, { name: 'x' }, null), 401, 'invalid_token');
      await err(await admin('POST', `${tenant}/reset`, undefined, b.caller.token), 401, 'invalid_token');
      await err(await admin('GET', '/tenants/hr/no-such-client/snapshots'), 404, 'not_found');
      await err(await admin('POST', '/tenants/hr/no-such-client/snapshots', { name: 'x' }), 404, 'not_found');
      await err(await admin('POST', '/tenants/academy/999999/reset'), 404, 'not_found');
      await err(await admin('POST', '/tenants/hr/no-such-client/snapshots/x/restore'), 404, 'not_found');
      await err(await admin('GET', `${tenant}/snapshots/missing`), 404, 'not_found');
      await err(await admin('DELETE', `${tenant}/snapshots/missing`), 404, 'not_found');
      await err(await admin('POST', `${tenant}/snapshots/missing/restore`), 404, 'not_found');
      for (const name of ['', 'a b', 'x'.repeat(65), 'é', '../x']) {
        await err(await admin('POST', `${tenant}/snapshots`, { name }), 422, 'validation_error');
      }
      await err(await admin('POST', `${tenant}/snapshots`, {}), 422, 'validation_error');
      // A name that breaks the pattern in the path names nothing: 404, as every path parameter of the API.
      await err(await admin('GET', `${tenant}/snapshots/${'x'.repeat(65)}`), 404, 'not_found');
      await err(await admin('POST', `${tenant}/snapshots/a%20b/restore`), 404, 'not_found');
      await err(await admin('POST', `${tenant}/snapshots`, { name: 'ok', extra: 1 }), 422, 'validation_error');
      await json(await admin('POST', `${tenant}/snapshots`, { name: 'dup' }), 201);
      await err(await admin('POST', `${tenant}/snapshots`, { name: 'dup' }), 409, 'conflict');
      await err(
        await admin('POST', `${tenant}/snapshots/dup/restore`, { credentials: 'maybe' }),
        422,
        'validation_error',
      );
      await err(await admin('POST', `${tenant}/snapshots/dup/restore`, { extra: true }), 422, 'validation_error');
      await err(await admin('POST', `${tenant}/snapshots`, '[1]'), 400, 'invalid_request');
      assert.equal((await admin('GET', `${tenant}/snapshots/dup`)).status, 200);
      // A snapshot saved with another schema (a column since added or dropped) is not restored: 409.
      const db = server.app.database.db;
      await db
        .updateTable('tenant_snapshot_tables')
        .set({ columns: '["pk","client_id","id"]' })
        .where('table_name', '=', 'hr_roles')
        .where('snapshot_id', 'in', db.selectFrom('tenant_snapshots').select('id').where('name', '=', 'dup'))
        .execute();
      await err(await admin('POST', `${tenant}/snapshots/dup/restore`), 409, 'conflict');
      await json(await admin('DELETE', `${tenant}/snapshots/dup`), 204);
    });

    it('AdminClient covers the snapshots and the reset', async () => {
      const c = await hrCaller(server);
      const sdk = new AdminClient({ baseUrl: server.url, token });
      const tenant = `hr:${c.creds.client_id}`;
      await ok(await c.call('PUT', '/organizations/one', { name: 'One' }));
      const saved = await sdk.snapshots.create(tenant, 'baseline');
      assert.equal(saved.name, 'baseline');
      assert.deepEqual(
        (await sdk.snapshots.list(tenant)).map((s) => s.name),
        ['baseline'],
      );
      assert.equal((await sdk.snapshots.retrieve(tenant, 'baseline')).tables?.hr_organizations, 1);
      const reset = await sdk.tenants.reset({ kind: 'hr', id: c.creds.client_id });
      assert.ok(reset.deleted_rows >= 1);
      const restored = await sdk.snapshots.restore(tenant, 'baseline');
      assert.equal(restored.restored_rows, saved.rows_count - 2, 'all but the client row and its application');
      assert.equal((await ok<unknown[]>(await c.call('GET', '/organizations'))).length, 1);
      await sdk.snapshots.del(tenant, 'baseline');
      await assert.rejects(sdk.snapshots.retrieve(tenant, 'baseline'), (e: Error & { status?: number }) => {
        assert.equal(e.status, 404);
        return true;
      });
    });
  });
}
