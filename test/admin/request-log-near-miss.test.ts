/**
 * Near misses in the request log (docs/admin.md, "Near misses"): a call that fails authentication or hits no route is
 * logged against the tenant it names (Basic credentials, a bearer token's unverified claims, an `acadId`), marked
 * with its reason; an unknown path or a wrong method carries the closest served operations. Calls that name no
 * existing tenant leave nothing; the caps hold; the report counts them by reason; the tail shows them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AdminClient, type LoggedCall } from '@atrium/client';
import { reportMarkdown } from '../../src/admin/report/presenter.js';
import { NearMissCatalogue } from '../../src/admin/request-log/near-miss.js';
import { HR_OPERATIONS } from '../../src/hr/openapi.js';
import { type AcademyCaller, academyCaller } from '../support/academy.js';
import { basic, dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

const MAX_ROWS = 20;
const HR = '/api/v2/client';

/** A JWT with these claims, signed with nothing Atrium knows. */
function forged(claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT', kid: 'forged' })}.${part(claims)}.c2lnbmF0dXJl`;
}

describe('near misses: the catalogue', () => {
  it('notes an operation of the real API that Atrium does not serve, with the closest served ones', () => {
    const served = new Map(
      Object.entries(HR_OPERATIONS)
        .filter(([key]) => key !== 'GET /custom_fields/{id}')
        .map(([key, sdk]) => [key, `hr_${sdk.replaceAll('.', '_')}`]),
    );
    const catalogue = new NearMissCatalogue([{ api: 'hr', prefix: HR, operations: served }]);
    const miss = catalogue.describe({
      api: 'hr',
      method: 'GET',
      path: `${HR}/custom_fields/7`,
      status: 405,
      noRoute: true,
    });
    assert.equal(miss?.reason, 'wrong_method', 'PUT and PATCH /custom_fields/{id} are served');
    assert.deepEqual(miss?.unserved_reference_operation, { method: 'GET', path: `${HR}/custom_fields/{id}` });
    assert.ok(miss?.suggestions.some((s) => s.method === 'PUT' && s.path === `${HR}/custom_fields/{id}`));
    // Served: no note.
    const full = new NearMissCatalogue([{ api: 'hr', prefix: HR, operations: new Map(Object.entries(HR_OPERATIONS)) }]);
    const served404 = full.describe({
      api: 'hr',
      method: 'GET',
      path: `${HR}/organisations`,
      status: 404,
      noRoute: true,
    });
    assert.equal(served404?.reason, 'unknown_path');
    assert.equal(served404?.unserved_reference_operation, undefined);
    assert.deepEqual(served404?.suggestions[0], {
      method: 'GET',
      path: `${HR}/organizations`,
      operation_id: 'organizations.list',
    });
  });
});

