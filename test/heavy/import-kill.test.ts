/**
 * A CSV import across SIGKILL (issue 19): the built server is killed in the middle of a 20,000-row employee import,
 * then restarted; the import finishes, and every row is applied exactly once (one employee, one audit event and one
 * settled row each). And on PostgreSQL, two servers share the imports of two clients; the first dies in the middle,
 * the second finishes both, each row once. In `test:heavy`: about a minute on SQLite and three on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Served } from '../support/cli.js';
import { dialects, freshDatabase, type TestDatabase } from '../support/harness.js';
import { appliedOnce, FAST, serve, tenants, until } from '../support/sync.js';

/** A CSV of `n` employees of the organization `paris`, `prefix-0` … */
function employeesCsv(n: number, prefix: string): string {
  const rows = ['external_id;firstname;lastname;email;organization_id;employee_number'];
  for (let i = 0; i < n; i++) rows.push(`${prefix}-${i};F${i};L${i};${prefix}-${i}@example.com;paris;${prefix}-${i}`);
  return `${rows.join('\r\n')}\r\n`;
}

for (const dialect of dialects()) {
  describe(`a CSV import across SIGKILL (${dialect})`, () => {
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

    it('a 20,000-row import killed midway finishes after a restart with each row applied once', async () => {
      const [hr] = await tenants(env, 1);
      assert.ok(hr);
      server = await serve(env);
      await hr.login(server.url);
      await hr.call(server.url, 'PUT', '/organizations/paris', { name: 'Paris' });
      const n = 20_000;
      const csv = employeesCsv(n, 'imp');
      const uploaded = await hr.upload(server.url, Buffer.from(csv), 'employees.csv');
      const created = await hr.call<{ id: string; status: string }>(server.url, 'POST', '/imports', {
        type: 'employee',
        uploaded_file: { file_id: uploaded },
      });
      assert.equal(created.status, 201);
      const id = created.body.id;
      const url = server.url;
      const progress = async (at: string) =>
        (await hr.call<{ status: string; created_objects_count: number }>(at, 'GET', `/imports/${id}`)).body;
      await until(async () => (await progress(url)).created_objects_count >= 1000, '1,000 rows applied');
      server.child.kill('SIGKILL');
      await server.exited;

      server = await serve(env);
      const restarted = server.url;
      const cut = await progress(restarted);
      assert.equal(cut.status, 'in_progress', 'the kill left the import unfinished');
      assert.ok(cut.created_objects_count < n, `the kill came before the end (${cut.created_objects_count} applied)`);
      await until(async () => (await progress(restarted)).status === 'success', 'the import to finish', 600_000);
      const done = await hr.call<Record<string, unknown>>(restarted, 'GET', `/imports/${id}`);
      assert.deepEqual(
        [
          done.body.rows_count,
          done.body.created_objects_count,
          done.body.updated_objects_count,
          done.body.errors_count,
        ],
        [n, n, 0, 0],
      );
      await appliedOnce(env, hr.clientId, n, 'imp');
    });
  });
}

describe('CSV imports shared by two servers on PostgreSQL, one killed', {
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

  it('two clients’ imports of 5,000 rows, one posted to each server; the first server dies; both end once', async () => {
    const clients = await tenants(env, 2);
    const first = await serve(env);
    const second = await serve(env);
    servers.push(first, second);
    const n = 5_000;
    const ids: string[] = [];
    for (const [i, hr] of clients.entries()) {
      const url = i === 0 ? first.url : second.url;
      await hr.login(url);
      await hr.call(url, 'PUT', '/organizations/paris', { name: 'Paris' });
      const uploaded = await hr.upload(url, Buffer.from(employeesCsv(n, `two${i}`)), 'employees.csv');
      const created = await hr.call<{ id: string }>(url, 'POST', '/imports', {
        type: 'employee',
        uploaded_file: { file_id: uploaded },
      });
      assert.equal(created.status, 201);
      ids.push(created.body.id);
    }
    const progress = async (i: number) =>
      (
        await (clients[i] as (typeof clients)[number]).call<{ status: string; created_objects_count: number }>(
          second.url,
          'GET',
          `/imports/${ids[i]}`,
        )
      ).body;
    await until(async () => (await progress(0)).created_objects_count >= 500, '500 rows of the first import');
    first.child.kill('SIGKILL');
    await first.exited;
    await until(
      async () => (await progress(0)).status === 'success' && (await progress(1)).status === 'success',
      'both imports to end on the surviving server',
      600_000,
    );
    for (const [i, hr] of clients.entries()) {
      const done = await hr.call<Record<string, unknown>>(second.url, 'GET', `/imports/${ids[i]}`);
      assert.deepEqual(
        [
          done.body.rows_count,
          done.body.created_objects_count,
          done.body.updated_objects_count,
          done.body.errors_count,
        ],
        [n, n, 0, 0],
      );
      await appliedOnce(env, hr.clientId, n, `two${i}`);
    }
  });
});
