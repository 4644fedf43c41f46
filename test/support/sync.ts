/** Helpers of the bulk and import crash tests: clients made as the CLI makes them, the built server, polling. */
import assert from 'node:assert/strict';
import { createServices } from '../../src/app.js';
import { loadConfig } from '../../src/platform/config.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { hrTenantId } from '../../src/platform/db/tenant.js';
import { serve as serveBuilt } from './cli.js';
import { sleep } from './harness.js';

export const serve = (env: Record<string, string>, ...args: string[]) =>
  serveBuilt({ ...env, LOG_LEVEL: 'error' }, ...args);

export const FAST = { ATRIUM_JOB_POLL_MS: '25', ATRIUM_JOB_LEASE_MS: '1500', ATRIUM_RATE_LIMIT: '0' };

interface Status {
  summary: { total: number; processed: number; success: number; failed: number; status: string };
  results: { index: number; status: string; Result?: { id: string; external_id: string } }[];
}

/** Clients with an application each, made the way the CLI makes them, and a caller of the HR API for each. */
export async function tenants(env: Record<string, string>, count: number) {
  const config = loadConfig(env);
  const database = openDatabase(config);
  await migrateToLatest(database);
  const services = await createServices(database, config);
  const made = [];
  for (let i = 0; i < count; i++) {
    const client = await services.tenants.createClient(`Bulk reliability ${i}`);
    const app = await services.tenants.createApplication(hrTenantId(client.client_id), 'sync', false);
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
      /** A GET's body as text (a CSV report). */
      async text(url: string, p: string): Promise<{ status: number; body: string }> {
        const res = await fetch(`${url}/api/v2/client${p}`, { headers: { authorization: `Bearer ${bearer}` } });
        return { status: res.status, body: await res.text() };
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
      /** POST /uploads with raw bytes; answers the upload id. */
      async upload(url: string, data: Buffer, filename: string): Promise<string> {
        const res = await fetch(`${url}/api/v2/client/uploads`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${bearer}`,
            'content-type': 'application/octet-stream',
            'content-disposition': `attachment; filename="${filename}"`,
          },
          body: data,
        });
        assert.equal(res.status, 201);
        return ((await res.json()) as { id: string }).id;
      },
      /** POST a multipart form (a template's document); answers the status and the JSON body. */
      async form<T>(url: string, p: string, form: FormData): Promise<{ status: number; body: T }> {
        const res = await fetch(`${url}/api/v2/client${p}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}` },
          body: form,
        });
        return { status: res.status, body: (await res.json()) as T };
      },
      /** A GET's body as bytes (a generated file). */
      async bytes(url: string, p: string): Promise<{ status: number; body: Uint8Array }> {
        const res = await fetch(`${url}/api/v2/client${p}`, { headers: { authorization: `Bearer ${bearer}` } });
        return { status: res.status, body: new Uint8Array(await res.arrayBuffer()) };
      },
      status: async (url: string, id: string) => (await caller.call<Status>(url, 'GET', `/employees/bulk/${id}`)).body,
    };
    return caller;
  });
}

export async function until(check: () => Promise<boolean>, what: string, boundMs = 120_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > boundMs) assert.fail(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Every employee and `employee.created` event of a client, counted by external id: each must be there once. */
export async function appliedOnce(
  env: Record<string, string>,
  clientId: string,
  n: number,
  prefix: string,
): Promise<void> {
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
