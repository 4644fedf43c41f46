/**
 * The SDK's audit trail and webhooks (`hr.events`, `hr.webhooks`) over real HTTP on both databases, and
 * `verifyWebhookSignature` on callbacks a real receiver got from the server's deliverer: accepted as sent, refused
 * when the body is changed, the key is another, or the timestamp is beyond the tolerance. Then the header's
 * parsing, case by case, without a server.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  AtriumUsageError,
  type AuditEvent,
  type AuditEventExportLine,
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  type HrClient,
  HrInvalidRequestError,
  HrNotFoundError,
  HrValidationError,
  verifyWebhookSignature,
  type Webhook,
  type WebhookDeliveryAttempt,
  WebhookSignatureError,
  type WebhookSignatureErrorReason,
} from '@atrium/client';
import { type Recorder, sdkHr } from '../support/client.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

/** Asserts the promise rejects with a WebhookSignatureError of this reason. */
async function refused(promise: Promise<unknown>, reason: WebhookSignatureErrorReason): Promise<void> {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof WebhookSignatureError, `expected WebhookSignatureError, got ${String(e)}`);
    assert.equal(e.reason, reason, e.message);
    assert.equal(e.name, 'WebhookSignatureError');
    return true;
  });
}

/** Polls until `check` holds (bounded; no timing is asserted). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A header as the server signs (src/hr/integrations/webhooks/sender.ts), computed here independently. */
function sign(key: string, body: string | Uint8Array, t: number): string {
  const mac = createHmac('sha256', key).update(`${t}.`).update(body).digest('hex');
  return `t=${t},v1=${mac}`;
}

const FAST = {
  ATRIUM_JOB_POLL_MS: '20',
  ATRIUM_WEBHOOK_BACKOFF_BASE_MS: '20',
  ATRIUM_WEBHOOK_BACKOFF_CAP_MS: '100',
  ATRIUM_WEBHOOK_TIMEOUT_MS: '3000',
};

