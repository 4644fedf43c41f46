import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import {
  AcademyServerError,
  AdminApiError,
  AdminClient,
  AtriumConnectionError,
  type FaultRule,
  HrClient,
  HrRateLimitError,
  HrServerError,
} from '@atrium/client';
import pg from 'pg';
import { type AcademyCaller, academyCaller } from '../support/academy.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { fetchOpenApi } from '../support/openapi.js';

/** A GET of the raw HTTP answer: status, headers, and how many chunks the body came in. */
function rawGet(
  url: string,
  token: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; chunks: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { authorization: `Bearer ${token}`, connection: 'close' } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(parts).toString('utf8'),
          chunks: parts.length,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

for (const dialect of dialects()) {
  describe(`admin API: faults (${dialect})`, () => {
    let server: TestServer;
    let admin: AdminClient;
    let hr: HrCaller;
    let other: HrCaller;
    let academy: AcademyCaller;
    let tenant: string;
    let sdk: HrClient;
    let adminToken: string;

    before(async () => {
      server = await startServer(dialect, { ATRIUM_RATE_LIMIT: '0' });
      const { token } = await server.app.services.adminTokens.create('faults', 'cli');
      admin = new AdminClient({ baseUrl: server.url, token, maxRetries: 0 });
      adminToken = token;
      hr = await hrCaller(server);
      other = await hrCaller(server);
      academy = await academyCaller(server);
      tenant = `hr:${hr.creds.client_id}`;
      sdk = new HrClient({
        baseUrl: server.url,
        clientId: hr.creds.client_id,
        applicationId: hr.creds.application_id,
        applicationSecret: hr.creds.application_secret,
        maxRetries: 0,
      });
      await hr.call('PUT', '/organizations/paris', { name: 'Paris' });
    });
    after(() => server.close());

    const clear = () => admin.faults.clear(tenant);

    it('a status rule answers in the API body with X-Atrium-Fault and Retry-After, for its count only', async () => {
      const rule = await admin.faults.create(tenant, {
        match: { operation_id: 'hr_organizations_list' },
        effect: { type: 'status', status: 503, retry_after_seconds: 1 },
        remaining_count: 2,
      });
      assert.equal(rule.remaining_count, 2);
      assert.equal(rule.match.api, 'hr');
      for (let i = 0; i < 2; i++) {
        const error = await sdk.organizations
          .list()
          .toArray()
          .catch((e: unknown) => e);
        assert.ok(error instanceof HrServerError, String(error));
        assert.equal(error.status, 503);
        assert.equal(error.code, 'service_unavailable');
        assert.equal(error.headers['x-atrium-fault'], rule.id);
        assert.equal(error.headers['retry-after'], '1');
      }
      // Spent: served again; another operation was never affected.
      assert.equal((await sdk.organizations.list().toArray()).length, 1);
      const one = await hr.call('GET', '/organizations/paris');
      assert.equal(one.status, 200);
      assert.equal(one.headers.get('x-atrium-fault'), null);
      const after = await admin.faults.retrieve(tenant, rule.id);
      assert.equal(after.remaining_count, 0);
      assert.equal(after.applied_count, 2);
      const row = await server.app.database.db
        .selectFrom('tenant_faults')
        .select(['remaining_count', 'applied_count'])
        .where('id', '=', rule.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual([Number(row.remaining_count), Number(row.applied_count)], [0, 2]);
      await clear();
    });

    it('a client that retries gets through a 429 rule with Retry-After', async () => {
      await admin.faults.create(tenant, {
        match: { method: 'GET', path: '/organizations' },
        effect: { type: 'status', status: 429, retry_after_seconds: 0 },
        remaining_count: 1,
      });
      const error = await sdk.organizations
        .list()
        .toArray()
        .catch((e: unknown) => e);
      assert.ok(error instanceof HrRateLimitError);
      assert.equal(error.code, 'rate_limited');
      await admin.faults.create(tenant, {
        match: { method: 'GET', path: '/organizations' },
        effect: { type: 'status', status: 429, retry_after_seconds: 0 },
        remaining_count: 1,
      });
      const retried: number[] = [];
      const list = await new HrClient({
        baseUrl: server.url,
        clientId: hr.creds.client_id,
        applicationId: hr.creds.application_id,
        applicationSecret: hr.creds.application_secret,
        maxRetries: 2,
        initialRetryDelayMs: 1,
        onRetry: (event) => retried.push(Number(event.reason)),
      }).organizations
        .list()
        .toArray();
      assert.equal(list.length, 1);
      assert.deepEqual(retried, [429]);
      await clear();
    });

    it('500, 502 and 504 in both APIs own bodies; another tenant is untouched', async () => {
      for (const status of [500, 502, 504] as const) {
        const rule = await admin.faults.create(tenant, { effect: { type: 'status', status } });
        const res = await hr.call('GET', '/organizations');
        assert.equal(res.status, status);
        assert.equal(res.headers.get('x-atrium-fault'), rule.id);
        const body = (await res.json()) as Record<string, unknown>;
        assert.deepEqual(Object.keys(body).sort(), ['code', 'message']);
        assert.equal(body.code, { 500: 'internal_error', 502: 'bad_gateway', 504: 'gateway_timeout' }[status]);
        assert.equal((await other.call('GET', '/organizations')).status, 200, 'another client');
        await clear();
      }
      const academyTenant = `academy:${academy.acadId}`;
      const rule = await admin.faults.create(academyTenant, {
        match: { api: 'academy', operation_id: 'academy_events_ilt_list' },
        effect: { type: 'status', status: 502 },
      });
      const res = await academy.call('GET', '/events/ilt');
      assert.equal(res.status, 502);
      assert.deepEqual(await res.json(), {
        status: 502,
        code: 'bad_gateway',
        message: `Injected by the fault rule ${rule.id} (Atrium's admin API).`,
      });
      const client = (await import('@atrium/client')).AcademyClient;
      const error = await new client({
        baseUrl: server.url,
        acadId: academy.acadId,
        apiKey: academy.apikey,
        maxRetries: 0,
      }).events.ilt
        .list()
        .toArray()
        .catch((e: unknown) => e);
      assert.ok(error instanceof AcademyServerError);
      assert.equal(error.headers['x-atrium-fault'], rule.id);
      assert.equal((await academy.call('GET', '/users')).status, 200, 'another operation');
      await admin.faults.clear(academyTenant);
    });

    it('latency delays the answer; reset drops the connection; slow_body trickles the whole body', async () => {
      const latency = await admin.faults.create(tenant, {
        match: { path: '/organizations/*' },
        effect: { type: 'latency', latency_ms: 300 },
      });
      const started = performance.now();
      const slow = await hr.call('GET', '/organizations/paris');
      // A lower bound only: the rule sleeps at least this long before serving the call.
      assert.ok(performance.now() - started >= 290);
      assert.equal(slow.status, 200);
      assert.equal(slow.headers.get('x-atrium-fault'), latency.id);
      assert.equal(((await slow.json()) as { id: string }).id, 'paris');
      const list = await hr.call('GET', '/organizations');
      assert.equal(list.headers.get('x-atrium-fault'), null, '/organizations does not match /organizations/*');
      await clear();

      await admin.faults.create(tenant, { match: { path: '/organizations/**' }, effect: { type: 'reset' } });
      const dropped = await sdk.organizations.retrieve('paris').catch((e: unknown) => e);
      assert.ok(dropped instanceof AtriumConnectionError, String(dropped));
      await clear();

      const trickle = await admin.faults.create(tenant, {
        match: { operation_id: 'hr_organizations_retrieve' },
        effect: { type: 'slow_body', bytes_per_second: 200 },
      });
      const plain = await rawGet(`${server.url}/api/v2/client/organizations/paris`, hr.token);
      await admin.faults.del(tenant, trickle.id);
      assert.equal(plain.status, 200);
      assert.equal(plain.headers['x-atrium-fault'], trickle.id);
      assert.equal(Number(plain.headers['content-length']), Buffer.byteLength(plain.body));
      assert.equal((JSON.parse(plain.body) as { id: string }).id, 'paris');
      assert.ok(plain.chunks >= Math.floor(Buffer.byteLength(plain.body) / 20), `${plain.chunks} chunks`);
      const again = await rawGet(`${server.url}/api/v2/client/organizations/paris`, hr.token);
      assert.equal(again.headers['x-atrium-fault'], undefined);
    });

    it('honours the probability over 1,000 calls, and stops at until', async () => {
      const rule = await admin.faults.create(tenant, {
        match: { operation_id: 'hr_organizations_retrieve' },
        effect: { type: 'status', status: 503 },
        probability: 0.3,
      });
      let faulted = 0;
      for (let i = 0; i < 1000; i++) {
        const res = await hr.call('GET', '/organizations/paris');
        await res.arrayBuffer();
        if (res.status === 503) faulted++;
        else assert.equal(res.status, 200);
      }
      // Binomial(1000, 0.3): mean 300, standard deviation 14.5; five deviations either way.
      assert.ok(faulted >= 228 && faulted <= 372, `${faulted} of 1000`);
      // A read counts every use before it, even with the periodic flush of the counts under way (started here).
      void server.app.services.faults.refresh();
      assert.equal((await admin.faults.retrieve(tenant, rule.id)).applied_count, faulted);
      await clear();

      await admin.faults.create(tenant, {
        effect: { type: 'status', status: 503 },
        until: '2001-01-01T00:00:00+00:00',
      });
      assert.equal((await hr.call('GET', '/organizations')).status, 200, 'a rule past its end applies no more');
      await clear();
    });

    it('a read of a rule waits for a flush of its uses already under way (PostgreSQL: the flush held by a row lock)', {
      skip: dialect !== 'postgres' && 'the flush is held by a row lock of another connection: PostgreSQL only',
    }, async () => {
      const rule = await admin.faults.create(tenant, {
        match: { operation_id: 'hr_organizations_retrieve' },
        effect: { type: 'status', status: 503 },
      });
      for (let i = 0; i < 5; i++) assert.equal((await hr.call('GET', '/organizations/paris')).status, 503);
      const locker = new pg.Client({ connectionString: server.env.DATABASE_URL });
      await locker.connect();
      try {
        await locker.query('begin');
        await locker.query('select 1 from tenant_faults where id = $1 for update', [rule.id]);
        // A first look at the statistics, before the flush (as on a slow machine): its snapshot must not hide the rest.
        await locker.query('select count(*) from pg_stat_activity');
        // A use counted after the lock is taken: the periodic flush (each second) may have written the first five
        // already, but not this one. Whichever flush takes it (the timer's or this refresh), its UPDATE waits.
        assert.equal((await hr.call('GET', '/organizations/paris')).status, 503);
        const flushing = server.app.services.faults.refresh();
        // Seen from the locker's connection: inside its transaction, the statistics are a snapshot taken once, so
        // each look clears it first. At most 500 looks: a failure here must not hold the lock for the next tests.
        let seen = false;
        for (let look = 0; look < 500 && !seen; look++) {
          await locker.query('select pg_stat_clear_snapshot()');
          const waiting = await locker.query(
            "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like 'update \"tenant_faults\"%'",
          );
          seen = (waiting.rowCount ?? 0) > 0;
          if (!seen) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        assert.ok(seen, 'the flush waits for the lock');
        const read = admin.faults.retrieve(tenant, rule.id);
        // Time enough for a read that does not wait to have answered, before the lock goes.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await locker.query('commit');
        await flushing;
        assert.equal((await read).applied_count, 6, 'the read saw every use counted before it');
      } finally {
        await locker.end();
      }
      await clear();
    });

    it("lists the operationIds a tenant's rule may name: its own API's in /openapi.json, each accepted", async () => {
      const doc = await fetchOpenApi(server.url);
      const documented = (prefix: string) =>
        Object.entries(doc.paths)
          .filter(([path]) => path.startsWith(prefix))
          .flatMap(([, item]) => Object.values(item).map((op) => String(op.operationId)))
          .sort();
      const academyTenant = `academy:${academy.acadId}`;
      for (const [address, prefix] of [
        [tenant, '/api/v2/client/'],
        [academyTenant, '/v1/'],
      ] as const) {
        const [kind, id] = address.split(':') as [string, string];
        const res = await fetch(`${server.url}/admin/v1/tenants/${kind}/${id}/operations`, {
          headers: { authorization: `Bearer ${adminToken}` },
        });
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
        const body = (await res.json()) as { operation_ids: string[] };
        assert.deepEqual(Object.keys(body), ['operation_ids']);
        assert.deepEqual(body.operation_ids, documented(prefix), `${kind}: every operation of its API, sorted`);
        assert.deepEqual(await admin.faults.operations(address), body.operation_ids, 'the SDK reads the same');
        // The first and the last are accepted by the create; the other API's are not.
        for (const operation_id of [body.operation_ids[0], body.operation_ids.at(-1)]) {
          await admin.faults.create(address, { match: { operation_id }, effect: { type: 'latency', latency_ms: 1 } });
        }
        await admin.faults.clear(address);
      }
      assert.ok((await admin.faults.operations(tenant)).includes('hr_organizations_list'));
      assert.ok(!(await admin.faults.operations(tenant)).some((id) => !id.startsWith('hr_')));
      const missing = await admin.faults.operations('hr:nobody').catch((e: unknown) => e);
      assert.ok(missing instanceof AdminApiError);
      assert.equal(missing.status, 404);
      const anonymous = await fetch(`${server.url}/admin/v1/tenants/${tenant.replace(':', '/')}/operations`);
      assert.equal(anonymous.status, 401);
    });

    it('answers 4xx for bad rules and unknown tenants or rules, and 401 without an operator token', async () => {
      const bad = async (body: unknown, status: number, field?: string) => {
        const error = await admin.faults.create(tenant, body as never).catch((e: unknown) => e);
        assert.ok(error instanceof AdminApiError, String(error));
        assert.equal(error.status, status, JSON.stringify(body));
        if (field)
          assert.ok(
            error.errors.some((e) => e.field === field),
            JSON.stringify(error.errors),
          );
      };
      await bad(
        { effect: { type: 'status', status: 503 }, match: { operation_id: 'hr_nothing' } },
        422,
        'match.operation_id',
      );
      await bad({ effect: { type: 'status', status: 503 }, match: { operation_id: 'academy_events_ilt_list' } }, 422);
      await bad({ effect: { type: 'status', status: 503 }, match: { api: 'academy' } }, 422, 'match.api');
      await bad({ effect: { type: 'status', status: 404 } }, 422);
      await bad({ effect: { type: 'latency', latency_ms: 0 } }, 422);
      await bad({ effect: { type: 'explode' } }, 422);
      for (const path of ['/../../v1/**', '/employees/..', '/./employees', '/a/./b']) {
        await bad({ effect: { type: 'reset' }, match: { path } }, 422, 'match.path');
      }
      const dotted = await admin.faults.create(tenant, { match: { path: '/file.v2/..x' }, effect: { type: 'reset' } });
      await admin.faults.del(tenant, dotted.id);
      await bad({ effect: { type: 'reset' }, probability: 0 }, 422);
      await bad({ effect: { type: 'reset' }, probability: 1.5 }, 422);
      await bad({ effect: { type: 'reset' }, remaining_count: 0 }, 422);
      await bad({ effect: { type: 'reset' }, until: 'soon' }, 422, 'until');
      await bad({ effect: { type: 'reset' }, match: { path: 'employees' } }, 422);
      await bad({ effect: { type: 'reset' }, color: 'red' }, 422);
      await bad({}, 422);
      const notFound = async (call: Promise<unknown>) => {
        const error = await call.catch((e: unknown) => e);
        assert.ok(error instanceof AdminApiError);
        assert.equal(error.status, 404);
      };
      await notFound(admin.faults.create('hr:nobody', { effect: { type: 'reset' } }));
      await notFound(admin.faults.retrieve(tenant, 'no-such-rule'));
      await notFound(admin.faults.del(tenant, 'no-such-rule'));
      await notFound(
        admin.faults.retrieve(
          `hr:${other.creds.client_id}`,
          (await admin.faults.create(tenant, { effect: { type: 'latency', latency_ms: 1 } })).id,
        ),
      );
      await clear();
      for (let i = 0; i < 100; i++) {
        await admin.faults.create(tenant, { match: { path: '/nothing' }, effect: { type: 'latency', latency_ms: 1 } });
      }
      const full = await admin.faults.create(tenant, { effect: { type: 'reset' } }).catch((e: unknown) => e);
      assert.ok(full instanceof AdminApiError);
      assert.equal(full.status, 409);
      assert.equal(full.code, 'too_many_faults');
      assert.equal((await admin.faults.list(tenant)).length, 100);
      await clear();
      assert.deepEqual(await admin.faults.list(tenant), []);
      const anonymous = new AdminClient({ baseUrl: server.url, token: 'atrium_admin_nope', maxRetries: 0 });
      const refused = await anonymous.faults.list(tenant).catch((e: unknown) => e);
      assert.ok(refused instanceof AdminApiError);
      assert.equal(refused.status, 401);
      const audit = (await server.app.services.adminAudit.list(500)).filter((a) => a.target === tenant);
      assert.ok(audit.some((a) => a.action === 'tenant.fault_created'));
      assert.ok(audit.some((a) => a.action === 'tenant.faults_cleared'));
    });

    it('rules apply in a second process, and a counted rule is never applied more than its count', async () => {
      const sibling = await server.sibling();
      const rule: FaultRule = await admin.faults.create(tenant, {
        match: { operation_id: 'hr_organizations_retrieve' },
        effect: { type: 'status', status: 503 },
        remaining_count: 5,
      });
      // The sibling reads the rule back within about a second.
      let seen = false;
      for (let i = 0; i < 40 && !seen; i++) {
        const res = await fetch(`${sibling.url}/api/v2/client/organizations/paris`, {
          headers: { authorization: `Bearer ${hr.token}` },
        });
        await res.arrayBuffer();
        seen = res.headers.get('x-atrium-fault') === rule.id;
        if (!seen) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(seen, 'the second process applied the rule');
      let faulted = 1;
      for (let i = 0; i < 20; i++) {
        const base = i % 2 === 0 ? server.url : sibling.url;
        const res = await fetch(`${base}/api/v2/client/organizations/paris`, {
          headers: { authorization: `Bearer ${hr.token}` },
        });
        await res.arrayBuffer();
        if (res.status === 503) faulted++;
      }
      assert.equal(faulted, 5, 'exactly its count, across both processes');
      await clear();
    });
  });
}
