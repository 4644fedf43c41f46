/**
 * The validation proxy's departures in the admin API (`GET /admin/v1/proxy/departures`; docs/proxy.md, "In the
 * console"): no journal is an empty report; departures written through the proxy's own store are answered per
 * operation, as `atrium proxy report --json` prints them; a token scoped to tenants is refused (`outside_scope`), a
 * read-only one may read, and a call without credentials is a 401.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { DepartureStore, reportOf } from '../../src/admin/proxy/store.js';
import { dialects, hrCaller, startServer, type TestServer } from '../support/harness.js';

for (const dialect of dialects()) {
  describe(`the proxy's departures in the admin API (${dialect})`, () => {
    let server: TestServer;
    let full = '';
    const get = (token?: string) =>
      fetch(`${server.url}/admin/v1/proxy/departures`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });

    before(async () => {
      server = await startServer(dialect);
      full = (await server.app.services.adminTokens.create('full', 'cli')).token;
    });
    after(() => server.close());

    it('answers an empty report when the proxy has written no journal', async () => {
      assert.equal(server.config.proxyJournal, `${server.config.dataDir}/proxy.sqlite`);
      assert.equal(fs.existsSync(server.config.proxyJournal), false);
      const res = await get(full);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(await res.json(), { operations: [], departures: 0, calls: 0 });
      assert.equal(fs.existsSync(server.config.proxyJournal), false, 'reading made no file');
    });

    it('answers the departures the proxy wrote, per operation, as `atrium proxy report --json`', async () => {
      const store = new DepartureStore(server.config.proxyJournal);
      const example = { method: 'GET', path: '/api/v2/client/organizations/paris', status: 200 };
      const wrongType = {
        direction: 'response' as const,
        kind: 'wrong_type' as const,
        field: '/body/id',
        expected: 'string',
        actual: 'integer',
      };
      const at = Date.parse('2026-12-01T10:00:00Z');
      store.record('hr_organizations_retrieve', 'hr', [wrongType], example, at);
      store.record('hr_organizations_retrieve', 'hr', [wrongType], example, at + 60_000);
      store.record('hr_organizations_retrieve', 'hr', [], example, at + 120_000);
      store.record('hr_employees_list', 'hr', [], { ...example, path: '/api/v2/client/employees' }, at);
      const res = await get(full);
      assert.equal(res.status, 200);
      const body = (await res.json()) as Record<string, unknown>;
      assert.deepEqual(body, {
        operations: [
          {
            operation: 'hr_organizations_retrieve',
            api: 'hr',
            calls: 3,
            departing: 2,
            first_seen: '2026-12-01T10:00:00.000Z',
            last_seen: '2026-12-01T10:02:00.000Z',
            departures: [
              {
                ...wrongType,
                count: 2,
                first_seen: '2026-12-01T10:00:00.000Z',
                last_seen: '2026-12-01T10:01:00.000Z',
                example,
              },
            ],
          },
          {
            operation: 'hr_employees_list',
            api: 'hr',
            calls: 1,
            departing: 0,
            first_seen: '2026-12-01T10:00:00.000Z',
            last_seen: '2026-12-01T10:00:00.000Z',
            departures: [],
          },
        ],
        departures: 2,
        calls: 4,
      });
      // The proxy keeps writing while the server reads: the next call sees the new departure.
      store.record('hr_employees_list', 'hr', [{ ...wrongType, field: '/body/data/*/id' }], example, at);
      const again = (await (await get(full)).json()) as { departures: number };
      assert.equal(again.departures, 3);
      assert.deepEqual(again, reportOf(server.config.proxyJournal), 'the CLI report, the same');
      store.close();
    });

    it('refuses a token scoped to tenants (403 outside_scope), lets a read-only one read, and 401 without one', async () => {
      const tenant = `hr/${(await hrCaller(server)).creds.client_id}`;
      const tokens = server.app.services.adminTokens;
      const scoped = (await tokens.create('partner', 'cli', { tenants: [tenant], readOnly: false })).token;
      const res = await get(scoped);
      assert.equal(res.status, 403);
      assert.equal(((await res.json()) as { code: string }).code, 'outside_scope');
      const reader = (await tokens.create('viewer', 'cli', { tenants: null, readOnly: true })).token;
      assert.equal((await get(reader)).status, 200);
      const anonymous = await get();
      assert.equal(anonymous.status, 401);
      assert.equal(((await anonymous.json()) as { code: string }).code, 'invalid_token');
      assert.match(anonymous.headers.get('www-authenticate') ?? '', /^Bearer realm="atrium-admin"/);
    });
    it('answers 424 journal_unreadable when the file at the journal path is not a journal, and leaves it alone', async () => {
      const journal = server.config.proxyJournal;
      const saved = fs.readFileSync(journal);
      try {
        for (const bytes of [Buffer.from('not a database, a text file'), Buffer.alloc(0)]) {
          fs.writeFileSync(journal, bytes);
          const res = await get(full);
          assert.equal(res.status, 424);
          const body = (await res.json()) as { code: string; message: string };
          assert.equal(body.code, 'journal_unreadable');
          assert.match(body.message, /is not a journal atrium proxy wrote/);
          assert.deepEqual(fs.readFileSync(journal), bytes, 'the file is left as it was');
        }
      } finally {
        fs.writeFileSync(journal, saved);
      }
    });
  });
}
