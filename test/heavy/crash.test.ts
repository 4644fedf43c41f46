/**
 * Nothing acknowledged is lost: the built server (`node dist/cli/main.js serve`) runs under write load —
 * requests, uploaded documents, Academy offers — and is killed with SIGKILL at a random moment, then restarted,
 * ATRIUM_CRASH_KILLS times (3 in `npm test`; `npm run crash` does 20). After each restart every write that got a
 * 2xx is there and intact (file bytes by SHA-256), no stored object is half-written (every blob reference
 * resolves to a whole blob), and SQLite passes `PRAGMA integrity_check`.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createServices } from '../../src/app.js';
import { loadConfig } from '../../src/platform/config.js';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { hrTenantId } from '../../src/platform/db/tenant.js';
import { eventBody } from '../support/academy.js';
import { type Served, serve as serveBuilt } from '../support/cli.js';
import { dialects, freshDatabase, sleep, type TestDatabase } from '../support/harness.js';

const KILLS = Number(process.env.ATRIUM_CRASH_KILLS ?? 3);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
/** The built server, with error-level logs. */
const serve = (env: Record<string, string>) => serveBuilt({ ...env, LOG_LEVEL: 'error' });

interface Acked {
  requests: { id: string; subject: string }[];
  documents: { id: string; sha256: string; size: number }[];
  offers: string[];
}

/** Structural checks straight on the database: integrity, and every blob reference resolving to a whole blob. */
async function checkStore(database: Database, dataDir: string): Promise<string[]> {
  const problems: string[] = [];
  if (database.dialect === 'sqlite') {
    const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(database.db);
    if (rows[0]?.integrity_check !== 'ok') problems.push(`integrity_check: ${JSON.stringify(rows)}`);
  }
  const blobs = await database.db.selectFrom('blobs').select(['sha256', 'size']).execute();
  const bySha = new Map(blobs.map((b) => [b.sha256, Number(b.size)]));
  for (const table of ['hr_documents', 'pa_request_files', 'hr_uploads'] as const) {
    const refs = await database.db.selectFrom(table).select('sha256').execute();
    for (const r of refs) if (!bySha.has(r.sha256)) problems.push(`${table} refers to a missing blob ${r.sha256}`);
  }
  if (database.dialect === 'sqlite') {
    for (const [sha, size] of bySha) {
      const file = path.join(dataDir, 'blobs', sha.slice(0, 2), sha.slice(2, 4), sha);
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      if (!stat || stat.size !== size)
        problems.push(`blob ${sha}: file ${stat ? `${stat.size} bytes` : 'missing'}, row ${size}`);
    }
  } else {
    const { rows } = await sql<{ sha256: string; total: number }>`
      select b.sha256, coalesce(sum(length(c.data)), 0)::bigint as total
      from blobs b left join blob_chunks c on c.sha256 = b.sha256 group by b.sha256`.execute(database.db);
    for (const r of rows) {
      if (Number(r.total) !== bySha.get(r.sha256)) problems.push(`blob ${r.sha256}: ${r.total} bytes of chunks`);
    }
  }
  return problems;
}

