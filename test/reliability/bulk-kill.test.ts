/**
 * Bulk calls across SIGKILL (docs/hr-api.md, "Bulk calls"): the built server (`node dist/cli/main.js serve`) is
 * killed in the middle of a call of 1,000 employees, then restarted; the call completes, and every item is applied
 * exactly once (one employee and one audit event each). On PostgreSQL, two server processes share the calls of four
 * clients, one of them is killed midway, and still every item is applied once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServices } from '../../src/app.js';
import { loadConfig } from '../../src/platform/config.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { type Served, serve as serveBuilt } from '../support/cli.js';
import { dialects, freshDatabase, sleep, type TestDatabase } from '../support/harness.js';

const serve = (env: Record<string, string>, ...args: string[]) => serveBuilt({ ...env, LOG_LEVEL: 'error' }, ...args);

const FAST = { ATRIUM_JOB_POLL_MS: '25', ATRIUM_JOB_LEASE_MS: '1500', ATRIUM_RATE_LIMIT: '0' };

interface Status {
  summary: { total: number; processed: number; success: number; failed: number; status: string };
  results: { index: number; status: string; Result?: { id: string; external_id: string } }[];
}

/** Clients with an application each, made the way the CLI makes them, and a caller of the HR API for each. */
async function tenants(env: Record<string, string>, count: number) {
  const config = loadConfig(env);
  const database = openDatabase(config);
  await migrateToLatest(database);
  const services = await createServices(database, config);
  const made = [];
  for (let i = 0; i < count; i++) {
    const client = await services.tenants.createClient(`Bulk reliability ${i}`);
    const app = await services.tenants.createApplication(client.client_id, 'sync', false);
    made.push({ client, app });
  }
  await database.close();
  return made.map(({ client, app }) => {
    let bearer = '';
    const caller = {
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
        bearer = ((await res.json()) as { access_token: string }).access_token;
      },
      async call<T>(url: string, method: string, p: string, body?: unknown): Promise<{ status: number; body: T }> {
        const res = await fetch(`${url}/api/v2/client${p}`, {
          method,
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: res.status, body: (await res.json()) as T };
      },
      /** Sets the organization up and sends a bulk POST of `n` employees; answers its request id. */
      async submit(url: string, n: number, prefix: string): Promise<string> {
        await caller.call(url, 'PUT', '/organizations/paris', { name: 'Paris' });
        const items = Array.from({ length: n }, (_, i) => ({
          external_id: `${prefix}-${i}`,
          firstname: `F${i}`,
          lastname: `L${i}`,
          email: `${prefix}-${i}@example.com`,
          registration_references: [{ organization_id: 'paris', employee_number: `${prefix}-${i}` }],
        }));
        const res = await caller.call<{ request_id: string }>(url, 'POST', '/employees/bulk', items);
        assert.equal(res.status, 200);
        return res.body.request_id;
      },
      status: async (url: string, id: string) => (await caller.call<Status>(url, 'GET', `/employees/bulk/${id}`)).body,
    };
    return caller;
  });
}