for (const dialect of dialects()) {
  describe(`near misses in the request log (${dialect})`, () => {
    let server: TestServer;
    let admin: AdminClient;
    let hr: HrCaller;
    let other: HrCaller;
    let academy: AcademyCaller;

    const logOf = async (tenant: string): Promise<LoggedCall[]> => {
      await server.app.services.requestLog.flush();
      return admin.requests.list(tenant, { limit: 200 }).toArray();
    };
    const rowCount = async (): Promise<number> => {
      await server.app.services.requestLog.flush();
      const row = await server.app.services.requestLogJournal
        .db()
        .selectFrom('request_log')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    const hrFetch = (method: string, path: string, headers: Record<string, string>, body?: string) =>
      fetch(`${server.url}${HR}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });

    before(async () => {
      server = await startServer(dialect, {
        ATRIUM_RATE_LIMIT: '0',
        ATRIUM_REQUEST_LOG_MAX_ROWS: String(MAX_ROWS),
      });
      const { token } = await server.app.services.adminTokens.create('near misses', 'cli');
      admin = new AdminClient({ baseUrl: server.url, token, maxRetries: 0 });
      hr = await hrCaller(server);
      other = await hrCaller(server);
      academy = await academyCaller(server);
    });
    after(() => server.close());

    it('records an unknown path and a wrong method, with the closest operations, against the caller', async () => {
      assert.equal((await hr.call('GET', '/organisations')).status, 404);
      const wrong = await hr.call('DELETE', '/organizations/paris');
      assert.equal(wrong.status, 405);
      // An unknown path with a token signed by nobody still names its tenant (its claims, unverified).
      const bad = forged({ sub: hr.creds.application_id, cid: hr.creds.client_id, scope: 'client' });
      assert.equal((await hrFetch('GET', '/employes', { authorization: `Bearer ${bad}` })).status, 404);
      // Basic credentials name the tenant too (the secret unchecked).
      assert.equal((await hrFetch('POST', '/token', { authorization: basic(hr.creds) })).status, 404);
      const [basicMiss, unsigned, method, unknown] = await logOf(`hr:${hr.creds.client_id}`);
      assert.equal(basicMiss?.near_miss?.reason, 'unknown_path');
      assert.deepEqual(basicMiss?.near_miss?.suggestions[0], {
        method: 'POST',
        path: `${HR}/tokens`,
        operation_id: 'hr_getAccessToken',
      });
      assert.equal(basicMiss?.credential_id, hr.creds.application_id);
      assert.equal(unknown?.path, `${HR}/organisations`);
      assert.equal(unknown?.status, 404);
      assert.equal(unknown?.credential_id, hr.creds.application_id);
      assert.equal(unknown?.near_miss?.reason, 'unknown_path');
      assert.deepEqual(unknown?.near_miss?.suggestions[0], {
        method: 'GET',
        path: `${HR}/organizations`,
        operation_id: 'hr_organizations_list',
      });
      assert.equal(unknown?.near_miss?.unserved_reference_operation, undefined, 'Atrium serves it');
      assert.equal(method?.near_miss?.reason, 'wrong_method');
      const offered = method?.near_miss?.suggestions.map((s) => `${s.method} ${s.path}`) ?? [];
      assert.ok(offered.includes(`GET ${HR}/organizations/{id}`), offered.join(', '));
      assert.equal(unsigned?.near_miss?.reason, 'unknown_path');
      assert.equal(unsigned?.near_miss?.suggestions[0]?.path, `${HR}/employees`);
      assert.equal(unsigned?.request.headers.authorization, 'Bearer [REDACTED]');

      assert.equal((await academy.call('GET', '/userz')).status, 404);
      assert.equal((await academy.call('DELETE', '/users')).status, 404);
      const [academyMethod, academyUnknown] = await logOf(`academy:${academy.acadId}`);
      assert.equal(academyUnknown?.near_miss?.reason, 'unknown_path');
      assert.deepEqual(academyUnknown?.near_miss?.suggestions[0], {
        method: 'GET',
        path: '/v1/users',
        operation_id: 'academy_users_list',
      });
      assert.equal(academyMethod?.near_miss?.reason, 'wrong_method');
      assert.equal(academyMethod?.near_miss?.suggestions[0]?.path, '/v1/users');
    });

    it('records each authentication failure against the tenant it names, with its reason', async () => {
      const caller = await hrCaller(server);
      const readOnly = await hrCaller(server, { readOnly: true });
      const tenant = `hr:${caller.creds.client_id}`;
      const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
      // bad token: a valid one with its signature changed.
      const tampered = `${caller.token.slice(0, -4)}${caller.token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
      assert.equal((await hrFetch('GET', '/organizations', bearer(tampered))).status, 401);
      // wrong scope: the token endpoint asked for another scope.
      const form = (scope: string) =>
        new URLSearchParams({ grant_type: 'client_credentials', scope, client_id: caller.creds.client_id }).toString();
      const formHeaders = (auth: string) => ({
        authorization: auth,
        'content-type': 'application/x-www-form-urlencoded',
      });
      assert.equal((await hrFetch('POST', '/tokens', formHeaders(basic(caller.creds)), form('admin'))).status, 401);
      // bad key: the application's secret wrong.
      const wrongSecret = basic({ application_id: caller.creds.application_id, application_secret: 'nope' });
      assert.equal((await hrFetch('POST', '/tokens', formHeaders(wrongSecret), form('client'))).status, 401);
      // expired token: the client's clock moved past its expiry.
      await admin.clock.advance(tenant, { days: 2 });
      assert.equal((await caller.call('GET', '/organizations')).status, 401);
      const calls = await logOf(tenant);
      const reasons = calls.map((c) => [c.path, c.status, c.near_miss?.reason ?? null]);
      assert.deepEqual(reasons.slice(0, 4), [
        [`${HR}/organizations`, 401, 'expired_token'],
        [`${HR}/tokens`, 401, 'bad_key'],
        [`${HR}/tokens`, 401, 'wrong_scope'],
        [`${HR}/organizations`, 401, 'bad_token'],
      ]);
      for (const call of calls.slice(0, 4)) {
        assert.equal(call.credential_id, caller.creds.application_id);
        assert.deepEqual(call.near_miss?.suggestions, []);
      }
      assert.equal(calls[4]?.near_miss, null, 'the token call that worked is no near miss');

      // wrong scope: a read-only application writing.
      assert.equal((await readOnly.call('PUT', '/organizations/paris', { name: 'Paris' })).status, 403);
      const [write] = await logOf(`hr:${readOnly.creds.client_id}`);
      assert.equal(write?.near_miss?.reason, 'wrong_scope');
      assert.equal(write?.credential_id, readOnly.creds.application_id);

      // bad key on the Academy API: the right acadId, a wrong key.
      const wrongKey = await fetch(`${server.url}/v1/users?acadId=${academy.acadId}&apikey=not-the-key`);
      assert.equal(wrongKey.status, 401);
      const [academyCall] = await logOf(`academy:${academy.acadId}`);
      assert.equal(academyCall?.near_miss?.reason, 'bad_key');
      assert.ok(academyCall?.path.startsWith(`/v1/users?acadId=${academy.acadId}&apikey=`));
      assert.ok(!academyCall?.path.includes('not-the-key'), 'the key redacted');

      // Nothing of these in another tenant's log.
      assert.ok((await logOf(`hr:${other.creds.client_id}`)).every((c) => c.near_miss === null));

      // The report counts them by reason; its markdown says so before going live.
      const report = await admin.reports.retrieve(tenant);
      assert.deepEqual(report.near_misses, {
        unknown_path: 0,
        wrong_method: 0,
        bad_token: 1,
        expired_token: 1,
        wrong_scope: 1,
        bad_key: 1,
      });
      const markdown = reportMarkdown(report as unknown as Parameters<typeof reportMarkdown>[0]);
      assert.match(
        markdown,
        /\n- 4 near misses \([^)]*\): bad token: 1, expired token: 1, wrong scope: 1, bad key: 1\.\n/,
      );
    });

    it('leaves nothing of calls that name no tenant', async () => {
      const before = await rowCount();
      const stranger = { application_id: 'no-such-application', application_secret: 'x' };
      const statuses = [
        // No credentials at all, on an unknown path and a guarded one.
        (await hrFetch('GET', '/organisations', {})).status,
        (await hrFetch('GET', '/organizations', {})).status,
        // An application that does not exist, in Basic and in a token's claims.
        (await hrFetch('POST', '/tokens', { authorization: basic(stranger) })).status,
        (await hrFetch('GET', '/organizations', { authorization: `Bearer ${forged({ sub: 'nobody' })}` })).status,
        // A token naming an application of one client and another client: names none.
        (
          await hrFetch('GET', '/organizations', {
            authorization: `Bearer ${forged({ sub: hr.creds.application_id, cid: other.creds.client_id })}`,
          })
        ).status,
        // Not a token at all.
        (await hrFetch('GET', '/organizations', { authorization: 'Bearer not.a-jwt' })).status,
        // An academy that does not exist, and none named.
        (await fetch(`${server.url}/v1/users?acadId=999999999&apikey=x`)).status,
        (await fetch(`${server.url}/v1/userz`)).status,
        // Outside both APIs.
        (await fetch(`${server.url}/nowhere`)).status,
      ];
      assert.deepEqual(statuses, [404, 401, 401, 401, 401, 401, 401, 404, 404]);
      assert.equal(await rowCount(), before, 'no row written');
    });

    it('keeps a flood of near misses within the caps, and shows them in the tail', async () => {
      const flooder = await hrCaller(server);
      const tenant = `hr:${flooder.creds.client_id}`;
      const controller = new AbortController();
      const received: LoggedCall[] = [];
      const tail = (async () => {
        for await (const call of admin.requests.tail(tenant, { signal: controller.signal })) {
          received.push(call);
          if (call.path.endsWith('/last-miss')) controller.abort();
        }
      })().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (let i = 0; i < MAX_ROWS * 3; i++) {
        assert.equal((await flooder.call('GET', `/nowhere/${i}`)).status, 404);
        if (i % 10 === 9) await server.app.services.requestLog.flush();
      }
      assert.equal((await flooder.call('GET', '/last-miss')).status, 404);
      // Not a measure of time: ends the tail if the last call never comes, so that the assertion below fails.
      const guard = setTimeout(() => controller.abort(), 10_000);
      await tail;
      clearTimeout(guard);
      assert.equal(received.at(-1)?.near_miss?.reason, 'unknown_path', 'the tail shows the mark');
      await server.app.services.requestLog.flush();
      const db = server.app.services.requestLogJournal.db();
      const rows = await db.selectFrom('request_log').select(['path']).where('tenant', '=', tenant).execute();
      assert.equal(rows.length, MAX_ROWS);
      assert.ok(
        rows.some((r) => r.path.endsWith('/last-miss')),
        'the newest are kept',
      );
      const usage = await db
        .selectFrom('request_log_usage')
        .select('calls')
        .where('tenant', '=', tenant)
        .executeTakeFirstOrThrow();
      assert.equal(Number(usage.calls), MAX_ROWS);
    });
  });
}
