/**
 * Bulk calls across SIGKILL (docs/hr-api.md, "Bulk calls"): the built server (`node dist/cli/main.js serve`) is
 * killed in the middle of a call of 1,000 employees, then restarted; the call completes, and every item is applied
 * exactly once (one employee and one audit event each). On PostgreSQL, two server processes share the calls of four
 * clients, one of them is killed midway, and still every item is applied once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Served } from '../support/cli.js';
import { dialects, freshDatabase, type TestDatabase } from '../support/harness.js';

import { appliedOnce, FAST, serve, tenants, until } from '../support/sync.js';

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
