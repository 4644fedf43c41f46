import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { seed } from '../../src/cli/seed.js';
import type { DialectName } from '../../src/platform/db/database.js';
import { adminCaller, expectJson } from '../support/admin.js';
import { type Credentials, dialects, getToken, startServer, type TestServer } from '../support/harness.js';

interface Imported {
  tenant: string;
  source: { tenant: string; snapshot: string };
  imported_rows: number;
  files: number;
  new_files: number;
  renamed_ids: number;
  renumbered_tables: number;
}
interface Cloned extends Imported {
  id: string;
  application?: Credentials & { application_secret: string };
  apikey?: string;
}
type Answers = Record<string, unknown[]>;

/** The lists compared before and after: every page of each. */
const LISTS = ['/employees', '/employee_documents', '/requests', '/kb_articles?q=leave'];

/**
 * Every page of each list, in the API's order (cursors, which hold a MAC over the client, are followed, not
 * compared). The documented normalised fields (docs/admin.md, "Portable snapshots") are none of these items'.
 */
async function answers(server: TestServer, creds: Credentials): Promise<Answers> {
  const token = await getToken(server, creds);
  const out: Answers = {};
  for (const list of LISTS) {
    const items: unknown[] = [];
    for (let cursor = ''; ; ) {
      const sep = list.includes('?') ? '&' : '?';
      const res = await fetch(`${server.url}/api/v2/client${list}${sep}per_page=100${cursor}`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      });
      const next = res.headers.get('next-cursor');
      items.push(...(await expectJson<unknown[]>(res, 200)));
      if (!next) break;
      cursor = `&cursor=${encodeURIComponent(next)}`;
    }
    out[list] = items;
  }
  return out;
}

