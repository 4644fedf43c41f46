/**
 * Verification of a tenant's calls (`POST …/requests/verify`, docs/admin.md, "Verification") and emptying its
 * journal (`DELETE …/requests`): what matches (operationId, method and path pattern, status or class, query and body
 * subsets, one body field, the tenant's clock), counts exact and ranged, the closest calls and what differed, bad
 * matchers (400) and unknown tenants (404); emptying deletes the rows and resets the usage, another tenant's stay;
 * the SDK's `verify` throws an assertion error that says what differed.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { AdminClient, type RequestVerification, RequestVerificationError } from '@atrium/client';
import {
  basic,
  dialects,
  getToken,
  type HrCaller,
  hrCaller,
  startServer,
  type TestServer,
} from '../support/harness.js';

const ORGS = '/api/v2/client/organizations';

/** A datetime of the admin API (`YYYY-MM-DDThh:mm:ss+00:00`) for an instant. */
function datetime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

for (const dialect of dialects()) {
  describe(`admin API: request verification (${dialect})`, () => {
    let server: TestServer;
    let admin: AdminClient;
    let token: string;
    let hr: HrCaller;
    let other: HrCaller;
    let tenant: string;
    let base: string;

    const verify = async (matcher: unknown, path = base): Promise<{ status: number; body: RequestVerification }> => {
      const res = await fetch(`${server.url}/admin/v1${path}/requests/verify`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(matcher),
      });
      return { status: res.status, body: (await res.json()) as RequestVerification };
    };
    const ok = async (matcher: unknown): Promise<RequestVerification> => {
      const { status, body } = await verify(matcher);
      assert.equal(status, 200, JSON.stringify(body));
      return body;
    };
    const rowsOf = async (of: HrCaller) =>
      Number(
        (
          await server.app.services.requestLogJournal
            .db()
            .selectFrom('request_log')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('tenant', '=', `hr:${of.creds.client_id}`)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const usageOf = async (of: HrCaller) => {
      const u = await server.app.services.requestLogJournal
        .db()
        .selectFrom('request_log_usage')
        .select(['calls', 'bytes'])
        .where('tenant', '=', `hr:${of.creds.client_id}`)
        .executeTakeFirst();
      return u && { calls: Number(u.calls), bytes: Number(u.bytes) };
    };

    before(async () => {
      server = await startServer(dialect, { ATRIUM_RATE_LIMIT: '0' });
      ({ token } = await server.app.services.adminTokens.create('verify', 'cli'));
      admin = new AdminClient({ baseUrl: server.url, token, maxRetries: 0 });
      hr = await hrCaller(server);
      other = await hrCaller(server);
      tenant = `hr:${hr.creds.client_id}`;
      base = `/tenants/hr/${hr.creds.client_id}`;
    });
    beforeEach(async () => {
      // Each test starts from an empty tenant (its organizations made anew: 201) and an empty journal.
      await admin.clock.reset(tenant);
      await admin.tenants.reset(tenant);
      await admin.requests.clear(tenant);
    });
    after(() => server.close());

    it('counts calls by operationId, method and path pattern, status or class; count exact or {min, max}', async () => {
      assert.equal((await hr.call('PUT', '/organizations/paris', { name: 'Paris' })).status, 201);
      assert.equal((await hr.call('PUT', '/organizations/lyon', { name: 'Lyon' })).status, 201);
      assert.equal((await hr.call('GET', '/organizations/nowhere')).status, 404);

      const byOperation = await ok({ operation_id: 'hr_organizations_upsert' });
      assert.equal(byOperation.matched, 2);
      assert.equal(byOperation.ok, true);
      assert.equal(byOperation.expected, 'at least 1');
      assert.equal(byOperation.scanned, 3);
      assert.equal(byOperation.complete, true);
      assert.deepEqual(
        byOperation.calls.map((c) => c.path),
        [`${ORGS}/paris`, `${ORGS}/lyon`],
        'the matching calls, oldest first',
      );
      assert.deepEqual(byOperation.closest, [], 'no closest calls when ok');
      const stored = await server.app.services.requestLogJournal
        .db()
        .selectFrom('request_log')
        .select('seq')
        .where('tenant', '=', tenant)
        .where('operation_id', '=', 'hr_organizations_upsert')
        .orderBy('seq')
        .execute();
      assert.deepEqual(
        byOperation.calls.map((c) => c.seq),
        stored.map((r) => Number(r.seq)),
        'the stored calls of the operation',
      );

      assert.equal((await ok({ method: 'put', path: `${ORGS}/{id}`, status: '2xx', count: 2 })).ok, true);
      assert.equal((await ok({ method: 'PUT', path: '/api/**/paris', status: 201, count: 1 })).ok, true);
      assert.equal((await ok({ path: `${ORGS}/*`, count: 3 })).ok, true);
      assert.equal((await ok({ path: '/api/v2/client/*', count: 0 })).ok, true, '* is one segment');
      assert.equal((await ok({ path: '/api/**', count: 3 })).matched, 3);
      assert.equal((await ok({ status: '4xx' })).matched, 1);
      assert.equal((await ok({ status: 404, operation_id: 'hr_organizations_retrieve' })).matched, 1);
      assert.equal((await ok({ count: { min: 1, max: 3 } })).ok, true, 'an empty matcher matches every call');

      const tooMany = await ok({ method: 'PUT', count: 1 });
      assert.deepEqual(
        { ok: tooMany.ok, matched: tooMany.matched, expected: tooMany.expected, closest: tooMany.closest },
        { ok: false, matched: 2, expected: 'exactly 1', closest: [] },
      );
      const atMost = await ok({ method: 'PUT', count: { max: 1 } });
      assert.deepEqual([atMost.ok, atMost.expected], [false, 'at most 1']);
      const tooFew = await ok({ method: 'PUT', count: { min: 3, max: 4 } });
      assert.deepEqual([tooFew.ok, tooFew.matched, tooFew.expected], [false, 2, 'between 3 and 4']);
      assert.equal(tooFew.closest.length, 1, 'the one other call is the closest');
      const none = await ok({ operation_id: 'hr_users_create' });
      assert.deepEqual([none.ok, none.matched], [false, 0]);
      assert.equal(await rowsOf(hr), 3, 'verifying writes nothing');
    });

    it('lists the closest calls, fewest failed criteria first, with what differed', async () => {
      assert.equal((await hr.call('PUT', '/organizations/paris', { name: 'Paris' })).status, 201);
      for (let i = 0; i < 6; i++) await hr.call('GET', `/organizations?page=${i}`);
      assert.equal((await hr.call('GET', '/organizations/nowhere')).status, 404);
      const result = await ok({ method: 'PUT', path: `${ORGS}/lyon`, status: 201, body: { name: 'Lyon' } });
      assert.deepEqual([result.ok, result.matched], [false, 0]);
      assert.equal(result.closest.length, 5, 'at most five');
      const [first, second] = result.closest;
      assert.ok(first && second);
      assert.equal(first.call.path, `${ORGS}/paris`);
      assert.deepEqual(first.differences, [
        { field: 'path', expected: `${ORGS}/lyon`, actual: `${ORGS}/paris` },
        { field: 'body.name', expected: 'Lyon', actual: 'Paris' },
      ]);
      assert.equal(second.call.path, `${ORGS}/nowhere`);
      assert.deepEqual(second.differences.slice(0, 3), [
        { field: 'method', expected: 'PUT', actual: 'GET' },
        { field: 'path', expected: `${ORGS}/lyon`, actual: `${ORGS}/nowhere` },
        { field: 'status', expected: 201, actual: 404 },
      ]);
      assert.deepEqual(second.differences[3], { field: 'body', expected: { name: 'Lyon' } }, 'no body: no actual');
      assert.deepEqual(
        result.closest.slice(2).map((c) => c.call.path),
        [`${ORGS}?page=5`, `${ORGS}?page=4`, `${ORGS}?page=3`],
        'among equals (four failed criteria), the newest first',
      );
    });

    it('matches the query and the body as JSON subsets, and one body field JSONPath-style', async () => {
      const body = {
        name: 'Paris',
        nickname: 'kept by the log',
        meta: { zip: '75001', tags: [{ k: 'a' }, { k: 'b' }] },
      };
      assert.equal((await hr.call('PUT', '/organizations/paris', body)).status, 201);
      assert.equal((await hr.call('GET', '/organizations?color=blue&tag=a&tag=b')).status, 200);

      assert.equal((await ok({ query: { color: 'blue' } })).matched, 1);
      assert.equal((await ok({ query: { tag: ['a', 'b'], color: 'blue' } })).matched, 1);
      assert.equal((await ok({ query: { tag: 'b' } })).matched, 1, 'a string is one of the values');
      assert.equal((await ok({ query: { tag: ['b', 'a'] } })).matched, 0, 'an array is every value, in order');
      const red = await ok({ query: { color: 'red' } });
      assert.deepEqual(red.closest[0]?.differences, [{ field: 'query.color', expected: 'red', actual: 'blue' }]);

      assert.equal((await ok({ body: { name: 'Paris', meta: { zip: '75001' } } })).matched, 1);
      assert.equal((await ok({ body: { meta: { tags: [{ k: 'a' }, {}] } } })).matched, 1, 'arrays item by item');
      assert.equal((await ok({ body: { meta: { tags: [{ k: 'a' }] } } })).matched, 0, 'as many items');
      const zip = await ok({ operation_id: 'hr_organizations_upsert', body: { meta: { zip: '69001' } } });
      assert.deepEqual(zip.closest[0]?.differences, [{ field: 'body.meta.zip', expected: '69001', actual: '75001' }]);

      assert.equal((await ok({ body_field: { path: '$.meta.tags[1].k', equals: 'b' } })).matched, 1);
      assert.equal((await ok({ body_field: { path: "$['meta']['zip']", equals: '75001' } })).matched, 1);
      assert.equal((await ok({ body_field: { path: '$.meta', equals: body.meta } })).matched, 1, 'equal, whole');
      assert.equal((await ok({ body_field: { path: '$.meta', equals: { zip: '75001' } } })).matched, 0, 'not a subset');
      const tag = await ok({
        operation_id: 'hr_organizations_upsert',
        body_field: { path: '$.meta.tags[0].k', equals: 'z' },
      });
      assert.deepEqual(tag.closest[0]?.differences, [{ field: 'body.meta.tags[0].k', expected: 'z', actual: 'a' }]);

      // A form body reads as an object of strings, as stored: the secret redacted.
      const form = new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'client',
        client_id: hr.creds.client_id,
        client_secret: hr.creds.application_secret,
      });
      const res = await fetch(`${server.url}/api/v2/client/tokens`, {
        method: 'POST',
        headers: { authorization: basic(hr.creds), 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      });
      assert.equal(res.status, 200);
      const tokens = await ok({
        path: '/api/v2/client/tokens',
        body: { grant_type: 'client_credentials', client_secret: '[REDACTED]' },
        count: 1,
      });
      assert.equal(tokens.ok, true);
      assert.equal((await ok({ body: { client_secret: hr.creds.application_secret } })).matched, 0);
    });

    it("reads since and until on the tenant's clock, moved or not", async () => {
      assert.equal((await hr.call('GET', '/organizations/before')).status, 404);
      const clock = await admin.clock.advance(tenant, { days: 10 });
      // The token has expired on the tenant's clock: a new one.
      const fresh = await getToken(server, hr.creds);
      const after = await fetch(`${server.url}${ORGS}/after`, { headers: { authorization: `Bearer ${fresh}` } });
      assert.equal(after.status, 404);
      const dayAgo = datetime(Date.parse(clock.now) - 86_400_000);

      const since = await ok({ path: `${ORGS}/*`, since: dayAgo });
      assert.deepEqual(
        since.calls.map((c) => c.path),
        [`${ORGS}/after`],
        "since: only the call made after the tenant's clock moved",
      );
      const [moved] = since.calls;
      assert.ok(moved);
      assert.ok(Date.parse(moved.tenant_at) - Date.parse(moved.at) >= 9 * 86_400_000, 'tenant_at is the moved time');
      const row = await server.app.services.requestLogJournal
        .db()
        .selectFrom('request_log')
        .select(['at', 'tenant_at'])
        .where('seq', '=', moved.seq)
        .executeTakeFirstOrThrow();
      assert.ok(Number(row.tenant_at) - Number(row.at) >= 9 * 86_400_000, 'stored: tenant_at');

      const until = await ok({ path: `${ORGS}/*`, until: dayAgo });
      assert.deepEqual(
        until.calls.map((c) => c.path),
        [`${ORGS}/before`],
      );
      const missed = await ok({ path: `${ORGS}/before`, since: dayAgo });
      const early = missed.closest.find((c) => c.call.path === `${ORGS}/before`);
      assert.deepEqual(early?.differences, [{ field: 'since', expected: dayAgo, actual: early?.call.tenant_at }]);
    });

    it('answers 400 for a bad matcher (invalid_request), 404 for an unknown tenant', async () => {
      const bad: [unknown, RegExp][] = [
        [{ colour: 'blue' }, /colour/],
        [{ status: 'abc' }, /status/],
        [{ status: 700 }, /status/],
        [{ count: -1 }, /count/],
        [{ count: { min: 1, max: 2, exactly: 3 } }, /count/],
        [{ count: { min: 3, max: 1 } }, /count\.max/],
        [{ path: 'organizations' }, /path/],
        [{ path: '/api/v2/client/org*' }, /whole segments/],
        [{ body_field: { path: 'meta.zip', equals: 1 } }, /body_field/],
        [{ body_field: { path: '$.meta' } }, /equals/],
        [{ since: 'yesterday' }, /since/],
        [{ query: { color: 1 } }, /query/],
        [[], /JSON object/],
      ];
      for (const [matcher, message] of bad) {
        const { status, body } = await verify(matcher);
        assert.equal(status, 400, `${JSON.stringify(matcher)}: ${JSON.stringify(body)}`);
        const error = body as unknown as { code: string; message: string };
        assert.equal(error.code, 'invalid_request');
        assert.match(error.message, message, JSON.stringify(matcher));
      }
      const unknown = await verify({ method: 'GET' }, '/tenants/hr/no-such-client');
      assert.equal(unknown.status, 404);
      assert.equal((unknown.body as unknown as { code: string }).code, 'not_found');
      const badUnknown = await verify({ status: 'abc' }, '/tenants/hr/no-such-client');
      assert.equal(badUnknown.status, 404, 'the tenant is looked up first');
      const del = await fetch(`${server.url}/admin/v1/tenants/academy/999999/requests`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(del.status, 404);
    });

    it("DELETE …/requests deletes the tenant's calls and resets its usage; another tenant's stay", async () => {
      await hr.call('GET', '/organizations');
      await hr.call('PUT', '/organizations/paris', { name: 'Paris' });
      await other.call('GET', '/organizations');
      await server.app.services.requestLog.flush();
      const otherRows = await rowsOf(other);
      const otherUsage = await usageOf(other);
      assert.ok(otherRows > 0 && otherUsage && otherUsage.calls === otherRows);
      // A call still waiting in memory is deleted too.
      await hr.call('GET', '/organizations/waiting');

      const res = await fetch(`${server.url}/admin/v1${base}/requests`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { deleted: 3 });
      assert.equal(await rowsOf(hr), 0);
      assert.deepEqual(await usageOf(hr), { calls: 0, bytes: 0 }, 'the usage is reset');
      assert.equal(await rowsOf(other), otherRows);
      assert.deepEqual(await usageOf(other), otherUsage);
      const audit = await server.app.database.db
        .selectFrom('admin_audit')
        .select(['action', 'target', 'detail'])
        .where('action', '=', 'tenant.requests_cleared')
        .where('target', '=', tenant)
        .orderBy('seq', 'desc')
        .executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(audit.detail), { deleted: 3 });
      assert.deepEqual((await ok({})).matched, 0, 'verify sees an empty journal');

      await hr.call('GET', '/organizations');
      await server.app.services.requestLog.flush();
      const [row] = await server.app.services.requestLogJournal
        .db()
        .selectFrom('request_log')
        .select('bytes')
        .where('tenant', '=', tenant)
        .execute();
      assert.deepEqual(await usageOf(hr), { calls: 1, bytes: Number(row?.bytes) }, 'counted again from nothing');
    });

    it('the SDK: verify resolves when ok, and throws a readable assertion error otherwise', async () => {
      await hr.call('PUT', '/organizations/paris', { name: 'Paris' });
      await hr.call('GET', '/organizations/nowhere');
      const passed = await admin.requests.verify(tenant, { method: 'PUT', path: `${ORGS}/{id}`, count: 1 });
      assert.equal(passed.matched, 1);

      const matcher = { method: 'PUT', path: `${ORGS}/lyon`, status: 201, count: 1 } as const;
      await assert.rejects(admin.requests.verify(tenant, matcher), (error: unknown) => {
        assert.ok(error instanceof RequestVerificationError);
        assert.equal(error.code, 'ERR_ASSERTION');
        assert.equal(error.verification.matched, 0);
        const lines = error.message.split('\n');
        assert.equal(
          lines[0],
          `Expected exactly 1 call(s) of ${tenant} matching {"method":"PUT","path":"${ORGS}/lyon","status":201}, found 0 (2 call(s) scanned).`,
        );
        assert.equal(lines[1], 'Closest calls:');
        assert.match(lines[2] ?? '', new RegExp(`^ {2}#\\d+ PUT ${ORGS}/paris → 201 at `));
        assert.equal(lines[3], `    path: expected "${ORGS}/lyon", got "${ORGS}/paris"`);
        assert.match(lines[4] ?? '', new RegExp(`^ {2}#\\d+ GET ${ORGS}/nowhere → 404 at `));
        assert.ok(lines.includes('    status: expected 201, got 404'), error.message);
        return true;
      });
      await assert.rejects(admin.requests.verify(tenant, { method: 'PUT', count: 0 }), /found 1 .*\nMatching calls:/);
      const cleared = await admin.requests.clear(tenant);
      assert.deepEqual(cleared, { deleted: 2 });
      await assert.rejects(
        admin.requests.verify(tenant, {}),
        /found 0 \(0 call\(s\) scanned\)\.\nThe log of .* holds no call\./,
      );
    });
  });
}
