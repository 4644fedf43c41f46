import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enqueue } from '../../src/platform/jobs/index.js';
import { type AcademyCaller, academyCaller, type Detail, eventBody } from '../support/academy.js';
import { adminCaller, expectJson } from '../support/admin.js';
import { dialects, getToken, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { fullHrTenant } from '../support/tenants.js';

interface Clock {
  now: string;
  installation_now: string;
  offset_seconds: number;
  frozen: boolean;
  moved: boolean;
}

interface Tenant {
  kind: 'hr' | 'academy';
  id: string;
  name: string;
  clock: Clock;
  applications?: { application_id: string }[];
  keys?: { key_id: number; state: string }[];
}

const DAY = 86_400_000;

/** `MM/DD/YYYY` of an instant, as the academy API's dates. */
function usDate(at: number): string {
  const d = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()}`;
}

for (const dialect of dialects()) {
  describe(`admin API: tenants and clocks (${dialect})`, () => {
    let server: TestServer;
    let token: string;
    let hr: HrCaller;
    let other: HrCaller;
    let academy: AcademyCaller;

    const admin = adminCaller(
      () => server,
      () => token,
    );
    const json = expectJson;
    const clockOf = (kind: string, id: string | number) => `/tenants/${kind}/${id}/clock`;
    /** Calls the HR API as this caller's application, with a token issued now (in its client's time). */
    const as = async (caller: HrCaller, on: TestServer = server) => {
      const fresh = await getToken(on, caller.creds);
      return (method: string, path: string, body?: unknown) =>
        fetch(`${on.url}/api/v2/client${path}`, {
          method,
          headers: {
            authorization: `Bearer ${fresh}`,
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
    };

    before(async () => {
      server = await startServer(dialect);
      token = (await server.app.services.adminTokens.create('tests', 'cli')).token;
      hr = await hrCaller(server);
      other = await hrCaller(server);
      academy = await academyCaller(server);
    });
    after(() => server.close());

    it('refuses tenant credentials and unknown or revoked tokens (401), and admin tokens on the tenant APIs', async () => {
      const refused = async (res: Response, why: string) => {
        const body = await json<{ code: string; message: string }>(res, 401);
        assert.equal(body.code, 'invalid_token', why);
        assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="atrium-admin"', why);
      };
      await refused(await fetch(`${server.url}/admin/v1/tenants`), 'no credentials');
      await refused(await admin('GET', '/tenants', undefined, hr.token), 'an HR bearer token');
      await refused(await admin('GET', '/tenants', undefined, academy.apikey), 'an academy key as a bearer token');
      await refused(
        await fetch(`${server.url}/admin/v1/tenants?acadId=${academy.acadId}&apikey=${academy.apikey}`),
        'academy credentials in the query',
      );
      await refused(
        await fetch(`${server.url}/admin/v1/tenants`, {
          headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
        }),
        'Basic credentials',
      );
      const offByOne = `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.at(-1)}`;
      await refused(await admin('GET', '/tenants', undefined, offByOne), 'a token one character off');
      const revoked = await server.app.services.adminTokens.create('revoked', 'cli');
      assert.equal((await admin('GET', '/tenants', undefined, revoked.token)).status, 200);
      await server.app.services.adminTokens.revoke(revoked.token_id, 'cli');
      await refused(await admin('GET', '/tenants', undefined, revoked.token), 'a revoked token');

      const onHr = await fetch(`${server.url}/api/v2/client/employees`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(onHr.status, 401);
      assert.equal(((await onHr.json()) as { code: string }).code, 'invalid_token');
      const onAcademy = await fetch(`${server.url}/v1/events/ilt?acadId=${academy.acadId}`, {
        headers: { authorization: `Bearer ${token}`, 'x-api-key': token },
      });
      assert.equal(onAcademy.status, 401);
    });

    it('lists every tenant of both kinds, without secrets, and finds one by kind and id (else 404)', async () => {
      const { tenants } = await json<{ tenants: Tenant[] }>(await admin('GET', '/tenants'), 200);
      const client = tenants.find((t) => t.kind === 'hr' && t.id === hr.creds.client_id);
      assert.deepEqual(
        client?.applications?.map((a) => a.application_id),
        [hr.creds.application_id],
      );
      assert.equal(client?.clock.moved, false);
      const acad = tenants.find((t) => t.kind === 'academy' && t.id === String(academy.acadId));
      assert.equal(acad?.keys?.length, 1);
      assert.equal(acad?.keys?.[0]?.state, 'current');
      const text = JSON.stringify(tenants);
      for (const secret of [hr.creds.application_secret, academy.apikey, token]) assert.ok(!text.includes(secret));

      const one = await json<Tenant>(await admin('GET', `/tenants/hr/${hr.creds.client_id}`), 200);
      assert.equal(one.id, hr.creds.client_id);
      assert.equal((await json<Tenant>(await admin('GET', `/tenants/academy/${academy.acadId}`), 200)).kind, 'academy');
      for (const path of [
        '/tenants/hr/no-such-client',
        '/tenants/academy/999999',
        '/tenants/academy/abc',
        `/tenants/academy/0${academy.acadId}`,
        `/tenants/other/${hr.creds.client_id}`,
        `/tenants/other/${hr.creds.client_id}/clock`,
        '/no-such-operation',
      ]) {
        const body = await json<{ code: string }>(await admin('GET', path), 404);
        assert.equal(body.code, 'not_found', path);
      }
    });

    it('sets, freezes, advances and resets a clock, with X-Atrium-Clock on that tenant only, each change audited', async () => {
      const target = '2031-05-01T12:00:00+00:00';
      const set = await json<Clock>(
        await admin('PUT', clockOf('hr', hr.creds.client_id), { now: target, frozen: true }),
        200,
      );
      assert.equal(set.now, target);
      assert.equal(set.frozen, true);
      assert.equal(set.moved, true);
      assert.ok(set.offset_seconds > 0);

      // The client's own answers show its time, and say so; another client's do not. Its earlier token has
      // expired: it was issued years before the client's now.
      assert.equal((await hr.call('GET', '/employees')).status, 401);
      const client = await as(hr);
      const res = await client('PUT', '/organizations/cern', { name: 'CERN' });
      const created = await json<{ id: string; created_at: string }>(res, 201);
      assert.equal(created.created_at, target);
      assert.equal(res.headers.get('x-atrium-clock'), `${target}; frozen`);
      const elsewhere = await other.call('PUT', '/organizations/cern', { name: 'CERN' });
      const theirs = await json<{ created_at: string }>(elsewhere, 201);
      assert.equal(elsewhere.headers.get('x-atrium-clock'), null);
      assert.ok(Math.abs(Date.parse(theirs.created_at) - Date.now()) < 60_000, theirs.created_at);

      // Frozen: time stands still, until advanced.
      const advanced = await json<Clock>(
        await admin('POST', `${clockOf('hr', hr.creds.client_id)}/advance`, {
          days: 1,
          hours: 2,
        }),
        200,
      );
      assert.equal(advanced.now, '2031-05-02T14:00:00+00:00');
      assert.equal(advanced.frozen, true);
      assert.equal(
        (await json<Clock>(await admin('GET', clockOf('hr', hr.creds.client_id)), 200)).now,
        '2031-05-02T14:00:00+00:00',
      );

      // Flowing again from where it stood; an offset instead of an instant.
      const flowing = await json<Clock>(
        await admin('PUT', clockOf('hr', hr.creds.client_id), { offset_seconds: 3600, frozen: false }),
        200,
      );
      assert.equal(flowing.frozen, false);
      assert.equal(flowing.offset_seconds, 3600);
      const header = (await (await as(hr))('GET', '/organizations/cern')).headers.get('x-atrium-clock');
      assert.match(header ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00; offset=3600$/);

      const reset = await json<Clock>(await admin('DELETE', clockOf('hr', hr.creds.client_id)), 200);
      assert.equal(reset.moved, false);
      assert.equal(reset.offset_seconds, 0);
      assert.equal((await (await as(hr))('GET', '/organizations/cern')).headers.get('x-atrium-clock'), null);
      const rows = await server.app.database.db.selectFrom('tenant_clocks').selectAll().execute();
      assert.deepEqual(rows, [], 'a reset tenant keeps no row');

      const audit = await server.app.services.adminAudit.list(10);
      const mine = audit.filter((a) => a.target === `hr:${hr.creds.client_id}`).map((a) => [a.action, a.detail]);
      assert.deepEqual(mine, [
        ['tenant.clock_reset', {}],
        ['tenant.clock_set', { offset_seconds: 3600, frozen: false }],
        ['tenant.clock_advanced', { seconds: 93_600 }],
        ['tenant.clock_set', { now: target, frozen: true }],
      ]);
      const actors = audit.filter((a) => a.target === `hr:${hr.creds.client_id}`).map((a) => a.actor);
      assert.ok(
        actors.every((actor) => /^token [0-9a-f-]{36} \(tests\)$/.test(actor)),
        actors.join(),
      );
    });

    it('answers 400 and 422 for bad clock changes, and changes nothing', async () => {
      const path = clockOf('hr', hr.creds.client_id);
      const code = async (res: Response, status: number) => (await json<{ code: string }>(res, status)).code;
      assert.equal(
        await code(await admin('PUT', path, { now: '2031-01-01T00:00:00Z', offset_seconds: 5 }), 400),
        'invalid_request',
      );
      assert.equal(await code(await admin('PUT', path, { now: 'tomorrow' }), 422), 'validation_error');
      assert.equal(await code(await admin('PUT', path, { now: '2031-02-30T00:00:00Z' }), 422), 'validation_error');
      assert.equal(await code(await admin('PUT', path, { offset_seconds: 1.5 }), 422), 'validation_error');
      assert.equal(await code(await admin('PUT', path, { offset_seconds: 10 ** 12 }), 422), 'validation_error');
      assert.equal(await code(await admin('PUT', path, { frozen: 'yes' }), 422), 'validation_error');
      assert.equal(await code(await admin('PUT', path, { speed: 2 }), 422), 'validation_error');
      assert.equal(await code(await admin('PUT', path, [1]), 400), 'invalid_request');
      assert.equal(await code(await admin('PUT', path, { now: '9999-12-31T00:00:00Z' }), 400), 'invalid_request');
      assert.equal(await code(await admin('POST', `${path}/advance`, {}), 422), 'validation_error');
      assert.equal(await code(await admin('POST', `${path}/advance`, { weeks: 1 }), 422), 'validation_error');
      assert.equal(await code(await admin('PUT', '/tenants/hr/nobody/clock', { offset_seconds: 5 }), 404), 'not_found');
      const clock = await json<Clock>(await admin('GET', path), 200);
      assert.equal(clock.moved, false);
    });

    it('expires a token, a document and an academy event in one tenant only', async () => {
      const tenant = await fullHrTenant(server);
      const docId = tenant.ids['/employee_documents']?.[0] as string;
      const expiry = new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10);
      assert.equal(
        (await tenant.caller.call('PUT', `/employee_documents/${docId}/expire`, { expiry_date: expiry })).status,
        204,
      );
      const doc = async (caller: HrCaller) =>
        json<{ expired: boolean }>(await caller.call('GET', `/employee_documents/${docId}`), 200);
      assert.equal((await doc(tenant.caller)).expired, false);
      const event = await academy.json<Detail>('POST', '/events/ilt', eventBody('ilt', [usDate(Date.now() + 3 * DAY)]));
      assert.equal(event.status, 'Upcoming');
      const otherToken = await getToken(server, other.creds);

      // Past the token's lifetime (an hour) and the document's expiry, and past the event's day.
      await json(await admin('POST', `${clockOf('hr', tenant.caller.creds.client_id)}/advance`, { days: 5 }), 200);
      await json(await admin('POST', `${clockOf('academy', academy.acadId)}/advance`, { days: 5 }), 200);
      const expired = await tenant.caller.call('GET', `/employee_documents/${docId}`);
      assert.equal(expired.status, 401);
      assert.match(((await expired.json()) as { message: string }).message, /expired/);
      const fresh = await getToken(server, tenant.caller.creds);
      const again = await fetch(`${server.url}/api/v2/client/employee_documents/${docId}`, {
        headers: { authorization: `Bearer ${fresh}` },
      });
      assert.equal(((await again.json()) as { expired: boolean }).expired, true, 'the document expired');
      assert.equal((await academy.json<Detail>('GET', `/events/ilt/${event.id}`)).status, 'Completed');

      // Another client's token lives on, and its clock did not move.
      const theirs = await fetch(`${server.url}/api/v2/client/employees`, {
        headers: { authorization: `Bearer ${otherToken}` },
      });
      assert.equal(theirs.status, 200);
      assert.equal(theirs.headers.get('x-atrium-clock'), null);
      const otherAcademy = await academyCaller(server);
      const theirEvent = await otherAcademy.json<Detail>(
        'POST',
        '/events/ilt',
        eventBody('ilt', [usDate(Date.now() + 3 * DAY)]),
      );
      assert.equal(theirEvent.status, 'Upcoming');
      await json(await admin('DELETE', clockOf('hr', tenant.caller.creds.client_id)), 200);
      await json(await admin('DELETE', clockOf('academy', academy.acadId)), 200);
    });

    it("advancing a client's clock brings its waiting jobs forward, and no one else's", async () => {
      const at = Date.now();
      const mine = await enqueue(server.app.database.db, {
        queue: 'test.nothing',
        tenant: hr.creds.client_id,
        payload: {},
        runAt: at + 3_600_000,
        giveUpAt: at + 7_200_000,
      });
      const theirs = await enqueue(server.app.database.db, {
        queue: 'test.nothing',
        tenant: other.creds.client_id,
        payload: {},
        runAt: at + 3_600_000,
      });
      await json(await admin('POST', `${clockOf('hr', hr.creds.client_id)}/advance`, { hours: 2 }), 200);
      const rows = await server.app.database.db
        .selectFrom('jobs')
        .select(['id', 'run_at', 'give_up_at'])
        .where('id', 'in', [mine, theirs])
        .orderBy('id')
        .execute();
      const [a, b] = rows.map((r) => ({
        runAt: Number(r.run_at),
        giveUpAt: r.give_up_at === null ? null : Number(r.give_up_at),
      }));
      assert.ok(a && b);
      assert.ok(Math.abs(a.runAt - (at - 3_600_000)) < 60_000, "due an hour ago, in the installation's time");
      assert.ok(Math.abs((a.giveUpAt ?? 0) - at) < 60_000, 'its deadline moved as much');
      assert.equal(b.runAt, at + 3_600_000, "another client's job is untouched");
      await server.app.database.db.deleteFrom('jobs').where('id', 'in', [mine, theirs]).execute();
      await json(await admin('DELETE', clockOf('hr', hr.creds.client_id)), 200);
    });

    it("a webhook delivery queued in a client's moved time is due at once, in the installation's time", async () => {
      await json(await admin('POST', `${clockOf('hr', hr.creds.client_id)}/advance`, { days: 1 }), 200);
      const client = await as(hr);
      const hook = await json<{ id: string }>(
        await client('POST', '/webhooks', {
          name: 'moved',
          callback_url: 'https://hooks.example.com/moved',
          events: ['organization.created'],
          is_active: true,
        }),
        201,
      );
      const before = Date.now();
      await json(await client('PUT', '/organizations/moved-clock', { name: 'Moved' }), 201);
      const job = await server.app.database.db
        .selectFrom('jobs')
        .select(['run_at', 'give_up_at'])
        .where('queue', '=', 'webhook.delivery')
        .where('tenant', '=', hr.creds.client_id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      const runAt = Number(job.run_at);
      assert.ok(
        runAt >= before - 1_000 && runAt <= Date.now() + 1_000,
        `due now, not a day later: ${runAt - before} ms`,
      );
      await client('DELETE', `/webhooks/${hook.id}`);
      await server.app.database.db.deleteFrom('jobs').where('queue', '=', 'webhook.delivery').execute();
      await json(await admin('DELETE', clockOf('hr', hr.creds.client_id)), 200);
    });

    it('a second server reads the clock another one set, within its refresh', async () => {
      const sibling = await server.sibling();
      await json(
        await admin('PUT', clockOf('hr', hr.creds.client_id), { now: '2030-01-01T00:00:00Z', frozen: true }),
        200,
      );
      let seen: string | null = null;
      for (let i = 0; i < 50 && seen === null; i++) {
        // A token the sibling issued, in what it takes for the client's time at that moment.
        const res = await (await as(hr, sibling))('GET', '/employees');
        seen = res.status === 200 ? res.headers.get('x-atrium-clock') : null;
        if (seen === null) await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(seen, '2030-01-01T00:00:00+00:00; frozen');
      await json(await admin('DELETE', clockOf('hr', hr.creds.client_id)), 200);
    });
  });
}

describe('admin API on a port of its own (ATRIUM_ADMIN_PORT)', () => {
  let server: TestServer;
  let adminUrl: string;
  let token: string;
  before(async () => {
    server = await startServer('sqlite', { ATRIUM_ADMIN_PORT: '0' });
    adminUrl = ((await server.app.listenAdmin()) as { url: string }).url;
    token = (await server.app.services.adminTokens.create('port', 'cli')).token;
  });
  after(() => server.close());

  it('answers there only, and that port serves only the tenant APIs besides (for the console)', async () => {
    const auth = { authorization: `Bearer ${token}` };
    assert.equal((await fetch(`${adminUrl}/admin/v1/tenants`, { headers: auth })).status, 200);
    assert.equal((await fetch(`${server.url}/admin/v1/tenants`, { headers: auth })).status, 404);
    // The tenant APIs answer there with their own guards (the console's view passes read them on its origin).
    const hr = await fetch(`${adminUrl}/api/v2/client/employees`);
    assert.equal(hr.status, 401);
    assert.equal(((await hr.json()) as { code: string }).code, 'invalid_token');
    assert.equal((await fetch(`${adminUrl}/v1/events/ilt?acadId=1`)).status, 401);
    assert.equal((await fetch(`${adminUrl}/healthz`)).status, 404);
    assert.equal((await fetch(`${adminUrl}/docs`)).status, 404);
    assert.equal((await fetch(`${adminUrl}/openapi.json`)).status, 404);
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
  });
});