/** Every row count of the tenant's tables and the number of stored files: what "changes nothing" is checked on. */
async function footprint(server: TestServer, clientId: string): Promise<Record<string, number>> {
  const db = server.app.database.db;
  const out: Record<string, number> = {};
  for (const table of ['hr_employees', 'hr_documents', 'pa_requests', 'hr_events', 'pa_kb_articles']) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}
      where client_id = ${clientId}`.execute(db);
    out[table] = Number(rows[0]?.n);
  }
  const { rows } = await sql<{ n: number }>`select count(*) as n from blobs`.execute(db);
  out.blobs = Number(rows[0]?.n);
  return out;
}

/** A file whose lines are changed by `change` (header first), with a correct checksum again unless `keepSum`. */
function rewritten(file: Buffer, change: (lines: unknown[]) => unknown[], keepSum = false): Buffer {
  const lines = gunzipSync(file)
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as unknown);
  const end = lines.pop() as { sha256: string };
  const body = change(lines)
    .map((l) => `${JSON.stringify(l)}\n`)
    .join('');
  const sum = keepSum ? end.sha256 : createHash('sha256').update(body).digest('hex');
  return gzipSync(Buffer.from(`${body}${JSON.stringify({ end: true, sha256: sum })}\n`));
}

/** The lines with a new stored file first, and the first employee without its `id` (a column that must be set). */
function refusedRow([header, ...lines]: unknown[]): unknown[] {
  const bytes = Buffer.from('a file no row refers to');
  const blob = { blob: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, chunks: 1 };
  let columns: string[] = [];
  let done = false;
  const changed = lines.map((line) => {
    if (!Array.isArray(line)) {
      columns =
        (line as { table?: string; columns: string[] }).table === 'hr_employees'
          ? (line as { columns: string[] }).columns
          : [];
      return line;
    }
    if (done || columns.length === 0) return line;
    done = true;
    return line.map((v, i) => (columns[i] === 'id' ? null : v));
  });
  return [header, blob, { data: bytes.toString('base64') }, ...changed];
}

describe('admin API: portable snapshots', () => {
  const [first, second] = dialects();
  const other: DialectName = second ?? first ?? 'sqlite';
  let source: TestServer;
  let target: TestServer;
  let seeded: Credentials;
  let academy: { acadId: number; apikey: string };
  /** The tenant imported on the other database, by the first test. */
  let imported: Credentials | undefined;
  let file: Buffer;
  let before_: Answers;
  const tokens = new Map<TestServer, string>();
  const admin = (server: TestServer) =>
    adminCaller(
      () => server,
      () => tokens.get(server) as string,
    );
  const upload = (server: TestServer, path: string, body: Buffer) =>
    fetch(`${server.url}/admin/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.get(server)}`, 'content-type': 'application/gzip' },
      body,
    });
  const download = async (server: TestServer, path: string) => {
    const res = await admin(server)('GET', path);
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get('content-type'), 'application/gzip');
    return Buffer.from(await res.arrayBuffer());
  };
  const newClient = async (server: TestServer): Promise<Credentials> => {
    const made = await expectJson<{ tenant: { id: string } }>(
      await admin(server)('POST', '/tenants/hr', { name: 'imported' }),
      201,
    );
    return expectJson<Credentials>(
      await admin(server)('POST', `/tenants/hr/${made.tenant.id}/applications`, { name: 'app' }),
      201,
    );
  };

  before(async () => {
    source = await startServer('sqlite');
    target = await startServer(other);
    for (const server of [source, target]) {
      tokens.set(server, (await server.app.services.adminTokens.create('portable', 'cli')).token);
    }
    // 1,000 employees, their documents and requests, articles: the CLI's seed, in this process.
    const made = await seed(source.app.services, {
      employees: 1000,
      users: 5,
      documents: 40,
      requests: 40,
      articles: 4,
      processes: 2,
    });
    seeded = made.hr;
    academy = made.academy;
    await expectJson(await admin(source)('POST', `/tenants/hr/${seeded.client_id}/snapshots`, { name: 'v1' }), 201);
    file = await download(source, `/tenants/hr/${seeded.client_id}/snapshots/v1/export`);
    before_ = await answers(source, seeded);
  });
  after(async () => {
    await source?.close();
    await target?.close();
  });

  it(`exports a tenant of 1,000 employees from SQLite, imports it on ${other} and back: the API answers are equal`, async () => {
    assert.equal((before_['/employees'] ?? []).length, 1000);
    assert.ok((before_['/employee_documents'] ?? []).length > 0, 'documents');
    assert.ok((before_['/requests'] ?? []).length > 0, 'requests');
    assert.ok((before_['/kb_articles?q=leave'] ?? []).length > 0, 'an article found by its words');
    const into = await newClient(target);
    const result = await expectJson<Imported>(
      await upload(target, `/tenants/hr/${into.client_id}/snapshots/import`, file),
      200,
    );
    assert.equal(result.tenant, `hr:${into.client_id}`);
    assert.equal(result.source.tenant, `hr:${seeded.client_id}`);
    assert.ok(result.files > 0 && result.new_files === result.files, 'every stored file is new there');
    assert.deepEqual(await answers(target, into), before_);
    imported = into;
    // The integer keys the database numbers continue past the imported rows (PostgreSQL's sequences advanced).
    const token = await getToken(target, into);
    const created = await fetch(`${target.url}/api/v2/client/organizations/after-import`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'After the import' }),
    });
    assert.ok([200, 201].includes(created.status), await created.text());

    // And back: a snapshot of the imported tenant, exported from the other database, into a fresh SQLite
    // installation (equal again), and into the source's (where its unique ids and keys are in use: moved).
    await expectJson(await admin(target)('POST', `/tenants/hr/${into.client_id}/snapshots`, { name: 'back' }), 201);
    const back = await download(target, `/tenants/hr/${into.client_id}/snapshots/back/export`);
    const fresh = await startServer('sqlite');
    try {
      tokens.set(fresh, (await fresh.app.services.adminTokens.create('portable', 'cli')).token);
      const there = await newClient(fresh);
      const again = await expectJson<Imported>(
        await upload(fresh, `/tenants/hr/${there.client_id}/snapshots/import`, back),
        200,
      );
      assert.equal(again.renamed_ids + again.renumbered_tables, 0, 'nothing moves in a fresh installation');
      assert.deepEqual(await answers(fresh, there), before_);
    } finally {
      await fresh.close();
    }
    const home = await newClient(source);
    const moved = await expectJson<Imported>(
      await upload(source, `/tenants/hr/${home.client_id}/snapshots/import`, back),
      200,
    );
    assert.equal(moved.new_files, 0, 'the files are there already');
    assert.ok(moved.renamed_ids > 0 && moved.renumbered_tables > 0, JSON.stringify(moved));
    assert.deepEqual((await answers(source, home))['/employees'], before_['/employees']);
  });

  it('refuses a truncated, altered or incompatible file with a 4xx, and changes nothing', async () => {
    const into = await newClient(target);
    const path = `/tenants/hr/${into.client_id}/snapshots/import`;
    await expectJson(await upload(target, path, file), 200);
    const was = await footprint(target, into.client_id);
    const flipped = Buffer.from(file);
    const at = Math.floor(flipped.length / 2);
    flipped[at] = (flipped[at] as number) ^ 0x01;
    const cases: [string, Buffer, number, string][] = [
      ['truncated', file.subarray(0, Math.floor(file.length * 0.9)), 400, 'snapshot_corrupt'],
      ['only its first bytes', file.subarray(0, 40), 400, 'snapshot_corrupt'],
      [
        'whole lines but no end',
        gzipSync(gunzipSync(file).subarray(0, gunzipSync(file).indexOf('\n{"table"') + 1)),
        400,
        'snapshot_corrupt',
      ],
      ['one byte flipped', flipped, 400, 'snapshot_corrupt'],
      [
        'a value changed, the checksum kept',
        rewritten(
          file,
          (lines) => lines.map((l) => (Array.isArray(l) ? l.map((v) => (v === 'Paris' ? 'Lyon' : v)) : l)),
          true,
        ),
        400,
        'snapshot_corrupt',
      ],
      [
        'another format version',
        rewritten(file, ([header, ...rest]) => [{ ...(header as object), version: 2 }, ...rest]),
        422,
        'snapshot_incompatible',
      ],
      [
        'another schema',
        rewritten(file, ([header, ...rest]) => [
          { ...(header as object), schema: [...(header as { schema: string[] }).schema, '9999_future'] },
          ...rest,
        ]),
        422,
        'snapshot_incompatible',
      ],
      ['not a snapshot at all', gzipSync(Buffer.from('{"hello":1}\n')), 422, 'snapshot_incompatible'],
      // Whole and checked, but a row the database refuses, after a stored file new to the installation: the rows'
      // transaction is rolled back and that file deleted (the footprint counts the stored files).
      ['a row the database refuses', rewritten(file, refusedRow), 422, 'snapshot_invalid'],
    ];
    for (const [name, body, status, code] of cases) {
      const error = await expectJson<{ code: string; message: string }>(await upload(target, path, body), status);
      assert.equal(error.code, code, name);
      assert.match(error.message, /Nothing was written/, name);
      if (name === 'another format version') assert.match(error.message, /version is 2/);
      if (name === 'another schema') assert.match(error.message, /9999_future/);
      assert.deepEqual(await footprint(target, into.client_id), was, `${name}: the target is unchanged`);
    }
    // Larger than ATRIUM_SNAPSHOT_IMPORT_MAX_BYTES: a 413 as the body arrives.
    const small = await startServer('sqlite', { ATRIUM_SNAPSHOT_IMPORT_MAX_BYTES: '4096' });
    try {
      tokens.set(small, (await small.app.services.adminTokens.create('portable', 'cli')).token);
      const there = await newClient(small);
      const error = await expectJson<{ code: string }>(
        await upload(small, `/tenants/hr/${there.client_id}/snapshots/import`, file),
        413,
      );
      assert.equal(error.code, 'payload_too_large');
      assert.equal((await footprint(small, there.client_id)).hr_employees, 0);
    } finally {
      await small.close();
    }
  });

  it('clones a tenant with fresh credentials: the copy answers as the source, which is unchanged', async () => {
    if (imported) {
      // On the other database too: the tenant the first test imported.
      const there = await expectJson<Cloned>(
        await admin(target)('POST', `/tenants/hr/${imported.client_id}/clone`, { name: 'copy' }),
        201,
      );
      const [copy, original] = [
        await answers(target, there.application as Credentials),
        await answers(target, imported),
      ];
      assert.deepEqual(copy['/employees'], original['/employees']);
      assert.equal(copy['/requests']?.length, original['/requests']?.length);
    }
    const was = await footprint(source, seeded.client_id);
    const cloned = await expectJson<Cloned>(
      await admin(source)('POST', `/tenants/hr/${seeded.client_id}/clone`, { name: 'copy' }),
      201,
    );
    assert.notEqual(cloned.id, seeded.client_id);
    const creds = cloned.application as Credentials;
    assert.equal(creds.client_id, cloned.id);
    assert.ok(creds.application_secret, 'the secret, shown once');
    const copy = await answers(source, creds);
    assert.deepEqual(copy['/employees'], before_['/employees']);
    assert.equal(copy['/requests']?.length, before_['/requests']?.length);
    assert.ok(cloned.renamed_ids > 0, 'request ids are unique across the installation: given anew');
    assert.deepEqual(await footprint(source, seeded.client_id), { ...was, blobs: was.blobs });
    assert.deepEqual(await answers(source, seeded), before_);
    const listed = await expectJson<{ snapshots: { name: string }[] }>(
      await admin(source)('GET', `/tenants/hr/${seeded.client_id}/snapshots`),
      200,
    );
    assert.deepEqual(
      listed.snapshots.map((s) => s.name),
      ['v1'],
      'the temporary snapshot is gone',
    );
  });

  it('clones an academy with a fresh API key', async () => {
    const events = async (acadId: number | string, apikey: string) => {
      const res = await fetch(`${source.url}/v1/events/ilt?limit=100&acadId=${acadId}&apikey=${apikey}`);
      return (await expectJson<{ events: { title?: string; name?: string }[] }>(res, 200)).events;
    };
    const cloned = await expectJson<Cloned & { super_admin_id: number }>(
      await admin(source)('POST', `/tenants/academy/${academy.acadId}/clone`, { name: 'academy copy' }),
      201,
    );
    assert.ok(cloned.apikey && cloned.apikey !== academy.apikey, 'a key of its own, shown once');
    const [mine, theirs] = [await events(cloned.id, cloned.apikey), await events(academy.acadId, academy.apikey)];
    assert.ok(theirs.length > 0, 'the seed made events');
    assert.deepEqual(
      mine.map((e) => e.title ?? e.name),
      theirs.map((e) => e.title ?? e.name),
    );
    const refused = await fetch(`${source.url}/v1/events/ilt?acadId=${cloned.id}&apikey=${academy.apikey}`);
    assert.equal(refused.status, 401, "the source's key does not open the copy");
  });
});
