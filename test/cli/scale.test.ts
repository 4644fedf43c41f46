/**
 * Several server processes on one database, as `atrium serve` runs them: two separate processes on one
 * PostgreSQL, and `serve --workers 2` on SQLite (with metrics on: the primary sums its workers' `/metrics`). Every
 * process is the built CLI (`npm run build` first).
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createServices, type Services } from '../../src/app.js';
import { loadConfig } from '../../src/platform/config.js';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { hrTenantId } from '../../src/platform/db/tenant.js';
import { academyCaller, eventBody } from '../support/academy.js';
import { type Served, serve as serveBuilt } from '../support/cli.js';
import { dialects, freshDatabase, sleep, type TestDatabase, type TestServer } from '../support/harness.js';

const HR = '/api/v2/client';

/** `atrium serve` with info-level logs (the tests read them) and fast revocation checks. */
const serve = (env: Record<string, string>, ...args: string[]) =>
  serveBuilt({ LOG_LEVEL: 'info', ATRIUM_AUTH_REFRESH_MS: '200', ...env }, ...args);

function stop(served: Served | undefined): void {
  if (served && served.child.exitCode === null && served.child.signalCode === null) served.child.kill('SIGKILL');
}

/** The services of the test process itself on the servers' database (set-up and checks only). */
async function servicesOn(env: Record<string, string>): Promise<{ database: Database; services: Services }> {
  const config = loadConfig({ ...env, DATABASE_URL: env.DATABASE_URL ?? '' });
  const database = openDatabase({ ...config, dbPoolSize: 4 });
  await migrateToLatest(database);
  return { database, services: await createServices(database, config) };
}

interface Creds {
  client_id: string;
  application_id: string;
  application_secret: string;
}

const basic = (c: Creds) => `Basic ${Buffer.from(`${c.application_id}:${c.application_secret}`).toString('base64')}`;

async function token(url: string, creds: Creds): Promise<string> {
  const res = await fetch(`${url}${HR}/tokens`, {
    method: 'POST',
    headers: { authorization: basic(creds), 'content-type': 'application/x-www-form-urlencoded' },
    body: `grant_type=client_credentials&scope=client&client_id=${creds.client_id}`,
  });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { access_token: string }).access_token;
}