async function until(check: () => Promise<boolean>, what: string, boundMs = 120_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > boundMs) assert.fail(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Every employee and `employee.created` event of a client, counted by external id: each must be there once. */
async function appliedOnce(env: Record<string, string>, clientId: string, n: number, prefix: string): Promise<void> {
  const database = openDatabase(loadConfig(env));
  try {
    const employees = await database.db
      .selectFrom('hr_employees')
      .select('external_id')
      .where('client_id', '=', clientId)
      .execute();
    const expected = Array.from({ length: n }, (_, i) => `${prefix}-${i}`).sort();
    assert.deepEqual(employees.map((e) => e.external_id).sort(), expected, 'each employee once');
    const events = await database.db
      .selectFrom('hr_events')
      .select('resource_id')
      .where('client_id', '=', clientId)
      .where('type', '=', 'employee.created')
      .execute();
    assert.equal(events.length, n, 'one audit event per employee');
    assert.equal(new Set(events.map((e) => e.resource_id)).size, n);
    const items = await database.db
      .selectFrom('hr_bulk_items')
      .select(['status', 'outcome'])
      .where('client_id', '=', clientId)
      .execute();
    assert.equal(items.length, n);
    assert.ok(items.every((i) => i.status === 'success' && i.outcome === 'created'));
  } finally {
    await database.close();
  }
}

for (const dialect of dialects()) {
  describe(`a bulk call across SIGKILL (${dialect})`, () => {
    let db: TestDatabase;
    let server: Served | undefined;
    const env: Record<string, string> = {};

    before(async () => {
      db = await freshDatabase(dialect);
      Object.assign(env, db.env, FAST);
    });
    after(async () => {
      if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
      await server?.exited;
      await db.drop();
    });

    it('killed midway and restarted, the call completes with each of its 1,000 items applied once', async () => {
      const [hr] = await tenants(env, 1);
      assert.ok(hr);
      server = await serve(env);
      await hr.login(server.url);
      const id = await hr.submit(server.url, 1000, 'kill');
      const url = server.url;
      await until(async () => (await hr.status(url, id)).summary.processed >= 100, '100 items applied');
      server.child.kill('SIGKILL');
      await server.exited;

      server = await serve(env);
      const restarted = server.url;
      const cut = await hr.status(restarted, id);
      assert.equal(cut.summary.status, 'in_progress', 'the kill left the call unfinished');
      assert.ok(cut.summary.processed < 1000, `the kill came before the end (${cut.summary.processed} applied)`);
      await until(async () => (await hr.status(restarted, id)).summary.status === 'completed', 'the call to complete');
      const done = await hr.status(restarted, id);
      assert.deepEqual(done.summary, { total: 1000, processed: 1000, success: 1000, failed: 0, status: 'completed' });
      assert.deepEqual(
        done.results.map((r) => r.index),
        Array.from({ length: 1000 }, (_, i) => i),
      );
      await appliedOnce(env, hr.clientId, 1000, 'kill');
    });
  });
}

describe('two processes on PostgreSQL share bulk calls, one killed midway, each item applied once', {
  skip: !dialects().includes('postgres'),
}, () => {
  let db: TestDatabase;
  const servers: Served[] = [];
  const env: Record<string, string> = {};

  before(async () => {
    db = await freshDatabase('postgres');
    Object.assign(env, db.env, FAST);
  });
  after(async () => {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    await db.drop();
  });

  it('four clients’ calls of 250 employees on two servers; the first server dies; all complete once', async () => {
    const clients = await tenants(env, 4);
    const first = await serve(env);
    const second = await serve(env);
    servers.push(first, second);
    const ids: string[] = [];
    for (const [i, hr] of clients.entries()) {
      const url = i % 2 === 0 ? first.url : second.url;
      await hr.login(url);
      ids.push(await hr.submit(url, 250, `pg${i}`));
    }
    const processed = async () => {
      let sum = 0;
      for (const [i, hr] of clients.entries()) sum += (await hr.status(second.url, ids[i] as string)).summary.processed;
      return sum;
    };
    await until(async () => (await processed()) >= 200, '200 items applied');
    first.child.kill('SIGKILL');
    await first.exited;
    await until(async () => {
      for (const [i, hr] of clients.entries()) {
        if ((await hr.status(second.url, ids[i] as string)).summary.status !== 'completed') return false;
      }
      return true;
    }, 'every call to complete on the surviving server');
    for (const [i, hr] of clients.entries()) {
      const done = await hr.status(second.url, ids[i] as string);
      assert.deepEqual(done.summary, { total: 250, processed: 250, success: 250, failed: 0, status: 'completed' });
      await appliedOnce(env, hr.clientId, 250, `pg${i}`);
    }
  });
});