for (const dialect of dialects()) {
  describe(`SDK: events and webhooks (${dialect})`, () => {
    let server: TestServer;
    let hr: HrClient;
    let rec: Recorder;
    const receivers: Receiver[] = [];
    const receiver = async () => {
      const r = await startReceiver([200]);
      receivers.push(r);
      return r;
    };

    before(async () => {
      server = await startServer(dialect, FAST);
      ({ hr, rec } = await sdkHr(server));
    });
    after(async () => {
      for (const r of receivers) await r.close();
      await server.close();
    });

    it('creates, lists, retrieves, replaces, rotates the key of and deletes a webhook', async () => {
      const r = await receiver();
      const hook: Webhook = await hr.webhooks.create({
        name: 'Sync',
        callback_url: r.url,
        events: ['organization.*'],
        is_active: true,
      });
      assert.match(hook.id, /^[0-9a-f-]{36}$/);
      assert.ok(hook.signature_key.length >= 40);
      assert.deepEqual(await hr.webhooks.retrieve(hook.id), hook);
      assert.deepEqual(
        (await hr.webhooks.list().toArray()).map((w) => w.id),
        [hook.id],
      );

      const before = rec.calls.length;
      const updated = await hr.webhooks.update(hook.id, {
        name: 'Sync 2',
        callback_url: r.url,
        events: ['*'],
        is_active: false,
      });
      assert.ok(rec.calls.slice(before).includes(`PUT /api/v2/client/webhooks/${hook.id}`), 'update is a PUT');
      assert.equal(updated.name, 'Sync 2');
      assert.deepEqual(updated.events, ['*']);
      assert.equal(updated.is_active, false);
      assert.equal(updated.signature_key, hook.signature_key, 'a replacement keeps the key');

      const rotated = await hr.webhooks.refreshSignatureKey(hook.id);
      assert.notEqual(rotated.signature_key, hook.signature_key);
      assert.equal((await hr.webhooks.retrieve(hook.id)).signature_key, rotated.signature_key);

      await assert.rejects(
        hr.webhooks.create({ name: 'Bad', callback_url: 'not a url', events: ['*'], is_active: true }),
        HrValidationError,
      );
      assert.equal(await hr.webhooks.del(hook.id), undefined);
      await assert.rejects(hr.webhooks.retrieve(hook.id), HrNotFoundError);
      await assert.rejects(
        hr.webhooks.update(hook.id, { name: 'Gone', callback_url: r.url, events: ['*'], is_active: true }),
        HrNotFoundError,
      );
      assert.deepEqual(await hr.webhooks.list().toArray(), []);
    });

    it('lists events across pages, retrieves one, names the actions, and exports JSON and CSV', async () => {
      const ids = ['ev-a', 'ev-b', 'ev-c', 'ev-d', 'ev-e'];
      for (const id of ids) await hr.organizations.upsert(id, { name: `Org ${id}` });

      const before = rec.calls.length;
      const listed: AuditEvent[] = [];
      for await (const event of hr.events.list({ resource_type: 'organization', per_page: 2 })) listed.push(event);
      const pages = rec.calls.slice(before).filter((c) => c.startsWith('GET /api/v2/client/events?'));
      assert.equal(pages.length, 3, 'three pages of two (the last of one)');
      assert.ok(
        pages.slice(1).every((c) => /[?&]cursor=/.test(c)),
        'each next page follows the cursor',
      );
      assert.equal(listed.length, 5);
      assert.deepEqual(
        listed.map((e) => e.type),
        Array(5).fill('organization.created'),
      );
      assert.deepEqual(
        listed.map((e) => e.name),
        ids.map((id) => `Org ${id}`).reverse(),
        'newest first',
      );
      const first = listed[0] as AuditEvent;
      assert.deepEqual(await hr.events.retrieve(first.id), first);
      await assert.rejects(hr.events.retrieve('00000000-0000-4000-8000-000000000000'), HrNotFoundError);

      const [app] = await hr.events.actions();
      assert.equal(app?.application_name, 'rh2');
      assert.deepEqual(app?.resources.find((r) => r.resource_name === 'organization')?.actions, ['created', 'updated']);

      const json = await hr.events.export({ resource_type: 'organization' });
      assert.equal(json.status, 200);
      assert.match(json.headers.get('content-type') ?? '', /^application\/json/);
      const lines = (await json.json()) as AuditEventExportLine[];
      assert.deepEqual(
        lines.map((l) => l['Affected Item']),
        listed.map((e) => e.name),
      );
      assert.equal(lines[0]?.['Item Type'], 'organization');

      const csv = await hr.events.export({ resource_type: 'organization' }, { format: 'csv' });
      assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
      assert.ok(csv.body, 'a stream, not read by the SDK');
      const rows = (await csv.text()).trim().split('\n');
      assert.equal(rows[0], 'Trigger Type,Trigger,Action,Item Type,Affected Item,Date');
      assert.equal(rows.length, 6);
      assert.ok(rows.slice(1).every((row) => row.includes(',created,organization,Org ev-')));
      await assert.rejects(hr.events.export({ created_at_until: 'soon' }), HrInvalidRequestError);
    });

    it('sends a test callback that verifyWebhookSignature accepts; refuses it tampered, old, or under another key', async () => {
      const r = await receiver();
      const hook = await hr.webhooks.create({ name: 'Verify', callback_url: r.url, events: ['*'], is_active: false });
      assert.equal(await hr.webhooks.test(hook.id), undefined, 'resolves on 204');
      const [callback] = await r.waitFor(1);
      assert.ok(callback);
      const { body, headers } = callback;

      const event = await verifyWebhookSignature(body, headers, hook.signature_key);
      assert.equal(event.type, 'webhook.test');
      assert.equal(event.id, headers['x-event-id']);
      assert.equal(headers['x-event-type'], 'webhook.test');
      assert.equal((event.data as { id: string }).id, hook.id);
      // The same callback as bytes and as fetch Headers.
      const fetchHeaders = new Headers(headers as Record<string, string>);
      assert.deepEqual(
        await verifyWebhookSignature(new TextEncoder().encode(body), fetchHeaders, hook.signature_key),
        event,
      );

      await refused(
        verifyWebhookSignature(body.replace('webhook.test', 'webhook.tost'), headers, hook.signature_key),
        'signature_mismatch',
      );
      await refused(verifyWebhookSignature(`${body} `, headers, hook.signature_key), 'signature_mismatch');
      await refused(verifyWebhookSignature(body, headers, `${hook.signature_key}x`), 'signature_mismatch');
      const t = Number(/t=(\d+)/.exec(String(headers['x-event-signature']))?.[1]);
      const shifted = (seconds: number) => ({ now: () => (t + seconds) * 1000 });
      await refused(
        verifyWebhookSignature(body, headers, hook.signature_key, shifted(301)),
        'timestamp_out_of_tolerance',
      );
      await refused(
        verifyWebhookSignature(body, headers, hook.signature_key, shifted(-301)),
        'timestamp_out_of_tolerance',
      );
      await verifyWebhookSignature(body, headers, hook.signature_key, shifted(299));
      await refused(
        verifyWebhookSignature(body, headers, hook.signature_key, { ...shifted(61), toleranceSeconds: 60 }),
        'timestamp_out_of_tolerance',
      );
      await verifyWebhookSignature(body, headers, hook.signature_key, {
        ...shifted(86_400),
        toleranceSeconds: Infinity,
      });
      // A replayed header on another timestamp: the signature covers it.
      const replayed = {
        ...headers,
        'x-event-signature': String(headers['x-event-signature']).replace(`t=${t}`, `t=${t + 1}`),
      };
      await refused(verifyWebhookSignature(body, replayed, hook.signature_key, shifted(0)), 'signature_mismatch');

      // The delivery shows; redelivering sends the same body and event id, signed anew.
      let attempts: WebhookDeliveryAttempt[] = [];
      await until(async () => {
        attempts = await hr.webhooks.deliveries.list(hook.id).toArray();
        return attempts.length === 1 && attempts[0]?.delivery_status === 'succeeded';
      }, 'the test attempt');
      const [attempt] = attempts as [WebhookDeliveryAttempt];
      assert.equal(attempt.event_id, event.id);
      assert.equal(attempt.status, 'succeeded');
      assert.equal(attempt.response_code, 200);

      assert.equal(await hr.webhooks.deliveries.redeliver(hook.id, attempt.delivery_id), undefined, 'resolves on 202');
      const [, again] = await r.waitFor(2);
      assert.equal(again?.body, body);
      assert.equal(again?.headers['x-event-id'], event.id);
      assert.deepEqual(
        await verifyWebhookSignature(again?.body ?? '', again?.headers ?? {}, hook.signature_key),
        event,
      );
      await until(async () => (await hr.webhooks.deliveries.list(hook.id).toArray()).length === 2, 'the redelivery');
      const before = rec.calls.length;
      const paged = await hr.webhooks.deliveries.list(hook.id, { per_page: 1 }).toArray();
      assert.equal(paged.length, 2);
      assert.equal(rec.calls.slice(before).filter((c) => c.includes('/deliveries')).length, 2, 'one page each');
      await assert.rejects(
        hr.webhooks.deliveries.redeliver(hook.id, '00000000-0000-4000-8000-000000000000'),
        HrNotFoundError,
      );

      // After a rotation, callbacks are signed with the new key only.
      const rotated = await hr.webhooks.refreshSignatureKey(hook.id);
      await hr.webhooks.test(hook.id);
      const [, , third] = await r.waitFor(3);
      assert.ok(third);
      await refused(verifyWebhookSignature(third.body, third.headers, hook.signature_key), 'signature_mismatch');
      assert.equal(
        (await verifyWebhookSignature(third.body, third.headers, rotated.signature_key)).type,
        'webhook.test',
      );
    });
  });
}

