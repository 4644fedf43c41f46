/**
 * The richer fault catalogue (docs/admin.md, "Faults"): latency distributions, bodies in chunks, malformed answers,
 * rules applied before authentication (the token endpoint, the Academy key check), and seeded rules.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, beforeEach, describe, it } from 'node:test';
import { AdminApiError, AdminClient, type NewFaultRule } from '@atrium/client';
import { latencyOf, seededDraw } from '../../src/platform/http/fault-draws.js';
import { type AcademyCaller, academyCaller } from '../support/academy.js';
import { dialects, type HrCaller, hrCaller, requestToken, startServer, type TestServer } from '../support/harness.js';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body's `data` events. */
  chunks: number;
  /** Whether the whole announced body arrived. */
  complete: boolean;
}

/** A GET of the raw HTTP answer, whatever happens to the connection once the headers arrived. */
function rawGet(url: string, token: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { authorization: `Bearer ${token}`, connection: 'close' } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('error', () => {});
      res.on('close', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(parts).toString('utf8'),
          chunks: parts.length,
          complete: res.complete,
        }),
      );
    });
    req.on('error', reject);
  });
}

for (const dialect of dialects()) {
  describe(`admin API: the fault catalogue (${dialect})`, () => {
    let server: TestServer;
    let admin: AdminClient;
    let hr: HrCaller;
    let other: HrCaller;
    let academy: AcademyCaller;
    let tenant: string;

    before(async () => {
      server = await startServer(dialect, { ATRIUM_RATE_LIMIT: '0' });
      const { token } = await server.app.services.adminTokens.create('faults', 'cli');
      admin = new AdminClient({ baseUrl: server.url, token, maxRetries: 0 });
      hr = await hrCaller(server);
      other = await hrCaller(server);
      academy = await academyCaller(server);
      tenant = `hr:${hr.creds.client_id}`;
      await hr.call('PUT', '/organizations/paris', { name: 'Paris' });
      await other.call('PUT', '/organizations/paris', { name: 'Paris' });
    });
    after(() => server.close());
    // A test that failed half-way leaves no rule behind for the next.
    beforeEach(async () => {
      for (const address of [tenant, `hr:${other.creds.client_id}`, `academy:${academy.acadId}`]) {
        await admin.faults.clear(address);
      }
    });

    const paris = `/api/v2/client/organizations/paris`;
    const retrieve = { operation_id: 'hr_organizations_retrieve' };
    /** The fault and the latency drawn of each of `n` calls of `caller`: `-` when no rule fired. */
    const sequence = async (caller: HrCaller, n: number): Promise<string[]> => {
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const res = await caller.call('GET', '/organizations/paris');
        await res.arrayBuffer();
        assert.equal(res.status, 200);
        out.push(res.headers.get('x-atrium-fault-latency-ms') ?? '-');
      }
      return out;
    };

    it('latency: fixed (both forms), uniform and log-normal, the delay drawn in X-Atrium-Fault-Latency-Ms', async () => {
      for (const effect of [
        { type: 'latency', latency_ms: 7 },
        { type: 'latency', distribution: 'fixed', latency_ms: 7 },
      ] as const) {
        const rule = await admin.faults.create(tenant, { match: retrieve, effect });
        assert.deepEqual(rule.effect, effect, 'shown as given');
        const res = await hr.call('GET', '/organizations/paris');
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('x-atrium-fault'), rule.id);
        assert.equal(res.headers.get('x-atrium-fault-latency-ms'), '7');
        await admin.faults.clear(tenant);
      }
      await admin.faults.create(tenant, {
        match: retrieve,
        effect: { type: 'latency', distribution: 'uniform', min_ms: 3, max_ms: 30 },
      });
      const uniform = (await sequence(hr, 12)).map(Number);
      assert.ok(
        uniform.every((ms) => Number.isInteger(ms) && ms >= 3 && ms <= 30),
        String(uniform),
      );
      assert.ok(new Set(uniform).size > 1, `drawn, not fixed: ${uniform}`);
      // Each call was held at least its draw: the server's own measure of it, in the request log (a lower bound only).
      await server.app.services.requestLog.flush();
      const held = (
        await admin.requests.list(tenant, { faulted: true, operation_id: 'hr_organizations_retrieve' }).toArray()
      ).slice(0, 12);
      assert.deepEqual(
        held.map((call) => call.response.headers['x-atrium-fault-latency-ms']).reverse(),
        uniform.map(String),
        'the delay drawn, logged',
      );
      for (const call of held) {
        const drawn = Number(call.response.headers['x-atrium-fault-latency-ms']);
        assert.ok(call.duration_ms + 1 >= drawn, `${call.duration_ms} ms for a ${drawn} ms draw`);
      }
      await admin.faults.clear(tenant);
      await admin.faults.create(tenant, {
        match: retrieve,
        effect: { type: 'latency', distribution: 'log_normal', median_ms: 8, sigma: 0.5 },
      });
      const logNormal = (await sequence(hr, 8)).map(Number);
      assert.ok(
        logNormal.every((ms) => Number.isInteger(ms) && ms >= 0 && ms <= 60_000),
        String(logNormal),
      );
      await admin.faults.clear(tenant);
      // The draws themselves, many of them: a uniform's bounds are both reached; a log-normal's median is its median,
      // and its spread sigma (ln of the 84th percentile over the median).
      const draws = (effect: Parameters<typeof latencyOf>[0]) =>
        Array.from({ length: 4000 }, (_, n) => latencyOf(effect, seededDraw(9, n))).sort((a, b) => a - b);
      const u = draws({ type: 'latency', distribution: 'uniform', min_ms: 10, max_ms: 20 });
      assert.deepEqual([u[0], u.at(-1)], [10, 20]);
      const l = draws({ type: 'latency', distribution: 'log_normal', median_ms: 100, sigma: 0.5 });
      const median = l[2000] as number;
      assert.ok(median >= 95 && median <= 105, `median ${median}`);
      const spread = Math.log((l[Math.round(4000 * 0.8413)] as number) / median);
      assert.ok(spread >= 0.45 && spread <= 0.55, `sigma ${spread}`);
      assert.equal(
        latencyOf({ type: 'latency', distribution: 'log_normal', median_ms: 60_000, sigma: 4 }, () => 0.99),
        60_000,
      );
    });

    it('chunked_body: the real answer, in its number of chunks, with its Content-Length', async () => {
      const rule = await admin.faults.create(tenant, {
        match: retrieve,
        effect: { type: 'chunked_body', chunks: 4, total_ms: 900 },
      });
      const res = await rawGet(`${server.url}${paris}`, hr.token);
      await admin.faults.clear(tenant);
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-atrium-fault'], rule.id);
      assert.equal(res.complete, true);
      assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body));
      assert.equal((JSON.parse(res.body) as { id: string }).id, 'paris');
      assert.equal(res.chunks, 4, 'one data event per chunk, 300 ms apart');
      assert.equal((await rawGet(`${server.url}${paris}`, hr.token)).chunks, 1, 'without the rule: at once');
    });

    it('malformed: an empty 200, invalid JSON, a truncated body, a connection closed after the headers', async () => {
      const served = await rawGet(`${server.url}${paris}`, hr.token);
      const length = Buffer.byteLength(served.body);
      const make = (form: 'empty' | 'invalid_json' | 'truncated' | 'close_after_headers') =>
        admin.faults.create(tenant, { match: retrieve, effect: { type: 'malformed', form }, remaining_count: 1 });

      let rule = await make('empty');
      // A missing organisation would be a 404: the fault answers a 200 anyway.
      let res: Raw | Response = await fetch(`${server.url}/api/v2/client/organizations/nowhere`, {
        headers: { authorization: `Bearer ${hr.token}` },
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-atrium-fault'), rule.id);
      assert.equal(res.headers.get('content-length'), '0');
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(await res.text(), '');

      rule = await make('invalid_json');
      res = await hr.call('GET', '/organizations/paris');
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-atrium-fault'), rule.id);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      await assert.rejects(res.json(), SyntaxError);

      rule = await make('truncated');
      res = await rawGet(`${server.url}${paris}`, hr.token);
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-atrium-fault'], rule.id);
      assert.equal(Number(res.headers['content-length']), length, 'the whole body announced');
      assert.equal(res.body, served.body.slice(0, Math.floor(length / 2)), 'its first half received');
      assert.equal(res.complete, false, 'then the connection closed');
      // A fetch sees the headers, then a body that fails.
      await make('truncated');
      const cut = await hr.call('GET', '/organizations/paris');
      assert.equal(cut.status, 200);
      await assert.rejects(cut.text());

      rule = await make('close_after_headers');
      res = await rawGet(`${server.url}${paris}`, hr.token);
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-atrium-fault'], rule.id);
      assert.equal(res.body, '');
      assert.equal(res.complete, false);

      // Every one of them marked in the request log, as the client saw its status.
      await server.app.services.requestLog.flush();
      const logged = await admin.requests
        .list(tenant, { faulted: true, operation_id: 'hr_organizations_retrieve' })
        .toArray();
      const ids = new Set((await admin.faults.list(tenant)).map((r) => r.id));
      assert.equal(logged.filter((call) => call.fault_id !== null && ids.has(call.fault_id)).length, 5);
      assert.ok(logged.every((call) => call.status === 200));
      await admin.faults.clear(tenant);
    });

    it('the token endpoint: a rule before authentication fires whatever the secret; others are refused (422)', async () => {
      const wrong = { ...hr.creds, application_secret: 'not-the-secret' };
      assert.equal((await requestToken(server, wrong)).status, 401, 'no rule: a wrong secret is refused');
      const rule = await admin.faults.create(tenant, {
        match: { operation_id: 'hr_getAccessToken', before_authentication: true },
        effect: { type: 'status', status: 503, retry_after_seconds: 2 },
        remaining_count: 2,
      });
      assert.equal(rule.match.before_authentication, true);
      const down = await requestToken(server, wrong);
      assert.equal(down.status, 503, 'before the secret is checked');
      assert.equal(down.headers.get('x-atrium-fault'), rule.id);
      assert.equal(down.headers.get('retry-after'), '2');
      assert.deepEqual(Object.keys((await down.json()) as object).sort(), ['code', 'message']);
      assert.equal((await requestToken(server, other.creds)).status, 200, "another client's token: served");
      assert.equal((await hr.call('GET', '/organizations/paris')).status, 200, 'a bearer call: not matched');
      assert.equal((await requestToken(server, hr.creds)).status, 503, 'the right secret: the same');
      assert.equal((await requestToken(server, wrong)).status, 401, 'spent: the secret is checked again');
      // The calls it shaped are in the tenant's log, though none authenticated.
      await server.app.services.requestLog.flush();
      const logged = await admin.requests.list(tenant, { faulted: true, operation_id: 'hr_getAccessToken' }).toArray();
      assert.equal(logged.length, 2);
      assert.ok(logged.every((call) => call.fault_id === rule.id && call.status === 503));
      assert.deepEqual(
        logged.map((call) => call.credential_id),
        [null, null],
      );
      await admin.faults.clear(tenant);

      // A rule before authentication with no matcher: every token call of the tenant, never its bearer calls.
      const early = await admin.faults.create(tenant, {
        match: { before_authentication: true },
        effect: { type: 'status', status: 500 },
      });
      assert.equal((await hr.call('GET', '/organizations/paris')).status, 200, 'after authentication: not applied');
      const revoke = await fetch(`${server.url}/api/v2/client/revoke_token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${hr.creds.application_id}:x`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'token=x',
      });
      assert.equal(revoke.status, 500, 'the revocation too');
      assert.equal(revoke.headers.get('x-atrium-fault'), early.id);
      await admin.faults.clear(tenant);

      // A latency rule delays the token call, then it is served as usual; the revocation is matched by path.
      const slow = await admin.faults.create(tenant, {
        match: { path: '/tokens', before_authentication: true },
        effect: { type: 'latency', latency_ms: 5 },
      });
      const token = await requestToken(server, hr.creds);
      assert.equal(token.status, 200);
      assert.equal(token.headers.get('x-atrium-fault'), slow.id);
      assert.ok(((await token.json()) as { access_token: string }).access_token);
      await admin.faults.clear(tenant);

      const refused = async (rule: NewFaultRule, field: string) => {
        const error = await admin.faults.create(tenant, rule).catch((e: unknown) => e);
        assert.ok(error instanceof AdminApiError, String(error));
        assert.equal(error.status, 422);
        assert.ok(
          error.errors.some((e) => e.field === field),
          JSON.stringify(error.errors),
        );
      };
      const reset = { type: 'reset' } as const;
      await refused({ match: { operation_id: 'hr_getAccessToken' }, effect: reset }, 'match.before_authentication');
      await refused(
        { match: { operation_id: 'hr_organizations_list', before_authentication: true }, effect: reset },
        'match.operation_id',
      );
    });

    it('the Academy key check: a rule before authentication fires on the acadId named, whatever the key', async () => {
      const academyTenant = `academy:${academy.acadId}`;
      const wrongKey = (acadId: number) =>
        fetch(`${server.url}/v1/events/ilt?acadId=${acadId}&apikey=not-the-key`, {
          headers: { accept: 'application/json' },
        });
      const later = await admin.faults.create(academyTenant, {
        match: { path: '/users' },
        effect: { type: 'status', status: 503 },
      });
      const rule = await admin.faults.create(academyTenant, {
        match: { path: '/events/**', before_authentication: true },
        effect: { type: 'status', status: 502 },
      });
      const down = await wrongKey(academy.acadId);
      assert.equal(down.status, 502);
      assert.equal(down.headers.get('x-atrium-fault'), rule.id);
      assert.deepEqual(await down.json(), {
        status: 502,
        code: 'bad_gateway',
        message: `Injected by the fault rule ${rule.id} (Atrium's admin API).`,
      });
      const padded = await fetch(`${server.url}/v1/events/ilt?acadId=000${academy.acadId}&apikey=x`);
      assert.equal(padded.status, 502, 'acadId read as the guard reads it');
      assert.equal((await wrongKey(academy.acadId + 1000)).status, 401, 'another academy named: the key check');
      const users = await fetch(`${server.url}/v1/users?acadId=${academy.acadId}&apikey=not-the-key`);
      assert.equal(users.status, 401, 'a rule after authentication: the key is checked first');
      const served = await academy.call('GET', '/users');
      assert.equal(served.status, 503, 'then the rule after authentication applies');
      assert.equal(served.headers.get('x-atrium-fault'), later.id);
      assert.equal((await academy.call('GET', '/events/ilt')).status, 502, 'the right key: the same');
      await server.app.services.requestLog.flush();
      const logged = await admin.requests.list(academyTenant, { faulted: true }).toArray();
      assert.equal(logged.filter((call) => call.fault_id === rule.id).length, 3);
      await admin.faults.clear(academyTenant);
    });

    it('a seed: the same faults and latencies in the same places, after a re-creation, on another tenant, in two processes', async () => {
      const seeded = (seed: number): NewFaultRule => ({
        match: retrieve,
        effect: { type: 'latency', distribution: 'uniform', min_ms: 1, max_ms: 25 },
        probability: 0.5,
        seed,
      });
      const rule = await admin.faults.create(tenant, seeded(42));
      assert.equal(rule.seed, 42);
      const first = await sequence(hr, 16);
      assert.ok(first.includes('-') && first.some((v) => v !== '-'), `some fired, some not: ${first}`);
      const row = await server.app.database.db
        .selectFrom('tenant_faults')
        .select('draw_count')
        .where('id', '=', rule.id)
        .executeTakeFirstOrThrow();
      assert.equal(Number(row.draw_count), 16, 'one draw index per matched call, in the database');
      assert.equal((await admin.faults.retrieve(tenant, rule.id)).applied_count, first.filter((v) => v !== '-').length);
      await admin.faults.clear(tenant);

      await admin.faults.create(tenant, seeded(42));
      assert.deepEqual(await sequence(hr, 16), first, 're-created: the same sequence');
      await admin.faults.clear(tenant);
      const otherTenant = `hr:${other.creds.client_id}`;
      await admin.faults.create(otherTenant, seeded(42));
      assert.deepEqual(await sequence(other, 16), first, 'another tenant, the same rule: the same sequence');
      await admin.faults.clear(otherTenant);
      await admin.faults.create(tenant, seeded(43));
      assert.notDeepEqual(await sequence(hr, 16), first, 'another seed: another sequence');
      await admin.faults.clear(tenant);

      // Two processes, calls alternating between them: the draw index is shared, so the sequence is the same.
      const sibling = await server.sibling();
      await admin.faults.create(tenant, seeded(42));
      await sibling.app.services.faults.refresh();
      const alternating: string[] = [];
      for (let i = 0; i < 16; i++) {
        const res = await fetch(`${i % 2 === 0 ? server.url : sibling.url}${paris}`, {
          headers: { authorization: `Bearer ${hr.token}` },
        });
        await res.arrayBuffer();
        alternating.push(res.headers.get('x-atrium-fault-latency-ms') ?? '-');
      }
      assert.deepEqual(alternating, first);
      await admin.faults.clear(tenant);
    });

    it('answers 422 for bad shapes of the new kinds; shows seed and before_authentication', async () => {
      const bad = async (body: unknown, field?: string) => {
        const error = await admin.faults.create(tenant, body as never).catch((e: unknown) => e);
        assert.ok(error instanceof AdminApiError, String(error));
        assert.equal(error.status, 422, JSON.stringify(body));
        if (field)
          assert.ok(
            error.errors.some((e) => e.field === field),
            JSON.stringify(error.errors),
          );
      };
      await bad({ effect: { type: 'latency', distribution: 'uniform', min_ms: 30, max_ms: 10 } }, 'effect.max_ms');
      await bad({ effect: { type: 'latency', distribution: 'uniform', min_ms: 1 } });
      await bad({ effect: { type: 'latency', distribution: 'uniform', latency_ms: 5 } });
      await bad({ effect: { type: 'latency', distribution: 'log_normal', median_ms: 10, sigma: 5 } });
      await bad({ effect: { type: 'latency', distribution: 'gamma', latency_ms: 5 } });
      await bad({ effect: { type: 'chunked_body', chunks: 1, total_ms: 100 } });
      await bad({ effect: { type: 'chunked_body', chunks: 3 } });
      await bad({ effect: { type: 'malformed', form: 'garbled' } });
      await bad({ effect: { type: 'reset' }, seed: -1 });
      await bad({ effect: { type: 'reset' }, seed: 1.5 });
      await bad({ effect: { type: 'reset' }, seed: 2 ** 32 });
      await bad({ effect: { type: 'reset' }, match: { before_authentication: 'yes' } });
      const plain = await admin.faults.create(tenant, { effect: { type: 'reset' }, match: { path: '/nothing' } });
      assert.equal(plain.seed, null);
      assert.equal(plain.match.before_authentication, false);
      const max = await admin.faults.create(tenant, {
        effect: { type: 'reset' },
        match: { path: '/nothing' },
        seed: 2 ** 32 - 1,
      });
      assert.equal((await admin.faults.retrieve(tenant, max.id)).seed, 2 ** 32 - 1);
      await admin.faults.clear(tenant);
    });
  });
}
