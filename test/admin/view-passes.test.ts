/**
 * View passes (docs/admin.md, "View passes"): the admin API's read-only credential of one tenant's own API, which
 * the console's data browser reads with. Reads work as an application's token does; writes get 403; another
 * tenant's data stays out of reach; a forged, altered or expired pass is a 401; calls made with one are neither
 * logged nor shaped by fault rules. And an operator's webhook redelivery, audited.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AdminClient } from '@atrium/client';
import { type AcademyCaller, academyCaller, eventBody } from '../support/academy.js';
import { expectJson as json } from '../support/admin.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

interface Pass {
  pass: string;
  expires_at: string;
  expires_in: number;
}

/** Polls until `check` holds (bounded; no timing is asserted). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

for (const dialect of dialects()) {
  describe(`admin API: view passes and the operator's redelivery (${dialect})`, () => {
    let server: TestServer;
    let token: string;
    let admin: AdminClient;
    let hr: HrCaller;
    let other: HrCaller;
    let academy: AcademyCaller;
    let receiver: Receiver;

    const adminCall = (method: string, path: string) =>
      fetch(`${server.url}/admin/v1${path}`, { method, headers: { authorization: `Bearer ${token}` } });
    const passOf = async (kind: 'hr' | 'academy', id: string | number) =>
      json<Pass>(await adminCall('POST', `/tenants/${kind}/${id}/view_pass`), 201);
    const withPass = (pass: string, method: string, path: string, body?: unknown) =>
      fetch(`${server.url}/api/v2/client${path}`, {
        method,
        headers: {
          authorization: `Bearer ${pass}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    const academyWithPass = (pass: string, method: string, path: string, acadId = academy.acadId, body?: unknown) =>
      fetch(`${server.url}/v1${path}${path.includes('?') ? '&' : '?'}acadId=${acadId}`, {
        method,
        headers: { 'x-api-key': pass, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });

    before(async () => {
      server = await startServer(dialect, {
        ATRIUM_JOB_POLL_MS: '20',
        ATRIUM_RATE_LIMIT: '0',
        ATRIUM_WEBHOOK_BACKOFF_BASE_MS: '20',
      });
      token = (await server.app.services.adminTokens.create('view passes', 'cli')).token;
      admin = new AdminClient({ baseUrl: server.url, token, maxRetries: 0 });
      hr = await hrCaller(server);
      other = await hrCaller(server);
      academy = await academyCaller(server);
      assert.equal((await hr.call('PUT', '/organizations/paris', { name: 'Paris' })).status, 201);
      assert.equal((await other.call('PUT', '/organizations/berlin', { name: 'Berlin' })).status, 201);
      receiver = await startReceiver();
    });
    after(async () => {
      server.app.services.clock.reset();
      await receiver.close();
      await server.close();
    });

    it('reads an HR client’s data exactly as its own token does, and nothing of another client', async () => {
      const made = await passOf('hr', hr.creds.client_id);
      assert.match(made.pass, /^atrium_view_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
      assert.equal(made.expires_in, 600);
      const left = Date.parse(made.expires_at) - Date.now();
      assert.ok(left > 590_000 && left <= 600_000, `expires in ten minutes (${left} ms)`);

      const viewed = await withPass(made.pass, 'GET', '/organizations');
      const own = await hr.call('GET', '/organizations');
      assert.equal(viewed.status, 200);
      assert.equal(await viewed.text(), await own.text(), 'the same answer as the client’s own token');
      // The other client's organization is not found with this pass, as with any token of this client.
      assert.equal((await withPass(made.pass, 'GET', '/organizations/berlin')).status, 404);
      assert.equal((await withPass(made.pass, 'GET', '/organizations/paris')).status, 200);
      // A search by POST that read-only applications may make is allowed.
      assert.equal((await withPass(made.pass, 'POST', '/employees/search', {})).status, 200);
      // The SDK gets one too.
      const viaSdk = await admin.tenants.viewPass(`hr:${other.creds.client_id}`);
      const berlin = await withPass(viaSdk.pass, 'GET', '/organizations/berlin');
      assert.equal(berlin.status, 200);
    });

    it('refuses every write made with a pass, and changes nothing', async () => {
      const { pass } = await passOf('hr', hr.creds.client_id);
      const put = await withPass(pass, 'PUT', '/organizations/lyon', { name: 'Lyon' });
      const body = await json<{ code: string; message: string }>(put, 403);
      assert.equal(body.code, 'insufficient_scope');
      assert.match(body.message, /view pass only reads/);
      const hook = { name: 'h', callback_url: 'https://example.test/h', events: ['*'] };
      assert.equal((await withPass(pass, 'POST', '/webhooks', hook)).status, 403);
      assert.equal((await hr.call('GET', '/organizations/lyon')).status, 404, 'nothing was written');
      assert.deepEqual(await json<unknown[]>(await hr.call('GET', '/webhooks'), 200), [], 'no webhook was made');
    });

    it('refuses a forged, altered, foreign or expired pass with a 401', async () => {
      const { pass } = await passOf('hr', hr.creds.client_id);
      const [payload, mac] = pass.slice('atrium_view_'.length).split('.') as [string, string];
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { t: string; e: number };
      const forgedPayload = Buffer.from(JSON.stringify({ ...claims, t: `hr:${other.creds.client_id}` })).toString(
        'base64url',
      );
      const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
      const refused = [
        `atrium_view_${forgedPayload}.${mac}`,
        `atrium_view_${payload}.${flipped}`,
        `atrium_view_${payload}`,
        `atrium_view_${payload}.${mac}.extra`,
        'atrium_view_',
        `atrium_view_${'a'.repeat(300)}.${mac}`,
      ];
      for (const bad of refused) {
        const res = await withPass(bad, 'GET', '/organizations');
        const body = await json<{ code: string }>(res, 401);
        assert.equal(body.code, 'invalid_token', bad.slice(0, 40));
      }
      // An HR pass is no Academy key, and an Academy pass no HR token.
      assert.equal((await academyWithPass(pass, 'GET', '/events/ilt')).status, 401);
      const academyPass = (await passOf('academy', academy.acadId)).pass;
      assert.equal((await withPass(academyPass, 'GET', '/organizations')).status, 401);

      // A tenant's moved clock does not expire it; the installation's time does, after ten minutes.
      await admin.clock.advance(`hr:${hr.creds.client_id}`, { days: 2 });
      assert.equal((await withPass(pass, 'GET', '/organizations')).status, 200, 'the tenant’s clock is not the pass’s');
      await admin.clock.reset(`hr:${hr.creds.client_id}`);
      const clock = server.app.services.clock;
      clock.set(Date.now() + 601_000);
      try {
        const res = await withPass(pass, 'GET', '/organizations');
        assert.equal((await json<{ code: string }>(res, 401)).code, 'invalid_token');
      } finally {
        clock.reset();
      }
      assert.equal((await withPass(pass, 'GET', '/organizations')).status, 200);
    });

    it('reads an academy with X-API-Key or apikey and its acadId; refuses writes and other academies', async () => {
      const created = await academy.json<{ id: number }>('POST', '/events/ilt', eventBody('ilt'), 201);
      const { pass } = await passOf('academy', academy.acadId);
      const viewed = await academyWithPass(pass, 'GET', '/events/ilt');
      assert.equal(viewed.status, 200);
      const own = await academy.call('GET', '/events/ilt');
      assert.equal(await viewed.text(), await own.text(), 'the same answer as the academy’s own key');
      const inQuery = await fetch(
        `${server.url}/v1/events/ilt/${created.id}?acadId=${academy.acadId}&apikey=${encodeURIComponent(pass)}`,
      );
      assert.equal(inQuery.status, 200);

      const write = await academyWithPass(pass, 'POST', '/events/ilt', academy.acadId, eventBody('ilt'));
      const body = await json<{ status: number; code: string; message: string }>(write, 403);
      assert.deepEqual([body.status, body.code], [403, 'forbidden']);
      const del = await academyWithPass(pass, 'DELETE', `/events/ilt/${created.id}`);
      assert.equal(del.status, 403);
      assert.equal((await academy.call('GET', `/events/ilt/${created.id}`)).status, 200, 'nothing was deleted');

      const another = await academyCaller(server);
      const foreign = await academyWithPass(pass, 'GET', '/events/ilt', another.acadId);
      assert.equal((await json<{ code: string }>(foreign, 401)).code, 'unauthorized');
    });

    it('is not in the tenant’s request log, and no fault rule shapes it or uses it up', async () => {
      const tenant = `hr:${hr.creds.client_id}`;
      const rule = await admin.faults.create(tenant, {
        match: { operation_id: 'hr_organizations_list' },
        effect: { type: 'status', status: 503 },
        remaining_count: 1,
      });
      await server.app.services.requestLog.flush();
      const before = (await admin.requests.list(tenant, { limit: 200 }).toArray()).length;
      const { pass } = await passOf('hr', hr.creds.client_id);
      for (let i = 0; i < 3; i++) {
        const res = await withPass(pass, 'GET', '/organizations');
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('x-atrium-fault'), null);
      }
      await server.app.services.requestLog.flush();
      assert.equal((await admin.requests.list(tenant, { limit: 200 }).toArray()).length, before, 'nothing logged');
      assert.equal((await admin.faults.retrieve(tenant, rule.id)).applied_count, 0);
      // The client's own call still meets the rule, and is logged.
      const own = await hr.call('GET', '/organizations');
      assert.equal(own.status, 503);
      await server.app.services.requestLog.flush();
      assert.equal((await admin.requests.list(tenant, { limit: 200 }).toArray()).length, before + 1);
      await admin.faults.clear(tenant);
    });

    it('is made only with an operator’s credentials, for a tenant that exists', async () => {
      const none = await fetch(`${server.url}/admin/v1/tenants/hr/${hr.creds.client_id}/view_pass`, { method: 'POST' });
      assert.equal(none.status, 401);
      const viaToken = await fetch(`${server.url}/admin/v1/tenants/hr/${hr.creds.client_id}/view_pass`, {
        method: 'POST',
        headers: { authorization: `Bearer ${hr.token}` },
      });
      assert.equal(viaToken.status, 401, 'an HR token is no operator token');
      assert.equal((await adminCall('POST', '/tenants/hr/no-such-client/view_pass')).status, 404);
      assert.equal((await adminCall('POST', '/tenants/academy/999999/view_pass')).status, 404);
      assert.equal((await adminCall('POST', '/tenants/people/1/view_pass')).status, 404);
    });

    it('redelivers a webhook’s delivery for an operator, audited; unknown ones are 404', async () => {
      const hook = await json<{ id: string }>(
        await hr.call('POST', '/webhooks', {
          name: 'hook',
          callback_url: receiver.url,
          events: ['organization.created'],
          is_active: true,
        }),
        201,
      );
      assert.equal((await hr.call('PUT', '/organizations/rome', { name: 'Rome' })).status, 201);
      const [first] = await receiver.waitFor(1);
      const { pass } = await passOf('hr', hr.creds.client_id);
      // A view pass never reads a webhook's signature key; the client's own token does.
      const viewed = await json<{ signature_key: string }>(await withPass(pass, 'GET', `/webhooks/${hook.id}`), 200);
      assert.equal(viewed.signature_key, '(hidden from view passes)');
      const listed = await json<{ signature_key: string }[]>(await withPass(pass, 'GET', '/webhooks'), 200);
      assert.deepEqual(
        listed.map((w) => w.signature_key),
        ['(hidden from view passes)'],
      );
      const own = await json<{ signature_key: string }>(await hr.call('GET', `/webhooks/${hook.id}`), 200);
      assert.match(own.signature_key, /^[A-Za-z0-9_-]{20,}$/);
      const attempts = async () =>
        json<{ delivery_id: string }[]>(await withPass(pass, 'GET', `/webhooks/${hook.id}/deliveries`), 200);
      await until(async () => (await attempts()).length === 1, 'the first attempt');
      const [attempt] = await attempts();
      assert.ok(attempt);

      const path = `/tenants/hr/${hr.creds.client_id}/webhooks/${hook.id}/deliveries/${attempt.delivery_id}/redeliver`;
      const res = await adminCall('POST', path);
      assert.equal(res.status, 202);
      assert.equal(await res.text(), '');
      const [, again] = await receiver.waitFor(2);
      assert.equal(again?.headers['x-event-id'], first?.headers['x-event-id'], 'the same event');
      assert.equal(again?.body, first?.body);
      await until(async () => (await attempts()).length === 2, 'the redelivery attempt');
      const [entry] = await server.app.services.adminAudit.list(1);
      assert.equal(entry?.action, 'webhook.redelivered');
      assert.equal(entry?.target, `hr:${hr.creds.client_id}`);
      assert.deepEqual(entry?.detail, { webhook_id: hook.id, delivery_id: attempt.delivery_id });
      // The SDK's method does the same.
      await admin.webhooks.redeliver(`hr:${hr.creds.client_id}`, hook.id, attempt.delivery_id);
      await receiver.waitFor(3);

      assert.equal((await adminCall('POST', path.replace(attempt.delivery_id, 'nope'))).status, 404);
      assert.equal((await adminCall('POST', path.replace(hr.creds.client_id, other.creds.client_id))).status, 404);
      const academyPath = `/tenants/academy/${academy.acadId}/webhooks/${hook.id}/deliveries/${attempt.delivery_id}/redeliver`;
      assert.equal((await adminCall('POST', academyPath)).status, 404);
      assert.equal(receiver.received.length, 3, 'no other delivery was made');
    });
  });
}