describe('verifyWebhookSignature: the header', () => {
  const key = 'whsec-test-key';
  const body =
    '{"id":"e1","type":"organization.created","name":"Café","created_at":"2026-01-01T00:00:00+00:00","actor":{"type":"system","name":"atrium","data":{}},"data":{}}';
  const t = 1_800_000_000;
  const at = { now: () => t * 1000 };
  const good = sign(key, body, t);
  const mac = good.slice(good.indexOf('v1=') + 3);

  it('accepts a good header in any casing of its name, with extra schemes and several v1 entries', async () => {
    assert.equal(DEFAULT_WEBHOOK_TOLERANCE_SECONDS, 300);
    assert.equal((await verifyWebhookSignature(body, { 'x-event-signature': good }, key, at)).name, 'Café');
    await verifyWebhookSignature(body, { 'X-Event-Signature': good }, key, at);
    await verifyWebhookSignature(body, { 'x-event-signature': [good] }, key, at);
    await verifyWebhookSignature(body, new Headers({ 'X-EVENT-SIGNATURE': good }), key, at);
    await verifyWebhookSignature(
      body,
      { 'x-event-signature': `t=${t}, v0=abc, v1=${'0'.repeat(64)}, v1=${mac}` },
      key,
      at,
    );
    await verifyWebhookSignature(body, { 'x-event-signature': `v1=${mac.toUpperCase()},t=${t}` }, key, at);
    // Bytes are verified as they are (a UTF-8 body of non-ASCII characters).
    const bytes = new TextEncoder().encode(body);
    await verifyWebhookSignature(bytes, { 'x-event-signature': sign(key, bytes, t) }, key, at);
  });

  it('refuses a missing header', async () => {
    await refused(verifyWebhookSignature(body, {}, key, at), 'missing_header');
    await refused(verifyWebhookSignature(body, { 'x-event-signature': undefined }, key, at), 'missing_header');
    await refused(verifyWebhookSignature(body, { 'x-event-signature': '' }, key, at), 'missing_header');
    await refused(verifyWebhookSignature(body, { 'x-event-signature': [] }, key, at), 'missing_header');
    await refused(verifyWebhookSignature(body, new Headers(), key, at), 'missing_header');
  });

  it('refuses a malformed header', async () => {
    for (const header of [
      'garbage',
      `${t}`,
      `t=${t}`,
      `v1=${mac}`,
      `t=,v1=${mac}`,
      `t=abc,v1=${mac}`,
      `t=-${t},v1=${mac}`,
      `t=${t}.5,v1=${mac}`,
      `t=${t},t=${t},v1=${mac}`,
      `t=${t},v1=`,
      `t=${t},v1=${mac.slice(2)}`,
      `t=${t},v1=${mac}00`,
      `t=${t},v1=${'z'.repeat(64)}`,
      `t=${t},v1=${mac},`,
      `t=${t};v1=${mac}`,
      `t=${t},v2=${mac}`,
    ]) {
      await refused(verifyWebhookSignature(body, { 'x-event-signature': header }, key, at), 'malformed_header');
    }
    await refused(verifyWebhookSignature(body, { 'x-event-signature': [good, good] }, key, at), 'malformed_header');
  });

  it('checks the signature, then the timestamp; refuses bad usage', async () => {
    await refused(verifyWebhookSignature(`${body}\n`, { 'x-event-signature': good }, key, at), 'signature_mismatch');
    const old = sign(key, body, t - 3600);
    await refused(verifyWebhookSignature(body, { 'x-event-signature': old }, key, at), 'timestamp_out_of_tolerance');
    await refused(verifyWebhookSignature(`${body} `, { 'x-event-signature': old }, key, at), 'signature_mismatch');
    await assert.rejects(verifyWebhookSignature(body, { 'x-event-signature': good }, '', at), AtriumUsageError);
    await assert.rejects(
      verifyWebhookSignature(body, { 'x-event-signature': good }, key, { ...at, toleranceSeconds: -1 }),
      AtriumUsageError,
    );
    // With the real clock, a header signed now passes the default tolerance.
    const now = Math.floor(Date.now() / 1000);
    await verifyWebhookSignature(body, { 'x-event-signature': sign(key, body, now) }, key);
  });
});
