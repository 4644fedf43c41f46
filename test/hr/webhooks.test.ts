/**
 * Webhooks (reference §3f.5; docs/hr-api.md, "Webhooks"): CRUD with every 422, keys sealed at rest, and delivery
 * from the outbox to real receivers: signed bodies, retries with backoff, order per webhook, a dead receiver
 * delaying no other, test callbacks, redelivery, and private addresses refused when the setting is off.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/platform/config.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

interface Hook {
  id: string;
  name: string;
  callback_url: string;
  events: string[];
  is_active: boolean;
  signature_key: string;
  created_at: string;
  updated_at: string;
}

interface Attempt {
  delivery_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: string;
  response_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  delivery_status: string;
}

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

async function fieldErrors(res: Response): Promise<string[]> {
  const body = (await json<{ code: string; errors?: { field: string }[] }>(res, 422)) as {
    errors?: { field: string }[];
  };
  return (body.errors ?? []).map((e) => e.field);
}

/** Checks `X-Event-Signature` as a receiver would: `t=<s>,v1=<hex HMAC of "<t>.<body>">`. */
function verify(body: string, header: string | undefined, key: string): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.split('=') as [string, string]));
  const expected = createHmac('sha256', key).update(`${parts.t}.${body}`).digest('hex');
  return parts.v1 === expected;
}