function call(url: string, bearer: string, method: string, p: string, body?: unknown): Promise<Response> {
  return fetch(`${url}${HR}${p}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      accept: 'application/json',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

async function ok<T>(res: Promise<Response>, status: number): Promise<T> {
  const r = await res;
  const text = await r.text();
  assert.equal(r.status, status, text);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A request form `anything` (one required text field, no employee needed) in a new category. */
async function requestForm(url: string, bearer: string): Promise<void> {
  const category = randomUUID();
  await ok(
    call(url, bearer, 'PUT', `/kb_categories/${category}`, {
      localized_name: [{ language_code: 'en-us', value: 'Scale' }],
    }),
    200,
  );
  await ok(
    call(url, bearer, 'PUT', '/request_forms/anything', {
      name: 'Anything',
      category_id: category,
      employee_organization_mandatory: false,
      formidable: { fields: [{ slug: 'subject', label: 'Subject', type_id: 'text', required: true }] },
    }),
    200,
  );
}

const newRequest = (url: string, bearer: string, subject: string) =>
  call(url, bearer, 'POST', '/requests', {
    form_id: 'anything',
    form_data: [{ field_id: 'subject', values: [subject] }],
  });

async function requestNumbers(responses: Response[]): Promise<number[]> {
  return Promise.all(
    responses.map(async (r) => {
      const text = await r.text();
      assert.equal(r.status, 201, text);
      return Number((JSON.parse(text) as { request_number: string | number }).request_number);
    }),
  );
}

describe('two server processes on one PostgreSQL', { skip: !dialects().includes('postgres') }, () => {
  let db: TestDatabase;
  let a: Served | undefined;
  let b: Served | undefined;
  let local: { database: Database; services: Services };
  let creds: Creds;

  before(async () => {
    db = await freshDatabase('postgres');
    // Both start (and migrate) at once, as two machines would.
    [a, b] = await Promise.all([serve(db.env), serve(db.env)]);
    local = await servicesOn(db.env);
    const { client_id } = await local.services.tenants.createClient('Scale');
    creds = await local.services.tenants.createApplication(hrTenantId(client_id), 'two processes', false);
  });
  after(async () => {
    stop(a);
    stop(b);
    await local?.database.close();
    await db?.drop();
  });

  it('a token issued by A works on B, and a token revoked on A is refused by B within a second or so', async () => {
    const A = a as Served;
    const B = b as Served;
    const t = await token(A.url, creds);
    assert.equal((await call(B.url, t, 'GET', '/organizations')).status, 200);
    const revoked = await fetch(`${A.url}${HR}/revoke_token`, {
      method: 'POST',
      headers: { authorization: basic(creds), 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${t}`,
    });
    assert.equal(revoked.status, 200);
    // Each process polls every 200 ms here; allow a generous bound for a loaded machine.
    let status = 200;
    for (let i = 0; i < 50 && status === 200; i++) {
      status = (await call(B.url, t, 'GET', '/organizations')).status;
      if (status === 200) await sleep(200);
    }
    assert.equal(status, 401, 'B refuses the token revoked on A');
    assert.equal((await call(A.url, t, 'GET', '/organizations')).status, 401, 'and so does A');
  });

  it('a file uploaded through A is consumed and downloaded through B', async () => {
    const A = a as Served;
    const B = b as Served;
    const t = await token(A.url, creds);
    const bytes = Buffer.from(`scale test ${randomUUID()}\n`.repeat(2000));
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'handbook.txt');
    const uploaded = await ok<{ filename: string; file_id: string }>(
      fetch(`${A.url}${HR}/document`, { method: 'POST', headers: { authorization: `Bearer ${t}` }, body: form }),
      201,
    );
    await ok(call(B.url, t, 'PUT', '/organizations/hq', { name: 'HQ' }), 201);
    await ok(
      call(B.url, t, 'PUT', '/company_document_types/handbook', {
        localized_labels: [{ language_code: 'en', value: 'Handbook' }],
        expiry_date_policy_type: 'no_limit',
      }),
      201,
    );
    const doc = await ok<{ id: string }>(
      call(B.url, t, 'POST', '/company_documents', {
        document_type_id: 'handbook',
        title: 'Handbook',
        organization_ids: ['hq'],
        uploaded_file: uploaded,
      }),
      201,
    );
    for (const served of [B, A]) {
      const res = await call(served.url, t, 'GET', `/company_documents/${doc.id}/file`);
      assert.equal(res.status, 200);
      const body = Buffer.from(await res.arrayBuffer());
      assert.equal(
        createHash('sha256').update(body).digest('hex'),
        createHash('sha256').update(bytes).digest('hex'),
        `the same bytes through ${served === A ? 'A' : 'B'}`,
      );
    }
  });

  it('parallel request creation through A and B numbers every request once', async () => {
    const A = a as Served;
    const B = b as Served;
    const t = await token(B.url, creds);
    await requestForm(A.url, t);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => newRequest(i % 2 ? A.url : B.url, t, `parallel ${i}`)),
    );
    const numbers = await requestNumbers(responses);
    assert.equal(new Set(numbers).size, 20, `numbers: ${numbers.join(',')}`);
    const sorted = [...numbers].sort((x, y) => x - y);
    assert.equal((sorted.at(-1) as number) - (sorted[0] as number), 19, 'the numbers are consecutive');
  });

  it('one Idempotency-Key sent to A and B at once runs once; retries on either replay it; another body is refused', async () => {
    const A = a as Served;
    const B = b as Served;
    const t = await token(A.url, creds);
    await requestForm(B.url, t);
    const key = randomUUID();
    const body = { form_id: 'anything', form_data: [{ field_id: 'subject', values: [`keyed ${key}`] }] };
    const post = (url: string, sent: unknown = body) =>
      fetch(`${url}${HR}/requests`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(sent),
      });
    const total = async () =>
      Number(
        (
          await local.database.db
            .selectFrom('pa_requests')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('client_id', '=', creds.client_id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await total();

    const answers = await Promise.all([post(A.url), post(B.url), post(A.url), post(B.url)]);
    const texts = await Promise.all(answers.map((r) => r.text()));
    const created = answers.flatMap((r, i) => (r.status === 201 && !r.headers.get('idempotent-replayed') ? [i] : []));
    assert.equal(created.length, 1, `exactly one ran: ${answers.map((r) => r.status).join(',')}`);
    const first = JSON.parse(texts[created[0] as number] as string) as { id: string; request_number: number };
    answers.forEach((r, i) => {
      if (i === created[0]) return;
      // The others came while it ran (409, retry later) or after it ended (its answer, replayed).
      if (r.status === 409) assert.equal(JSON.parse(texts[i] as string).code, 'idempotency_key_in_use');
      else {
        assert.equal(r.status, 201, texts[i]);
        assert.equal(r.headers.get('idempotent-replayed'), 'true');
        assert.equal(JSON.parse(texts[i] as string).id, first.id);
      }
    });

    for (const served of [B, A]) {
      let replay = await post(served.url);
      for (let i = 0; i < 50 && replay.status === 409; i++) {
        await sleep(100);
        replay = await post(served.url);
      }
      assert.equal(replay.status, 201);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      const again = (await replay.json()) as { id: string; request_number: number };
      assert.deepEqual([again.id, again.request_number], [first.id, first.request_number]);
    }
    const reused = await post(B.url, { ...body, form_data: [{ field_id: 'subject', values: ['another body'] }] });
    assert.equal(reused.status, 422);
    assert.equal(((await reused.json()) as { code: string }).code, 'idempotency_key_reused');
    assert.equal(await total(), before + 1, 'one request was created, whatever the number of tries');
    const keys = await local.database.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('idempotency_keys.key', '=', key)
      .execute();
    assert.equal(keys.length, 1, 'one stored key, shared by both processes');
  });

  it('parallel addOffers through A and B never go past 6000 offers per event', async () => {
    const A = a as Served;
    const B = b as Served;
    // academyCaller needs the services (set-up rows) and a URL: the test process's services, process A's URL.
    const asServer = {
      app: { services: local.services, database: local.database },
      url: A.url,
    } as unknown as TestServer;
    const academy = await academyCaller(asServer);
    const main = await academy.json<{ id: number }>('POST', '/events/vc', eventBody('vc', ['05/04/2031']));
    await academy.json('PUT', `/events/vc/${main.id}/convertToBundle`, {
      canMulti: 'all',
      customOffers: [{ date: '06/10/2031' }],
    });
    const dbx = local.database.db;
    const row = await dbx.selectFrom('academy_events').selectAll().where('id', '=', main.id).executeTakeFirstOrThrow();
    const { id: _id, ...copy } = row;
    for (let i = 0; i < 5880; i += 500) {
      await dbx
        .insertInto('academy_events')
        .values(Array.from({ length: Math.min(500, 5880 - i) }, () => ({ ...copy, bundle_id: main.id })))
        .execute();
    }
    const offers = async () =>
      Number(
        (
          await dbx
            .selectFrom('academy_events')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('bundle_id', '=', main.id)
            .where('id', '!=', main.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await offers();
    const dates = (year: number) =>
      Array.from({ length: 60 }, (_, i) => {
        const d = new Date(Date.UTC(year, 0, 1 + i));
        return {
          date: `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${year}`,
        };
      });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => {
        const url = i % 2 ? A.url : B.url;
        return fetch(`${url}/v1/events/vc/${main.id}/addOffers?acadId=${academy.acadId}&apikey=${academy.apikey}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ customOffers: dates(2040 + i) }),
        });
      }),
    );
    const codes = results.map((r) => r.status).sort();
    const after = await offers();
    assert.ok(after <= 6000, `at most 6000 offers, got ${after}`);
    const accepted = codes.filter((c) => c === 200).length;
    assert.equal(after - before, 60 * accepted, `every accepted request added its 60 offers (codes ${codes})`);
    assert.ok(accepted >= 1 && 6000 - after < 60, `the cap is reached, not undershot (${after}; codes ${codes})`);
    assert.deepEqual(
      codes.filter((c) => c !== 200),
      Array(6 - accepted).fill(409),
      'the others are 409',
    );
  });
});

/** GET over a new connection each time, so that the cluster hands requests to its workers in turn. */
function getFresh(url: string, bearer: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}${HR}/organizations`, { agent: false, headers: { authorization: `Bearer ${bearer}` } });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

describe('atrium serve --workers 2 on SQLite', () => {
  let db: TestDatabase;
  let served: Served | undefined;
  let local: { database: Database; services: Services };

  before(async () => {
    db = await freshDatabase('sqlite');
    served = await serve({ ...db.env, ATRIUM_METRICS_PORT: '0' }, '--workers', '2');
    local = await servicesOn(db.env);
  });
  after(async () => {
    stop(served);
    await local?.database.close();
    await db?.drop();
  });

  it('both workers answer, parallel writes all succeed, and SIGTERM stops every worker', async () => {
    const s = served as Served;
    assert.match(s.output(), /Atrium listening on http:\/\/127\.0\.0\.1:\d+ \(sqlite, 2 workers\)/);
    const { client_id } = await local.services.tenants.createClient('Workers');
    const creds = await local.services.tenants.createApplication(hrTenantId(client_id), 'workers', false);
    const t = await token(s.url, creds);
    for (let i = 0; i < 8; i++) assert.equal(await getFresh(s.url, t), 200);
    const pids = new Set(
      s
        .output()
        .split('\n')
        .filter((l) => l.includes('"statusCode":200') && l.includes('/organizations'))
        .map((l) => (JSON.parse(l) as { pid: number }).pid),
    );
    assert.equal(pids.size, 2, `requests were answered by ${pids.size} worker(s)`);

    // Metrics (ATRIUM_METRICS_PORT): the primary serves them on their own port, the sum of both workers'.
    const metrics = /; metrics at (http:\/\/\S+\/metrics)/.exec(s.output())?.[1];
    assert.ok(metrics, 'the start-up line says where the metrics are');
    const scraped = await fetch(metrics);
    assert.equal(scraped.status, 200);
    const text = await scraped.text();
    const count = text
      .split('\n')
      .find((l) =>
        l.startsWith(
          'atrium_http_request_duration_seconds_count{api="hr",operation="GET /api/v2/client/organizations",status="200"} ',
        ),
      );
    assert.equal(count?.split(' ').at(-1), '8', text);
    assert.match(text, /^process_resident_memory_bytes \d+/m, 'process metrics, summed');
    assert.equal(text.match(/^atrium_build_info\{/gm)?.length, 1, 'one build info line');

    await requestForm(s.url, t);
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => newRequest(s.url, t, `w ${i}`)));
    const numbers = await requestNumbers(responses);
    assert.equal(new Set(numbers).size, 20, `numbers: ${numbers.join(',')}`);
    assert.ok(!/SQLITE_BUSY/.test(s.output()), 'no SQLITE_BUSY reached the logs');

    s.child.kill('SIGTERM');
    assert.equal(await s.exited, 0, 'the primary exits 0 once its workers have stopped');
    for (const pid of pids) {
      assert.throws(() => process.kill(pid, 0), /ESRCH/, `worker ${pid} is gone`);
    }
  });
});
