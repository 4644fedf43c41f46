/**
 * Issue 49, process roles (docs/SCALING.md, "Process roles"): `atrium serve --role api|jobs|all` (`ATRIUM_ROLE`).
 * A `jobs` process serves no route (its port answers the health checks only); an `api` process claims no job, so
 * work created through it stays pending until a `jobs` process runs it. Both on PostgreSQL, with the built
 * command; on SQLite, `api` and `jobs` are refused at start.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServices } from '../../src/app.js';
import { loadConfig } from '../../src/platform/config.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { hrTenantId } from '../../src/platform/db/tenant.js';
import { atrium, type Served, serve } from '../support/cli.js';
import { dialects, freshDatabase, type TestDatabase } from '../support/harness.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

/** A client with an application, made as the CLI makes them, and a caller of the HR API at any process's URL. */
async function tenant(env: Record<string, string>) {
  const config = loadConfig(env);
  const database = openDatabase(config);
  await migrateToLatest(database);
  const services = await createServices(database, config);
  const client = await services.tenants.createClient('Roles');
  const app = await services.tenants.createApplication(hrTenantId(client.client_id), 'sync', false);
  await database.close();
  let bearer = '';
  return {
    clientId: client.client_id,
    async login(url: string) {
      const res = await fetch(`${url}/api/v2/client/tokens`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${app.application_id}:${app.application_secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: `grant_type=client_credentials&scope=client&client_id=${client.client_id}`,
      });
      assert.equal(res.status, 200);
      bearer = ((await res.json()) as { access_token: string }).access_token;
    },
    call(url: string, method: string, p: string, body?: unknown) {
      return fetch(`${url}/api/v2/client${p}`, {
        method,
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    },
  };
}

/** The jobs of the database, oldest first. */
async function jobs(env: Record<string, string>) {
  const database = openDatabase(loadConfig(env));
  try {
    return await database.db
      .selectFrom('jobs')
      .select(['id', 'queue', 'status', 'attempts', 'locked_by'])
      .orderBy('id')
      .execute();
  } finally {
    await database.close();
  }
}

async function stop(server: Served | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  await server.exited;
}

describe('process roles on SQLite', () => {
  let db: TestDatabase;
  before(async () => {
    db = await freshDatabase('sqlite');
  });
  after(() => db.drop());

  it('refuses --role api and ATRIUM_ROLE=jobs at start, with the reason and the way out', async () => {
    for (const [env, args] of [
      [{}, ['--role', 'api']],
      [{ ATRIUM_ROLE: 'jobs' }, []],
    ] as const) {
      const run = await atrium({ ...db.env, ...env }, 'serve', '--port', '0', ...args);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /needs PostgreSQL \(DATABASE_URL\).*use --role all/);
      assert.equal(run.stdout, '', 'nothing listened');
    }
  });

  it('refuses a role that is none of all, api and jobs', async () => {
    const flag = await atrium(db.env, 'serve', '--role', 'worker');
    assert.equal(flag.code, 2, flag.stderr);
    assert.match(flag.stderr, /--role.*must be all, api or jobs/);
    const variable = await atrium({ ...db.env, ATRIUM_ROLE: 'worker' }, 'serve');
    assert.equal(variable.code, 1, variable.stderr);
    assert.match(variable.stderr, /ATRIUM_ROLE must be all, api or jobs, got "worker"/);
  });
});

describe('process roles on PostgreSQL', { skip: !dialects().includes('postgres') }, () => {
  let db: TestDatabase;
  let receiver: Receiver;
  const env: Record<string, string> = {};
  const servers: Served[] = [];

  before(async () => {
    db = await freshDatabase('postgres');
    Object.assign(env, db.env, { ATRIUM_JOB_POLL_MS: '20', ATRIUM_RATE_LIMIT: '0' });
    receiver = await startReceiver([200]);
  });
  after(async () => {
    for (const s of servers) await stop(s);
    await receiver.close();
    await db.drop();
  });

  it('a jobs process serves no route: its port answers /healthz, /readyz and /version, every other path 404s', async () => {
    const jobsProcess = await serve(env, '--role', 'jobs');
    servers.push(jobsProcess);
    assert.match(jobsProcess.firstLine, /\(postgres, role jobs\); background jobs only, health at .*\/healthz$/);
    const url = jobsProcess.url;
    const health = await fetch(`${url}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: 'ok' });
    const ready = await fetch(`${url}/readyz`);
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), { status: 'ok', database: 'postgres' });
    assert.equal((await fetch(`${url}/version`)).status, 200);
    for (const [method, path] of [
      ['GET', '/api/v2/client/organizations'],
      ['POST', '/api/v2/client/tokens'],
      ['GET', '/v1/events'],
      ['GET', '/admin/v1/tenants'],
      ['GET', '/console'],
      ['GET', '/docs'],
      ['GET', '/openapi.json'],
      ['GET', '/'],
      ['GET', '/metrics'],
    ] as const) {
      const res = await fetch(`${url}${path}`, { method });
      assert.equal(res.status, 404, `${method} ${path}`);
      const body = (await res.json()) as { code: string; message: string };
      assert.equal(body.code, 'not_found', `${method} ${path}`);
      assert.match(body.message, /background jobs only/);
    }
    await stop(jobsProcess);
  });

  it('an api process claims no job: a delivery made through it stays pending until a jobs process runs it', async () => {
    const hr = await tenant(env);
    const api = await serve(env, '--role', 'api');
    servers.push(api);
    assert.match(api.firstLine, /\(postgres, role api\); API reference at /);
    await hr.login(api.url);
    const hook = await hr.call(api.url, 'POST', '/webhooks', {
      name: 'roles',
      callback_url: receiver.url,
      events: ['organization.created'],
      is_active: true,
    });
    assert.equal(hook.status, 201);
    // Each write enqueues a delivery and wakes the process's runner after its commit (an `all` process would
    // claim it at once); the next write is answered after that wake-up.
    for (let i = 0; i < 10; i++) {
      const res = await hr.call(api.url, 'PUT', `/organizations/role-${i}`, { name: `Role ${i}` });
      assert.equal(res.status, 201);
      await res.arrayBuffer();
    }
    const read = await hr.call(api.url, 'GET', '/organizations');
    assert.equal(read.status, 200, 'the api process serves the API');
    await read.arrayBuffer();
    const waiting = (await jobs(env)).filter((j) => j.queue === 'webhook.delivery');
    assert.equal(waiting.length, 10);
    for (const job of waiting) {
      assert.deepEqual([job.status, job.attempts, job.locked_by], ['pending', 0, null], `job ${job.id}`);
    }
    assert.equal(receiver.received.length, 0, 'nothing was delivered');
    // The api process drains and exits (its close stops a runner, had one started): the jobs process is then the
    // only one that can run them.
    await stop(api);

    const worker = await serve(env, '--role', 'jobs');
    servers.push(worker);
    await receiver.waitFor(10, 60_000);
    const names = receiver.received.map((c) => (JSON.parse(c.body) as { data: { id: string } }).data.id);
    assert.deepEqual(
      names,
      Array.from({ length: 10 }, (_, i) => `role-${i}`),
      'every delivery, in order',
    );
    // The done rows are written after the receiver answered: stop the jobs process (it drains) before reading.
    await stop(worker);
    const done = (await jobs(env)).filter((j) => j.queue === 'webhook.delivery');
    for (const job of done) assert.deepEqual([job.status, job.attempts], ['done', 1], `job ${job.id}`);
  });
});
