import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeProtectedHeader } from 'jose';
import { sql } from 'kysely';
import { openDatabase } from '../../src/platform/db/database.js';
import { migrationNames } from '../../src/platform/db/migrate.js';
import { atrium, CLI, json, ROOT, type Served, serve } from '../support/cli.js';
import { dialects, freshDatabase, sleep, type TestDatabase } from '../support/harness.js';

async function token(url: string, creds: { client_id: string; application_id: string; application_secret: string }) {
  const res = await fetch(`${url}/api/v2/client/tokens`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${creds.application_id}:${creds.application_secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: `grant_type=client_credentials&scope=client&client_id=${creds.client_id}`,
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { access_token: string }).access_token;
}

const list = (url: string, t: string) =>
  fetch(`${url}/api/v2/client/organizations`, { headers: { authorization: `Bearer ${t}` } });

interface DemoEmployee {
  external_id: string;
  email: string;
  city: string;
  birth_date: string;
  registration_references: { organization_id: string; employee_number: string }[];
}

/** The seed's demo employees (external_id `demo-…`), following the cursors to the last page. */
async function demoEmployees(url: string, t: string): Promise<DemoEmployee[]> {
  const all: DemoEmployee[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const res = await fetch(`${url}/api/v2/client/employees?per_page=100${query}`, {
      headers: { authorization: `Bearer ${t}` },
    });
    assert.equal(res.status, 200);
    const rows = (await res.json()) as DemoEmployee[];
    all.push(...rows.filter((e) => e.external_id?.startsWith('demo-')));
    cursor = res.headers.get('next-cursor');
    if (!cursor) return all;
  }
  throw new Error('more than 100 pages of employees');
}

/** What `atrium seed --size small` makes in an empty tenant (docs/cli.md). */
const SMALL = {
  organizations: 8,
  organization_groups: 1,
  employees: 100,
  roles: 3,
  users: 10,
  employee_document_types: 2,
  employee_documents: 100,
  kb_categories: 3,
  kb_articles: 12,
  request_forms: 3,
  requests: 50,
  comments: 100,
  process_templates: 1,
  processes: 10,
  tasks: 30,
  document_generation_templates: 2,
  saml_identity_providers: 1,
};

type Seed = {
  hr: { client_id: string; application_id: string; application_secret: string };
  academy: { acadId: number; apikey: string };
};

for (const dialect of dialects()) {
  describe(`atrium CLI (${dialect})`, () => {
    let db: TestDatabase;
    let server: Served;
    /** The client and application the first test creates; later tests reuse them (each spawn costs seconds). */
    let acme: { client_id: string; application_id: string; application_secret: string };
    before(async () => {
      db = await freshDatabase(dialect);
      const migrated = await atrium(db.env, 'migrate', '--json');
      assert.deepEqual(json(migrated), { applied: migrationNames });
      assert.ok(!migrated.stderr.includes('using '), 'with --json, no "using" line');
      // Without --json: words, and the database it uses on stderr (the PostgreSQL URL without its password).
      const again = await atrium(db.env, 'migrate');
      assert.equal(again.code, 0, again.stderr);
      assert.equal(again.stdout, 'database is up to date\n');
      const url = db.env.DATABASE_URL ? new URL(db.env.DATABASE_URL) : undefined;
      assert.equal(
        again.stderr,
        url
          ? `using PostgreSQL at ${url.username}@${url.hostname}:${url.port || 5432}${url.pathname}\n`
          : `using ${path.join(db.env.ATRIUM_DATA_DIR as string, 'atrium.sqlite')}\n`,
      );
      server = await serve(db.env);
    });
    after(async () => {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await db.drop();
    });

    it('serve prints where it listens and where the docs are', () => {
      assert.match(server.firstLine, /^Atrium listening on http:\/\/127\.0\.0\.1:\d+ .*\/docs$/);
    });

    it('hr create-client and create-application print JSON only, and store only a hash of the secret', async () => {
      const client = json<{ client_id: string }>(
        await atrium(db.env, 'hr', 'create-client', '--name', 'Acme', '--json'),
      );
      assert.deepEqual(Object.keys(client), ['client_id']);
      const app = json<{ client_id: string; application_id: string; application_secret: string }>(
        await atrium(
          db.env,
          'hr',
          'create-application',
          '--client-id',
          client.client_id,
          '--name',
          'HRIS sync',
          '--json',
        ),
      );
      assert.deepEqual(Object.keys(app).sort(), ['application_id', 'application_secret', 'client_id']);
      assert.equal(app.client_id, client.client_id);
      acme = app;
      assert.ok(app.application_secret.length >= 40, 'a long secret');
      assert.equal((await list(server.url, await token(server.url, app))).status, 200);

      const database = openDatabase({
        dataDir: db.env.ATRIUM_DATA_DIR as string,
        databaseUrl: db.env.DATABASE_URL,
        dbPoolSize: 2,
      });
      try {
        const row = await database.db
          .selectFrom('hr_applications')
          .selectAll()
          .where('id', '=', app.application_id)
          .executeTakeFirstOrThrow();
        assert.equal(row.secret_hash, createHash('sha256').update(app.application_secret).digest('hex'));
        assert.ok(!JSON.stringify(row).includes(app.application_secret), 'the secret is not stored');
      } finally {
        await database.close();
      }
    });

    it('a --read-only application gets 403 insufficient_scope on writes', async () => {
      const client = acme;
      const app = json<{ client_id: string; application_id: string; application_secret: string }>(
        await atrium(
          db.env,
          'hr',
          'create-application',
          '--client-id',
          client.client_id,
          '--name',
          'BI',
          '--read-only',
          '--json',
        ),
      );
      const t = await token(server.url, app);
      assert.equal((await list(server.url, t)).status, 200);
      const put = await fetch(`${server.url}/api/v2/client/organizations/x`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' },
        body: '{"name":"x"}',
      });
      assert.equal(put.status, 403);
      assert.equal(((await put.json()) as { code: string }).code, 'insufficient_scope');
    });

    it('seed runs twice; each run prints working credentials and earlier ones stay valid', async () => {
      const firstRun = await atrium(db.env, 'seed', '--json');
      const first = json<Seed & { summary: unknown }>(firstRun);
      // --json: no bar, no escape codes, no "using" line (standard error is not a terminal here either).
      assert.equal(firstRun.stderr, '');
      // --size small (the default): what each kind counts.
      assert.deepEqual(first.summary, SMALL);
      const secondRun = json<Seed & { summary: unknown }>(await atrium(db.env, 'seed', '--json'));
      // A second run upserts what it upserts and leaves the activity (documents, requests, processes) as it is.
      assert.deepEqual(secondRun.summary, {
        ...SMALL,
        employee_documents: 0,
        requests: 0,
        comments: 0,
        processes: 0,
        tasks: 0,
      });
      const second: Seed = secondRun;
      assert.equal(first.hr.client_id, second.hr.client_id);
      assert.notEqual(first.hr.application_secret, second.hr.application_secret);
      for (const creds of [first.hr, second.hr]) {
        const res = await list(server.url, await token(server.url, creds));
        assert.equal(res.status, 200);
        const orgs = (await res.json()) as { id: string }[];
        assert.equal(orgs.filter((o) => o.id === 'acme').length, 1);
      }
      // --size small (the default): 100 employees, the same ones after the second run (upserted by external_id).
      const t = await token(server.url, second.hr);
      const employees = await demoEmployees(server.url, t);
      assert.equal(employees.length, 100);
      assert.deepEqual(
        employees.map((e) => e.external_id).sort(),
        Array.from({ length: 100 }, (_, i) => `demo-${i + 1}`).sort(),
      );
      const one = employees.find((e) => e.external_id === 'demo-3') as DemoEmployee;
      // Leaf organizations in turn: the third is Vertrieb Deutschland (München), with a German name.
      assert.equal(one.registration_references[0]?.organization_id, 'acme-de-sales');
      assert.equal(one.registration_references[0]?.employee_number, 'E000003');
      assert.equal(one.city, 'München');
      assert.match(one.email, /^[a-z]+\.[a-z]+\.3@acme\.example$/);
      assert.match(one.birth_date, /^\d{4}-\d{2}-\d{2}$/);
      // The rows in the database: once each, in the demo client only, after two runs.
      const database = openDatabase({
        dataDir: db.env.ATRIUM_DATA_DIR as string,
        databaseUrl: db.env.DATABASE_URL,
        dbPoolSize: 1,
      });
      try {
        const count = async (table: string, where = '') => {
          const { rows } = await sql<{
            n: number;
          }>`select count(*) as n from ${sql.table(table)} where client_id = ${second.hr.client_id} ${sql.raw(where)}`.execute(
            database.db,
          );
          return Number(rows[0]?.n);
        };
        assert.deepEqual(
          {
            users: await count('hr_users', "and external_id like 'demo-hr-%'"),
            documents: await count('hr_documents'),
            requests: await count('pa_requests'),
            comments: await count('pa_request_comments'),
            articles: await count('pa_kb_articles'),
            processes: await count('hr_processes'),
            tasks: await count('hr_tasks'),
          },
          { users: 10, documents: 100, requests: 50, comments: 100, articles: 12, processes: 10, tasks: 30 },
        );
      } finally {
        await database.close();
      }
      // And over HTTP: a demo document's file is the PDF the seed wrote.
      const documents = await fetch(`${server.url}/api/v2/client/employee_documents/search`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' },
        body: JSON.stringify({ per_page: 1 }),
      });
      assert.equal(documents.status, 200);
      const [doc] = (await documents.json()) as { id: string; document_type_id: string }[];
      assert.ok(doc && ['demo-payslip', 'demo-contract'].includes(doc.document_type_id));
      const file = await fetch(`${server.url}/api/v2/client/employee_documents/${doc.id}/file`, {
        headers: { authorization: `Bearer ${t}` },
      });
      assert.equal(file.status, 200);
      assert.equal(file.headers.get('content-type'), 'application/pdf');
      assert.match(Buffer.from(await file.arrayBuffer()).toString('latin1'), /^%PDF-1\.7\n[\s\S]*%%EOF\n$/);
      assert.equal(first.academy.acadId, second.academy.acadId);
      assert.notEqual(first.academy.apikey, second.academy.apikey);
      for (const { acadId, apikey } of [first.academy, second.academy]) {
        const get = async <T>(path: string): Promise<T> => {
          const res = await fetch(
            `${server.url}/v1${path}${path.includes('?') ? '&' : '?'}acadId=${acadId}&apikey=${apikey}`,
          );
          assert.equal(res.status, 200, path);
          return (await res.json()) as T;
        };
        type Item = { id: number; status: string; registered: number; completed: number };
        const ilt = await get<{ all: number; events: Item[] }>('/events/ilt?limit=100');
        const vc = await get<{ all: number; events: Item[] }>('/events/vc?limit=100');
        const archived = await get<{ all: number }>('/events/vc?status=archived');
        // Both kinds; past and upcoming; bundles (offers appear in lists); registrations and attendance.
        assert.ok(ilt.all >= 5 && vc.all >= 3, `${ilt.all} ilt, ${vc.all} vc`);
        assert.equal(archived.all, 1, 'the past auto-archived webinar');
        assert.ok(
          ilt.events.some((e) => e.status === 'Completed' && e.completed > 0),
          'a completed event with attendance',
        );
        assert.ok(
          ilt.events.some((e) => e.status === 'Upcoming' && e.registered > 0),
          'an upcoming event with registrations',
        );
        const bundled = ilt.events.find((e) => e.registered === 3) as Item;
        const offers = await get<unknown[]>(`/events/ilt/${bundled.id}/offers`);
        assert.equal(offers.length, 3);
        const users = await get<unknown[]>('/users?limit=100');
        assert.ok(users.length >= 12, 'at least 12 users');
      }
    });

    // A pseudo-terminal from script(1) (util-linux, in every Debian): the bar is drawn only on a terminal.
    const onTerminal = (...args: string[]) => {
      const command = [process.execPath, CLI, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
      return new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn('script', ['-qfec', command, '/dev/null'], {
          cwd: ROOT,
          env: { ...process.env, ...db.env, DATABASE_URL: db.env.DATABASE_URL ?? '' },
        });
        let output = '';
        child.stdout.on('data', (d) => {
          output += d;
        });
        child.on('exit', (code) => resolve({ code, output: output.replaceAll('\r', '') }));
      });
    };

    it('seed --employees N on a terminal draws a progress bar and ends with a summary; with --json, only JSON', async () => {
      const run = await onTerminal('seed', '--employees', '130');
      assert.equal(run.code, 0, run.output);
      assert.match(run.output, /employees +\[[█░]+\] 130\/130 100%/);
      assert.match(
        run.output,
        /made or updated \(HR\): 8 organizations, 1 organization group, 130 employees, 3 roles,.* 1 process template, 0 processes, 0 tasks, 2 document generation templates, 1 saml identity provider; and the demo academy\n/,
      );
      const creds = JSON.parse(run.output.slice(run.output.indexOf('{'))) as Seed;
      const employees = await demoEmployees(server.url, await token(server.url, creds.hr));
      assert.equal(employees.length, 130, '30 more than the small size made, the first 100 updated in place');

      const quiet = await onTerminal('seed', '--employees', '130', '--json');
      assert.equal(quiet.code, 0, quiet.output);
      assert.equal(quiet.output.trim().split('\n').length, 1, `only the JSON document: ${quiet.output}`);
      assert.deepEqual((JSON.parse(quiet.output) as { summary: unknown }).summary, {
        ...SMALL,
        employees: 130,
        employee_documents: 0,
        requests: 0,
        comments: 0,
        processes: 0,
        tasks: 0,
      });
    });

    it('hr import FILE imports a CSV into a client and waits for its end: counts, exit code, bar on a terminal', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-import-'));
      try {
        const orgs = path.join(dir, 'orgs.csv');
        fs.writeFileSync(orgs, '\ufeffid;name\r\ncli-hq;"CLI; head office"\r\n');
        const done = json<{ status: string; rows_count: number; created_objects_count: number }>(
          await atrium(db.env, 'hr', 'import', '--client-id', acme.client_id, '--type', 'organization', orgs, '--json'),
        );
        assert.equal(done.status, 'success');
        assert.equal(done.rows_count, 1);
        assert.equal(done.created_objects_count, 1);

        const employees = path.join(dir, 'employees.csv');
        const rows = ['external_id;firstname;lastname;email;organization_id;employee_number'];
        for (let i = 0; i < 40; i++) rows.push(`cli-${i};First${i};Last${i};cli.${i}@example.com;cli-hq;C${i}`);
        rows.push('cli-bad;;Nobody;not-an-email;cli-hq;CX');
        fs.writeFileSync(employees, `${rows.join('\n')}\n`);
        // One bad row: partial_success, exit 1, the document on stdout all the same.
        const partial = await atrium(
          db.env,
          'hr',
          'import',
          '--client-id',
          acme.client_id,
          '--type',
          'employee',
          employees,
          '--json',
        );
        assert.equal(partial.code, 1, partial.stderr);
        const result = JSON.parse(partial.stdout) as {
          id: string;
          status: string;
          rows_count: number;
          created_objects_count: number;
          errors_count: number;
        };
        assert.deepEqual(
          [result.status, result.rows_count, result.created_objects_count, result.errors_count],
          ['partial_success', 41, 40, 1],
        );
        const t = await token(server.url, acme);
        const listed = await fetch(`${server.url}/api/v2/client/employees?external_id=cli-7`, {
          headers: { authorization: `Bearer ${t}` },
        });
        const [seven] = (await listed.json()) as { email: string }[];
        assert.equal(seven?.email, 'cli.7@example.com');
        const errors = await fetch(`${server.url}/api/v2/client/imports/${result.id}/errors_report`, {
          headers: { authorization: `Bearer ${t}` },
        });
        assert.equal(errors.status, 200);
        assert.match(await errors.text(), /cli-bad|line/);

        // On a terminal: a bar, and the summary in words (the same rows again: updated).
        const shown = await onTerminal('hr', 'import', '--client-id', acme.client_id, '--type', 'employee', employees);
        assert.equal(shown.code, 1, shown.output);
        assert.match(shown.output, /rows +\[[█░]+\] 41\/41 100%/);
        assert.match(shown.output, /ended partial_success; 41 rows: 0 created, 40 updated, 1 failed\n/);
        assert.match(shown.output, /errors_report/);

        const unknown = await atrium(
          db.env,
          'hr',
          'import',
          '--client-id',
          'no-such-client',
          '--type',
          'employee',
          employees,
        );
        assert.equal(unknown.code, 1);
        assert.match(unknown.stderr, /client "no-such-client" was not found/);
        const missing = await atrium(
          db.env,
          'hr',
          'import',
          '--client-id',
          acme.client_id,
          '--type',
          'employee',
          path.join(dir, 'none.csv'),
        );
        assert.equal(missing.code, 1);
        assert.match(missing.stderr, /cannot read .*none\.csv: ENOENT/);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('revoke-application and rotate-signing-key take effect on the running server', async () => {
      const client = acme;
      const create = () =>
        atrium(db.env, 'hr', 'create-application', '--client-id', client.client_id, '--name', 'app', '--json');
      const doomed = json<{ client_id: string; application_id: string; application_secret: string }>(await create());
      const kept = json<{ client_id: string; application_id: string; application_secret: string }>(await create());
      const doomedToken = await token(server.url, doomed);
      const oldToken = await token(server.url, kept);
      const rotated = json<{ kid: string }>(await atrium(db.env, 'hr', 'rotate-signing-key', '--json'));
      assert.equal(
        json<{ revoked: boolean }>(
          await atrium(db.env, 'hr', 'revoke-application', '--application-id', doomed.application_id, '--json'),
        ).revoked,
        true,
      );
      await sleep(1000);
      assert.equal((await list(server.url, doomedToken)).status, 401);
      assert.equal((await list(server.url, oldToken)).status, 200, 'tokens of the old key stay valid');
      const newToken = await token(server.url, kept);
      assert.equal(decodeProtectedHeader(newToken).kid, rotated.kid);
      assert.equal((await list(server.url, newToken)).status, 200);
    });

    // Usage errors (exit 2) are tested once, without a database, in usage.test.ts.
    it('unknown ids exit 1 with a message', async () => {
      const unknown = await atrium(db.env, 'hr', 'revoke-application', '--application-id', 'nope');
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /not found/);
    });

    it('SIGTERM drains: an upload in flight completes, then the process exits 0', async () => {
      const bearer = await token(server.url, acme);
      const { hostname, port } = new URL(server.url);
      const content = Buffer.from('x'.repeat(64 * 1024));
      const half = content.length / 2;
      // Expect: 100-continue: the interim answer says the server has the request in hand (no guessing with a delay).
      const request = http.request({
        host: hostname,
        port: Number(port),
        method: 'POST',
        path: '/api/v2/client/uploads',
        headers: {
          authorization: `Bearer ${bearer}`,
          'content-type': 'application/octet-stream',
          'content-disposition': 'attachment; filename="drain.bin"',
          'content-length': String(content.length),
          expect: '100-continue',
        },
      });
      const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
        request.on('response', (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => {
            body += d;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        request.on('error', reject);
      });
      await new Promise<void>((resolve) => request.once('continue', () => resolve()));
      // First half of the file, then SIGTERM while the rest is still to come.
      await new Promise<void>((resolve) => request.write(content.subarray(0, half), () => resolve()));
      server.child.kill('SIGTERM');
      // Draining: the port stops taking connections (a health check is refused) while the upload is unfinished.
      let refused = false;
      for (let i = 0; !refused && i < 500; i++) {
        refused = await fetch(`${server.url}/healthz`).then(
          async (res) => {
            await res.body?.cancel();
            await sleep(20);
            return false;
          },
          () => true,
        );
      }
      assert.ok(refused, 'after SIGTERM the server stops accepting connections');
      assert.equal(server.child.exitCode, null, 'the process waits for the in-flight upload');
      for (let offset = half; offset < content.length; offset += 8 * 1024) {
        await new Promise<void>((resolve) =>
          request.write(content.subarray(offset, offset + 8 * 1024), () => resolve()),
        );
        await sleep(20);
      }
      request.end();
      const done = await response;
      assert.equal(done.status, 201, done.body);
      const upload = JSON.parse(done.body) as { filename: string; size: number };
      assert.equal(upload.filename, 'drain.bin');
      assert.equal(upload.size, content.length);
      assert.equal(await server.exited, 0);
    });
  });
}