/** Polls until `check` holds (bounded; no timing is asserted). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const FAST = {
  ATRIUM_JOB_POLL_MS: '20',
  ATRIUM_WEBHOOK_BACKOFF_BASE_MS: '20',
  ATRIUM_WEBHOOK_BACKOFF_CAP_MS: '100',
  ATRIUM_WEBHOOK_TIMEOUT_MS: '3000',
};

describe('ATRIUM_WEBHOOK_ALLOW_PRIVATE by default', () => {
  it('allows private receivers only when the server listens on loopback alone', () => {
    const allowed = (env: Record<string, string>) => loadConfig(env).webhookAllowPrivate;
    assert.equal(allowed({}), true, 'HOST defaults to 127.0.0.1');
    assert.equal(allowed({ HOST: '127.0.0.1' }), true);
    assert.equal(allowed({ HOST: '::1' }), true);
    assert.equal(allowed({ HOST: '0.0.0.0' }), false, 'the container image');
    assert.equal(allowed({ HOST: '10.0.0.5' }), false);
    assert.equal(allowed({ HOST: '0.0.0.0', ATRIUM_WEBHOOK_ALLOW_PRIVATE: 'true' }), true, 'said outright');
    assert.equal(allowed({ ATRIUM_WEBHOOK_ALLOW_PRIVATE: 'false' }), false);
    // `atrium serve --host 0.0.0.0` overrides HOST: the default follows the interface bound.
    assert.equal(loadConfig({}, { host: '0.0.0.0' }).webhookAllowPrivate, false, 'serve --host 0.0.0.0');
    assert.equal(loadConfig({ HOST: '0.0.0.0' }, { host: '127.0.0.1' }).webhookAllowPrivate, true);
    assert.equal(loadConfig({ ATRIUM_WEBHOOK_ALLOW_PRIVATE: 'true' }, { host: '0.0.0.0' }).webhookAllowPrivate, true);
  });
});

for (const dialect of dialects()) {
  describe(`webhooks (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    const receivers: Receiver[] = [];
    const receiver = async (answers: (number | 'hang')[] = [200]) => {
      const r = await startReceiver(answers);
      receivers.push(r);
      return r;
    };
    const create = async (body: Partial<Hook>, caller = hr) =>
      json<Hook>(
        await caller.call('POST', '/webhooks', { name: 'hook', events: ['*'], is_active: true, ...body }),
        201,
      );
    const attempts = async (id: string) =>
      json<Attempt[]>(await hr.call('GET', `/webhooks/${id}/deliveries?per_page=100`), 200);

    before(async () => {
      server = await startServer(dialect, FAST);
      hr = await hrCaller(server);
      other = await hrCaller(server);
    });
    after(async () => {
      for (const r of receivers) await r.close();
      await server.close();
    });

    it('creates, reads, lists, updates and deletes webhooks; the key is sealed at rest', async () => {
      const r = await receiver();
      const hook = await create({ name: 'Sync', callback_url: r.url, events: ['organization.*', 'webhook.created'] });
      assert.match(hook.id, /^[0-9a-f-]{36}$/);
      assert.equal(hook.name, 'Sync');
      assert.deepEqual(hook.events, ['organization.*', 'webhook.created']);
      assert.equal(hook.is_active, true);
      assert.ok(hook.signature_key.length >= 40);
      assert.deepEqual(await json(await hr.call('GET', `/webhooks/${hook.id}`), 200), hook);
      const row = await server.app.database.db
        .selectFrom('hr_webhooks')
        .select('signature_key')
        .where('id', '=', hook.id)
        .executeTakeFirstOrThrow();
      assert.ok(!row.signature_key.includes(hook.signature_key), 'the key is not stored in clear');

      const updated = await json<Hook>(
        await hr.call('PUT', `/webhooks/${hook.id}`, {
          name: 'Sync 2',
          callback_url: r.url,
          events: ['*'],
          is_active: false,
        }),
        200,
      );
      assert.equal(updated.name, 'Sync 2');
      assert.equal(updated.is_active, false);
      assert.equal(updated.signature_key, hook.signature_key);
      const rotated = await json<Hook>(await hr.call('POST', `/webhooks/${hook.id}/refresh_signature_key`), 200);
      assert.notEqual(rotated.signature_key, hook.signature_key);

      const listed = await json<Hook[]>(await hr.call('GET', '/webhooks'), 200);
      assert.ok(listed.some((h) => h.id === hook.id && h.signature_key === rotated.signature_key));
      // Its audit events never hold the key.
      const events = await json<{ type: string; data: Record<string, unknown> }[]>(
        await hr.call('GET', `/events?resource_id=${hook.id}`),
        200,
      );
      assert.deepEqual(
        events.map((e) => e.type),
        ['webhook.signature_key_refreshed', 'webhook.updated', 'webhook.created'],
      );
      for (const e of events) assert.equal('signature_key' in e.data, false);

      assert.equal((await other.call('GET', `/webhooks/${hook.id}`)).status, 404);
      assert.equal((await other.call('DELETE', `/webhooks/${hook.id}`)).status, 404);
      assert.equal((await hr.call('DELETE', `/webhooks/${hook.id}`)).status, 204);
      assert.equal((await hr.call('GET', `/webhooks/${hook.id}`)).status, 404);
      assert.equal((await hr.call('DELETE', `/webhooks/${hook.id}`)).status, 404);
      const body = { name: 'x', callback_url: r.url, events: ['*'], is_active: true };
      assert.equal((await hr.call('PUT', `/webhooks/${hook.id}`, body)).status, 404);
      assert.equal((await hr.call('POST', '/webhooks/nope/tests')).status, 404);
      assert.equal((await hr.call('POST', '/webhooks/nope/refresh_signature_key')).status, 404);
    });

    it('refuses every bad body with a field error, and writes nothing', async () => {
      const before = await server.app.database.db.selectFrom('hr_webhooks').select('id').execute();
      const base = { name: 'x', callback_url: 'https://example.com/hook', events: ['*'], is_active: true };
      assert.deepEqual(
        await fieldErrors(await hr.call('POST', '/webhooks', { ...base, events: ['nothing.created'] })),
        ['events.0'],
      );
      assert.deepEqual(
        await fieldErrors(await hr.call('POST', '/webhooks', { ...base, events: ['*', 'organization.exploded'] })),
        ['events.1'],
      );
      assert.deepEqual(await fieldErrors(await hr.call('POST', '/webhooks', { ...base, events: ['nothing.*'] })), [
        'events.0',
      ]);
      for (const url of ['ftp://example.com/x', 'not a url', 'https://user:pw@example.com/x', 'javascript:alert(1)']) {
        assert.deepEqual(await fieldErrors(await hr.call('POST', '/webhooks', { ...base, callback_url: url })), [
          'callback_url',
        ]);
      }
      for (const broken of [
        { ...base, events: [] },
        { ...base, name: '' },
        { name: 'x', events: ['*'], is_active: true },
        { ...base, is_active: 'yes' },
      ]) {
        const res = await hr.call('POST', '/webhooks', broken);
        assert.ok(res.status === 422 || res.status === 400, `${res.status} for ${JSON.stringify(broken)}`);
        await res.arrayBuffer();
      }
      const after = await server.app.database.db.selectFrom('hr_webhooks').select('id').execute();
      assert.equal(after.length, before.length);
    });

    it('delivers a matching event, signed, with its id, type and agent; the body is the event as GET shows it', async () => {
      const r = await receiver();
      const hook = await create({ callback_url: r.url, events: ['organization.created'] });
      assert.equal((await hr.call('PUT', '/organizations/wh-1', { name: 'Hooked' })).status, 201);
      assert.equal((await hr.call('PATCH', '/organizations/wh-1', { city: 'Not subscribed' })).status, 200);
      const [call] = await r.waitFor(1);
      assert.ok(call);
      assert.equal(call.headers['content-type'], 'application/json');
      assert.match(call.headers['user-agent'] ?? '', /^Atrium\//);
      assert.ok(verify(call.body, call.headers['x-event-signature'] as string, hook.signature_key));
      assert.equal(verify(`${call.body} `, call.headers['x-event-signature'] as string, hook.signature_key), false);
      const event = JSON.parse(call.body) as { id: string; type: string; data: { name: string } };
      assert.equal(event.type, 'organization.created');
      assert.equal(call.headers['x-event-id'], event.id);
      assert.deepEqual(event, await json(await hr.call('GET', `/events/${event.id}`), 200));
      await until(async () => (await attempts(hook.id))[0]?.delivery_status === 'succeeded', 'the attempt');
      const [attempt] = await attempts(hook.id);
      assert.equal(attempt?.response_code, 200);
      assert.equal(attempt?.response_excerpt, null, 'a private receiver’s answer is never shown (issue 51)');
      // The update was not subscribed: nothing more came.
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(r.received.length, 1);
      await hr.call('DELETE', `/webhooks/${hook.id}`);
    });

    it('retries a failing receiver with backoff until it answers 2xx, recording each attempt', async () => {
      const r = await receiver([500, 503, 502, 200]);
      const hook = await create({ callback_url: r.url, events: ['organization.*'] });
      assert.equal((await hr.call('PUT', '/organizations/wh-retry', { name: 'Retry' })).status, 201);
      const calls = await r.waitFor(4);
      assert.deepEqual(new Set(calls.map((c) => c.headers['x-event-id'])).size, 1, 'one event, four attempts');
      await until(async () => (await attempts(hook.id)).length === 4, 'four attempts');
      const list = await attempts(hook.id);
      assert.deepEqual(
        list.map((a) => [a.attempt, a.status, a.response_code]),
        [
          [4, 'succeeded', 200],
          [3, 'failed', 502],
          [2, 'failed', 503],
          [1, 'failed', 500],
        ],
      );
      assert.ok(list.every((a) => a.delivery_status === 'succeeded'));
      assert.equal(list[3]?.error, 'the receiver answered 500');
      await hr.call('DELETE', `/webhooks/${hook.id}`);
    });

    it('tells neither the address nor the kind of a connection failure (closed port, unknown name)', async () => {
      const closed = await startReceiver();
      const url = closed.url;
      await closed.close();
      for (const callback of [url, 'http://no-such-host.invalid/hook']) {
        const hook = await create({ callback_url: callback, events: ['organization.*'] });
        assert.equal((await hr.call('POST', `/webhooks/${hook.id}/tests`)).status, 204);
        await until(async () => (await attempts(hook.id)).length > 0, 'the failed attempt');
        const [attempt] = await attempts(hook.id);
        assert.equal(attempt?.error, 'failed: no answer from the callback URL (not reachable, or too slow)', callback);
        assert.equal(attempt?.response_excerpt, null);
        await hr.call('DELETE', `/webhooks/${hook.id}`);
      }
    });

    it('sends one webhook’s events in event order, even when the first needs retries', async () => {
      const r = await receiver([500, 500, 200]);
      const hook = await create({ callback_url: r.url, events: ['organization.created'] });
      for (let i = 0; i < 5; i++) {
        assert.equal((await hr.call('PUT', `/organizations/wh-order-${i}`, { name: `Order ${i}` })).status, 201);
      }
      const calls = await r.waitFor(7);
      const names = calls.map((c) => (JSON.parse(c.body) as { data: { id: string } }).data.id);
      assert.deepEqual(names, [
        'wh-order-0',
        'wh-order-0',
        'wh-order-0',
        'wh-order-1',
        'wh-order-2',
        'wh-order-3',
        'wh-order-4',
      ]);
      await hr.call('DELETE', `/webhooks/${hook.id}`);
    });

    it('a receiver that never answers delays no other webhook', async () => {
      const dead = await receiver(['hang']);
      const live = await receiver();
      const slow = await create({ callback_url: dead.url, events: ['organization.created'] });
      const fast = await create({ callback_url: live.url, events: ['organization.created'] });
      for (let i = 0; i < 4; i++) {
        assert.equal((await hr.call('PUT', `/organizations/wh-dead-${i}`, { name: `Dead ${i}` })).status, 201);
      }
      await live.waitFor(4);
      // Every event reached the live receiver while the dead one still holds the first delivery open.
      assert.equal(dead.received.length, 1);
      await hr.call('DELETE', `/webhooks/${slow.id}`);
      await hr.call('DELETE', `/webhooks/${fast.id}`);
    });

    it('sends a test callback at once, and redelivers an event with the same id', async () => {
      const r = await receiver();
      const hook = await create({ callback_url: r.url, events: ['organization.updated'], is_active: false });
      assert.equal((await hr.call('POST', `/webhooks/${hook.id}/tests`)).status, 204);
      const [test] = await r.waitFor(1);
      const event = JSON.parse(test?.body ?? '{}') as { id: string; type: string };
      assert.equal(event.type, 'webhook.test');
      assert.ok(verify(test?.body ?? '', test?.headers['x-event-signature'] as string, hook.signature_key));
      await until(async () => (await attempts(hook.id)).length === 1, 'the test attempt');
      const [attempt] = await attempts(hook.id);
      assert.ok(attempt);
      const res = await hr.call('POST', `/webhooks/${hook.id}/deliveries/${attempt.delivery_id}/redeliver`);
      assert.equal(res.status, 202);
      const [, again] = await r.waitFor(2);
      assert.equal(again?.headers['x-event-id'], event.id);
      assert.equal(again?.body, test?.body);
      assert.equal((await hr.call('POST', `/webhooks/${hook.id}/deliveries/nope/redeliver`)).status, 404);
      assert.equal((await other.call('GET', `/webhooks/${hook.id}/deliveries`)).status, 404);
      await hr.call('DELETE', `/webhooks/${hook.id}`);
    });

    it('stops a webhook’s queued deliveries and retries once it is made inactive; a test still goes', async () => {
      const r = await receiver([500]);
      const hook = await create({ callback_url: r.url, events: ['organization.created'] });
      const body = { name: hook.name, callback_url: r.url, events: hook.events };
      assert.equal((await hr.call('PUT', '/organizations/wh-pause-0', { name: 'Paused' })).status, 201);
      await r.waitFor(2);
      await json(await hr.call('PUT', `/webhooks/${hook.id}`, { ...body, is_active: false }), 200);
      const deliveries = () =>
        server.app.database.db
          .selectFrom('hr_webhook_deliveries')
          .select(['status'])
          .where('webhook_id', '=', hook.id)
          .execute();
      await until(async () => (await deliveries())[0]?.status === 'skipped', 'the delivery to be skipped');
      const sent = r.received.length;
      // An event while inactive queues nothing for it.
      assert.equal((await hr.call('PUT', '/organizations/wh-pause-1', { name: 'Paused too' })).status, 201);
      assert.equal((await deliveries()).length, 1);
      const list = await attempts(hook.id);
      assert.equal(list.length, sent);
      assert.ok(list.every((a) => a.status === 'failed' && a.delivery_status === 'skipped'));
      // A test callback is asked for by name: it goes even now.
      r.answers = [200];
      assert.equal((await hr.call('POST', `/webhooks/${hook.id}/tests`)).status, 204);
      const calls = await r.waitFor(sent + 1);
      assert.equal((JSON.parse(calls[sent]?.body ?? '{}') as { type: string }).type, 'webhook.test');
      await hr.call('DELETE', `/webhooks/${hook.id}`);
    });

    it('queues nothing for a rejected write', async () => {
      const r = await receiver();
      const hook = await create({ callback_url: r.url, events: ['*'] });
      const jobs = async () => (await server.app.database.db.selectFrom('jobs').select('id').execute()).length;
      const before = await jobs();
      assert.equal((await hr.call('PATCH', '/organizations/wh-none', { city: 'X' })).status, 404);
      assert.equal(
        (await hr.call('PUT', '/organizations/wh-self', { name: 'S', parent_organization_id: 'wh-self' })).status,
        422,
      );
      assert.equal(await jobs(), before);
      await hr.call('DELETE', `/webhooks/${hook.id}`);
    });
  });

  describe(`webhooks to private addresses, ATRIUM_WEBHOOK_ALLOW_PRIVATE=false (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let r: Receiver;
    before(async () => {
      server = await startServer(dialect, {
        ...FAST,
        ATRIUM_WEBHOOK_ALLOW_PRIVATE: 'false',
        ATRIUM_WEBHOOK_RETRY_FOR: '0',
      });
      hr = await hrCaller(server);
      r = await startReceiver();
    });
    after(async () => {
      await r.close();
      await server.close();
    });

    it('refuses loopback by address and by name, checked when connecting; the receiver is never called', async () => {
      const port = new URL(r.url).port;
      for (const url of [r.url, `http://localhost:${port}/hook`, `http://[::1]:${port}/hook`]) {
        const hook = await json<Hook>(
          await hr.call('POST', '/webhooks', { name: 'private', callback_url: url, events: ['*'], is_active: true }),
          201,
        );
        assert.equal((await hr.call('POST', `/webhooks/${hook.id}/tests`)).status, 204);
        await until(
          async () => (await json<Attempt[]>(await hr.call('GET', `/webhooks/${hook.id}/deliveries`), 200)).length > 0,
          'the refused attempt',
        );
        const [attempt] = await json<Attempt[]>(await hr.call('GET', `/webhooks/${hook.id}/deliveries`), 200);
        assert.equal(attempt?.status, 'failed');
        assert.equal(attempt?.error, 'refused: the callback URL names a private address', 'no address told');
        assert.equal(attempt?.response_code, null);
        // ATRIUM_WEBHOOK_RETRY_FOR=0: no second attempt, the delivery has failed.
        await until(
          async () =>
            (await json<Attempt[]>(await hr.call('GET', `/webhooks/${hook.id}/deliveries`), 200))[0]
              ?.delivery_status === 'failed',
          'the delivery to fail',
        );
      }
      assert.equal(r.received.length, 0);
    });
  });
}
