import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AdminApiError, AdminClient, type LoggedCall } from '@atrium/client';
import {
  type NewLoggedCall,
  PG_ROWS_PER_INSERT,
  RequestLogRepository,
} from '../../src/admin/request-log/repository.js';
import { type AcademyCaller, academyCaller } from '../support/academy.js';
import { basic, dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

const REDACTED = '[REDACTED]';

for (const dialect of dialects()) {
  describe(`admin API: request log (${dialect})`, () => {
    let server: TestServer;
    let admin: AdminClient;
    let hr: HrCaller;
    let other: HrCaller;
    let academy: AcademyCaller;
    let tenant: string;

    /** Every logged call of a tenant, newest first, once what was called so far is written. */
    const logOf = async (of: string, filter = {}): Promise<LoggedCall[]> => {
      await server.app.services.requestLog.flush();
      return admin.requests.list(of, { limit: 200, ...filter }).toArray();
    };

    before(async () => {
      server = await startServer(dialect, { ATRIUM_REQUEST_LOG_BODY_BYTES: '512', ATRIUM_RATE_LIMIT: '0' });
      const { token } = await server.app.services.adminTokens.create('log', 'cli');
      admin = new AdminClient({ baseUrl: server.url, token, maxRetries: 0 });
      hr = await hrCaller(server);
      other = await hrCaller(server);
      academy = await academyCaller(server);
      tenant = `hr:${hr.creds.client_id}`;
    });
    after(() => server.close());

    it('records each call with its credential, operation, status, headers and bodies', async () => {
      const put = await hr.call('PUT', '/organizations/paris', { name: 'Paris', nickname: 'ignored member' });
      assert.equal(put.status, 201);
      const get = await hr.call('GET', '/organizations/paris?color=blue');
      assert.equal(get.status, 200);
      await other.call('GET', '/organizations');
      const calls = await logOf(tenant);
      const [read, write] = calls;
      assert.ok(read && write);
      assert.equal(read.method, 'GET');
      assert.equal(read.path, '/api/v2/client/organizations/paris?color=blue');
      assert.equal(read.operation_id, 'hr_organizations_retrieve');
      assert.equal(read.status, 200);
      assert.equal(read.credential_id, hr.creds.application_id);
      assert.deepEqual(read.ignored_parameters, ['color']);
      assert.equal(read.response.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal((JSON.parse(read.response.body ?? '') as { id: string }).id, 'paris');
      assert.ok(read.duration_ms >= 0);
      assert.equal(write.operation_id, 'hr_organizations_upsert');
      assert.equal(write.status, 201);
      assert.deepEqual(JSON.parse(write.request.body ?? ''), { name: 'Paris', nickname: 'ignored member' });
      assert.ok(
        calls.every((c) => c.credential_id === hr.creds.application_id),
        "only this tenant's calls",
      );
      const stored = await server.app.services.requestLogJournal
        .db()
        .selectFrom('request_log')
        .select(['tenant', 'status', 'operation_id'])
        .where('seq', '=', read.seq)
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        { ...stored, status: Number(stored.status) },
        {
          tenant,
          status: 200,
          operation_id: 'hr_organizations_retrieve',
        },
      );
      assert.deepEqual(await admin.requests.retrieve(tenant, read.seq), read);
    });

    it('redacts every kind of secret: Basic, Bearer, apikey in the query and a header, a secret in a body', async () => {
      const form = new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'client',
        client_id: hr.creds.client_id,
        client_secret: hr.creds.application_secret,
      });
      const tokenRes = await fetch(`${server.url}/api/v2/client/tokens`, {
        method: 'POST',
        headers: { authorization: basic(hr.creds), 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      });
      assert.equal(tokenRes.status, 200);
      const { access_token } = (await tokenRes.json()) as { access_token: string };
      await fetch(`${server.url}/api/v2/client/organizations?access_token=${access_token}`);
      await hr.call('POST', '/users', {
        firstname: 'Ada',
        lastname: 'L',
        email: 'ada@example.com',
        application_secret: hr.creds.application_secret,
      });
      await academy.call('GET', '/users');
      await fetch(`${server.url}/v1/users?acadId=${academy.acadId}`, { headers: { 'x-api-key': academy.apikey } });

      const calls = await logOf(tenant);
      const text = JSON.stringify(calls);
      for (const secret of [hr.creds.application_secret, access_token, hr.token]) assert.ok(!text.includes(secret));
      const tokenCall = calls.find((c) => c.operation_id === 'hr_tokens_create' || c.path === '/api/v2/client/tokens');
      assert.ok(tokenCall, 'the token call is logged, as its client');
      assert.equal(tokenCall.request.headers.authorization, `Basic ${REDACTED}`);
      assert.match(tokenCall.request.body ?? '', new RegExp(`client_secret=${REDACTED.replace(/[[\]]/g, '\\$&')}`));
      assert.match(tokenCall.response.body ?? '', /"access_token":"\[REDACTED\]"/);
      const queried = calls.find((c) => c.path.startsWith('/api/v2/client/organizations?access_token='));
      assert.equal(queried?.path, `/api/v2/client/organizations?access_token=${REDACTED}`);
      const bearer = calls.find((c) => c.operation_id === 'hr_users_create');
      assert.equal(bearer?.request.headers.authorization, `Bearer ${REDACTED}`);
      assert.match(bearer?.request.body ?? '', /"application_secret":"\[REDACTED\]"/);

      const academyCalls = await logOf(`academy:${academy.acadId}`);
      const academyText = JSON.stringify(academyCalls);
      assert.ok(!academyText.includes(academy.apikey));
      assert.equal(academyCalls.length, 2);
      assert.ok(academyCalls.some((c) => c.path.includes(`apikey=${REDACTED}`)));
      assert.ok(academyCalls.some((c) => c.request.headers['x-api-key'] === REDACTED));
      assert.ok(academyCalls.every((c) => c.credential_id !== null));
    });

    it('caps bodies at ATRIUM_REQUEST_LOG_BODY_BYTES, and says so', async () => {
      const description = 'x'.repeat(250);
      const fields = { name: 'Big', description, address1: description, address2: description, city: description };
      assert.equal((await hr.call('PUT', '/organizations/big', fields)).status, 201);
      const [call] = await logOf(tenant, { operation_id: 'hr_organizations_upsert', limit: 1 });
      assert.ok(call);
      assert.equal(call.request.body_truncated, true);
      const sent = Buffer.byteLength(JSON.stringify(fields));
      const marker = `…[cut: ${sent} bytes in all]`;
      assert.ok(call.request.body?.endsWith(marker), 'a cut body ends with a marker giving its size');
      assert.equal(Buffer.byteLength(call.request.body ?? '') - Buffer.byteLength(marker), 512);
      assert.equal(call.response.body_truncated, true);
      assert.match(call.response.body ?? '', /…\[cut: \d+ bytes in all\]$/);
      assert.ok(Buffer.byteLength((call.response.body ?? '').replace(/…\[cut: \d+ bytes in all\]$/, '')) <= 512);
    });

    it('filters and pages; answers 4xx for a bad cursor, a bad date, an unknown tenant or call', async () => {
      for (let i = 0; i < 5; i++) await hr.call('GET', `/organizations/missing-${i}`);
      const missing = await logOf(tenant, { status: '4xx', operation_id: 'hr_organizations_retrieve' });
      assert.equal(missing.length, 5);
      assert.ok(missing.every((c) => c.status === 404));
      assert.deepEqual(
        missing.map((c) => c.path),
        [4, 3, 2, 1, 0].map((i) => `/api/v2/client/organizations/missing-${i}`),
      );
      const pages = [];
      for await (const page of admin.requests.list(tenant, { status: 404, limit: 2 }).pages())
        pages.push(page.items.length);
      assert.deepEqual(pages, [2, 2, 1]);
      assert.equal((await logOf(tenant, { method: 'PUT' })).length, 2);
      assert.equal((await logOf(tenant, { path: '/api/v2/client/organizations/missing-' })).length, 5);
      assert.equal((await logOf(tenant, { since: '2999-01-01T00:00:00Z' })).length, 0);
      const code = async (path: string) => {
        const error = await admin.request('GET', path).catch((e: unknown) => e);
        assert.ok(error instanceof AdminApiError, path);
        return error.status;
      };
      const base = `/tenants/hr/${hr.creds.client_id}/requests`;
      assert.equal(await code(`${base}?cursor=nope`), 400);
      assert.equal(await code(`${base}?since=yesterday`), 400);
      assert.equal(await code(`${base}?status=600`), 400);
      assert.equal(await code(`${base}?limit=201`), 400);
      assert.equal(await code(`${base}?color=red`), 400);
      assert.equal(await code('/tenants/hr/nobody/requests'), 404);
      assert.equal(await code(`${base}/999999999`), 404);
      const otherSeq = (await logOf(`hr:${other.creds.client_id}`))[0]?.seq as number;
      assert.equal(await code(`${base}/${otherSeq}`), 404, "another tenant's call is not found");
    });

    it('tails the log live (Server-Sent Events): a call made after subscribing arrives', async () => {
      const controller = new AbortController();
      const received: LoggedCall[] = [];
      const tail = (async () => {
        for await (const call of admin.requests.tail(tenant, { signal: controller.signal })) {
          received.push(call);
          if (call.path.endsWith('/organizations/tailed')) controller.abort();
        }
      })();
      // The tail starts after the newest call: give it a moment to subscribe, then call.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await hr.call('PUT', '/organizations/tailed', { name: 'Tailed' });
      await tail;
      assert.equal(received.at(-1)?.path, '/api/v2/client/organizations/tailed');
      assert.ok(
        received.every((c) => !c.path.includes('missing-')),
        'only calls after subscribing',
      );
      const raw = await fetch(`${server.url}/admin/v1/tenants/hr/nobody/requests/tail`, {
        headers: { authorization: 'Bearer atrium_admin_x' },
      });
      assert.equal(raw.status, 401);
    });

    it('writes a batch larger than one PostgreSQL insert: every call, in order, each field as given', async () => {
      const repo = new RequestLogRepository(server.app.services.requestLogJournal, server.app.database.db);
      const batch = `hr:batch-${dialect}`;
      const count = PG_ROWS_PER_INSERT * 2 + 37;
      const calls: NewLoggedCall[] = Array.from({ length: count }, (_, i) => ({
        tenant: batch,
        credentialId: i % 3 === 0 ? null : `app-${i}`,
        at: 1_700_000_000_000 + i,
        // The tenant's clock moved a day on for every other call.
        tenantAt: 1_700_000_000_000 + i + (i % 2 === 0 ? 0 : 86_400_000),
        method: i % 2 === 0 ? 'GET' : 'POST',
        path: `/api/v2/client/organizations/o${i}`,
        operationId: i % 5 === 0 ? null : 'hr_organizations_retrieve',
        status: 200 + (i % 7),
        durationMs: i / 8,
        requestHeaders: { 'x-call': String(i) },
        requestBody: i % 4 === 0 ? null : `{"n":${i}}`,
        responseHeaders: { 'content-type': 'application/json' },
        responseBody: `{"id":"o${i}"}`,
        faultId: i === count - 1 ? 'fault-1' : null,
        flags: {
          extension: false,
          deprecated: i % 11 === 0,
          ignored: i % 13 === 0 ? ['color'] : [],
          requestTruncated: false,
          responseTruncated: i % 17 === 0,
        },
      }));
      await repo.insert(calls);
      const stored = await repo.list(batch, {}, 1000);
      assert.equal(stored.length, count, 'every call of the batch');
      assert.deepEqual(
        stored.reverse().map(({ seq: _, ...c }) => c),
        calls,
        'in the order given (seq ascending), each field as given',
      );
      assert.ok(stored.every((c, i) => i === 0 || c.seq > (stored[i - 1]?.seq ?? 0)));
    });

    it('the hourly sweep deletes the calls past the retention, and each tenant usage follows', async () => {
      const recent = (await logOf(tenant)).length;
      assert.ok(recent > 5);
      // The batch above was made in 2023: past ATRIUM_REQUEST_LOG_RETENTION_HOURS.
      assert.ok((await server.app.services.requestLog.sweep()) >= PG_ROWS_PER_INSERT * 2 + 37);
      assert.equal((await logOf(tenant)).length, recent, 'the recent calls stay');
      const db = server.app.services.requestLogJournal.db();
      const usage = async (of: string) => {
        const u = await db.selectFrom('request_log_usage').selectAll().where('tenant', '=', of).executeTakeFirst();
        return { calls: Number(u?.calls ?? 0), bytes: Number(u?.bytes ?? 0) };
      };
      assert.deepEqual(await usage(`hr:batch-${dialect}`), { calls: 0, bytes: 0 });
      const rows = await db.selectFrom('request_log').select('bytes').where('tenant', '=', tenant).execute();
      assert.deepEqual(await usage(tenant), {
        calls: rows.length,
        bytes: rows.reduce((sum, r) => sum + Number(r.bytes), 0),
      });
    });
  });
}

describe('admin API: request log off (ATRIUM_REQUEST_LOG=0)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('sqlite', { ATRIUM_REQUEST_LOG: '0' });
  });
  after(() => server.close());

  it('records nothing', async () => {
    const hr = await hrCaller(server);
    await hr.call('GET', '/organizations');
    await server.app.services.requestLog.flush();
    const rows = await server.app.services.requestLogJournal.db().selectFrom('request_log').selectAll().execute();
    assert.deepEqual(rows, []);
  });
});