for (const dialect of dialects()) {
  describe(`SIGKILL under write load, ${KILLS} times (${dialect})`, () => {
    let db: TestDatabase;
    let server: Served | undefined;
    const env: Record<string, string> = {};
    let bearer = '';
    let employeeId = '';
    let academy = { acadId: 0, apikey: '', main: 0 };
    const acked: Acked = { requests: [], documents: [], offers: [] };
    const figures = { kills: 0, writesAcked: 0, writesLost: 0 };

    before(async () => {
      db = await freshDatabase(dialect);
      Object.assign(env, db.env, {
        ATRIUM_RATE_LIMIT: '0',
        ATRIUM_AUTH_FAILURE_LIMIT: '0',
        ATRIUM_ACADEMY_RATE_LIMIT: '0',
      });
      // Credentials, made the way the CLI makes them.
      const config = loadConfig(env);
      const database = openDatabase(config);
      await migrateToLatest(database);
      const services = await createServices(database, config);
      const client = await services.tenants.createClient('Crash test');
      const app = await services.tenants.createApplication(hrTenantId(client.client_id), 'load', false);
      const created = await services.academies.create('Crash academy');
      await database.close();

      server = await serve(env);
      const token = await fetch(`${server.url}/api/v2/client/tokens`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${app.application_id}:${app.application_secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: `grant_type=client_credentials&scope=client&client_id=${client.client_id}`,
      });
      bearer = ((await token.json()) as { access_token: string }).access_token;
      const hr = (method: string, p: string, body: unknown) =>
        fetch(`${server?.url}/api/v2/client${p}`, {
          method,
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const ok = async (res: Response) => {
        const text = await res.text();
        assert.ok(res.status < 300, `fixture: ${res.status} ${text}`);
        return JSON.parse(text) as Record<string, unknown>;
      };
      await ok(await hr('PUT', '/organizations/hq', { name: 'HQ' }));
      employeeId = String(
        (
          await ok(
            await hr('POST', '/employees', {
              firstname: 'Ada',
              lastname: 'L',
              email: 'ada@example.com',
              registration_references: [{ organization_id: 'hq', employee_number: 'A1' }],
            }),
          )
        ).id,
      );
      await ok(
        await hr('PUT', '/employee_document_types/payslip', {
          label: 'Payslip',
          localized_labels: [{ language_code: 'en', value: 'Payslip' }],
          folder_id: 'payroll.payslips',
        }),
      );
      const category = '6f4d9a51-1111-4a8e-9d8e-0123456789ab';
      await ok(
        await hr('PUT', `/kb_categories/${category}`, { localized_name: [{ language_code: 'en-us', value: 'C' }] }),
      );
      await ok(
        await hr('PUT', '/request_forms/question', {
          name: 'Question',
          category_id: category,
          formidable: { fields: [{ slug: 'subject', label: 'Subject', type_id: 'text', required: true }] },
        }),
      );
      const v1 = (method: string, p: string, body: unknown) =>
        fetch(`${server?.url}/v1${p}?acadId=${created.acadId}&apikey=${created.apikey}`, {
          method,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const dbForVenue = openDatabase(config);
      await dbForVenue.db
        .insertInto('academy_venues')
        .values({
          academy_id: created.acadId,
          id: 700,
          name: 'Hall',
          seats: 40,
          address: '',
          city: '',
          latitude: 0,
          longitude: 0,
        })
        .execute();
      await dbForVenue.close();
      const main = await ok(await v1('POST', '/events/ilt', eventBody('ilt')));
      await ok(
        await v1('PUT', `/events/ilt/${main.id}/convertToBundle`, {
          canMulti: 'no',
          customOffers: [{ date: '01/01/2032' }],
        }),
      );
      academy = { acadId: created.acadId, apikey: created.apikey, main: Number(main.id) };
    });
    after(async () => {
      if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
      await server?.exited;
      console.log(
        `crash (${dialect}): ${figures.kills} SIGKILLs survived; ${figures.writesAcked} acknowledged writes, ${figures.writesLost} lost`,
      );
      await db.drop();
    });

    /** Write load until `stop` is set; every 2xx is recorded. */
    function load(url: string, stop: { now: boolean }, day: { n: number }): Promise<void>[] {
      const headers = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' };
      const loop = async (step: () => Promise<void>) => {
        while (!stop.now) {
          try {
            await step();
          } catch {
            // The server died under us: the write in flight was never acknowledged.
            return;
          }
        }
      };
      const request = async () => {
        const subject = `subject ${randomBytes(6).toString('hex')}`;
        const res = await fetch(`${url}/api/v2/client/requests`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            form_id: 'question',
            employee_id: employeeId,
            form_data: [{ field_id: 'subject', values: [subject] }],
          }),
        });
        const body = (await res.json()) as { id: string };
        if (res.status === 201) acked.requests.push({ id: body.id, subject });
      };
      const document = async () => {
        const bytes = Buffer.concat([
          Buffer.from('%PDF-1.4\n'),
          randomBytes(1024 + Math.floor(Math.random() * 60_000)),
        ]);
        const up = await fetch(`${url}/api/v2/client/uploads`, {
          method: 'POST',
          headers: {
            authorization: headers.authorization,
            'content-type': 'application/octet-stream',
            'content-disposition': 'attachment; filename="f.pdf"',
          },
          body: new Uint8Array(bytes),
        });
        const upload = (await up.json()) as { id: string };
        if (up.status !== 201) return;
        const res = await fetch(`${url}/api/v2/client/employee_documents`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            employee_id: employeeId,
            document_type_id: 'payslip',
            title: 'Payslip',
            uploaded_file: { file_id: upload.id, filename: 'f.pdf' },
          }),
        });
        const body = (await res.json()) as { id: string };
        if (res.status === 201) acked.documents.push({ id: body.id, sha256: sha256(bytes), size: bytes.length });
      };
      const offer = async () => {
        day.n += 1;
        const d = new Date(Date.UTC(2032, 0, 1) + day.n * 86_400_000);
        const date = `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
        const res = await fetch(
          `${url}/v1/events/ilt/${academy.main}/addOffers?acadId=${academy.acadId}&apikey=${academy.apikey}`,
          {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ customOffers: [{ date }] }),
          },
        );
        await res.text();
        if (res.status === 200) acked.offers.push(date);
      };
      return [loop(request), loop(request), loop(document), loop(document), loop(offer)];
    }

    /** Every acknowledged write, read back through the API. */
    async function verify(url: string, since: { requests: number; documents: number }): Promise<string[]> {
      const problems: string[] = [];
      const auth = { authorization: `Bearer ${bearer}` };
      for (const r of acked.requests.slice(since.requests)) {
        const res = await fetch(`${url}/api/v2/client/requests/${r.id}`, { headers: auth });
        const text = await res.text();
        if (res.status !== 200 || !text.includes(r.subject)) problems.push(`request ${r.id}: ${res.status}`);
      }
      for (const d of acked.documents.slice(since.documents)) {
        const res = await fetch(`${url}/api/v2/client/employee_documents/${d.id}/file`, { headers: auth });
        const bytes = Buffer.from(await res.arrayBuffer());
        if (res.status !== 200 || bytes.length !== d.size || sha256(bytes) !== d.sha256) {
          problems.push(`document ${d.id}: ${res.status}, ${bytes.length} of ${d.size} bytes`);
        }
      }
      let offers = 0;
      for (let start = 0; ; start += 20) {
        const res = await fetch(
          `${url}/v1/events/ilt/${academy.main}/offers?acadId=${academy.acadId}&apikey=${academy.apikey}&start=${start}&limit=20`,
        );
        const page = (await res.json()) as unknown[];
        offers += page.length;
        if (page.length < 20) break;
      }
      // The main event and the first offer, then every acknowledged offer (in-flight ones may have landed too).
      if (offers < acked.offers.length + 2)
        problems.push(`${offers} offers listed, ${acked.offers.length + 2} acknowledged`);
      return problems;
    }

    it('every acknowledged write survives every SIGKILL, whole, and the store stays consistent', async () => {
      const day = { n: 0 };
      const config = loadConfig(env);
      for (let kill = 1; kill <= KILLS; kill++) {
        const url = (server as Served).url;
        const since = { requests: acked.requests.length, documents: acked.documents.length };
        const stop = { now: false };
        const loops = load(url, stop, day);
        // Kill once the load has written something of every kind in this run (bounded), at a random moment after.
        const offersBefore = acked.offers.length;
        for (let waited = 0; waited < 30_000; waited += 50) {
          if (
            acked.requests.length > since.requests &&
            acked.documents.length > since.documents &&
            acked.offers.length > offersBefore
          ) {
            break;
          }
          await sleep(50);
        }
        await sleep(Math.floor(Math.random() * 400));
        (server as Served).child.kill('SIGKILL');
        await (server as Served).exited;
        stop.now = true;
        await Promise.all(loops);
        figures.kills += 1;
        const database = openDatabase(config);
        try {
          const problems = await checkStore(database, config.dataDir);
          assert.deepEqual(problems, [], `after kill ${kill}: ${problems.join('; ')}`);
        } finally {
          await database.close();
        }
        server = await serve(env);
        const problems = await verify(server.url, since);
        figures.writesAcked = acked.requests.length + acked.documents.length + acked.offers.length;
        figures.writesLost += problems.length;
        assert.deepEqual(problems, [], `after kill ${kill}: ${problems.join('; ')}`);
      }
      assert.ok(
        acked.requests.length >= KILLS && acked.documents.length >= KILLS && acked.offers.length >= KILLS,
        'the load acknowledged writes of every kind before each kill',
      );
      // Finally, everything ever acknowledged, once more.
      const all = await verify((server as Served).url, { requests: 0, documents: 0 });
      assert.deepEqual(all, [], all.join('; '));
    });
  });
}
