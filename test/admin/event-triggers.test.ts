/**
 * Event triggers (docs/admin.md, "Event triggers"): an operator fires an audit event of any type of the catalogue.
 * With `resource_id` it carries the resource's present state, and a real receiver gets the body a real change of
 * that resource delivers; without it, the tenant's resource of that type written last. It goes through the outbox
 * like any event, is marked `triggered` in the audit trail (never in the delivery), and is audited. Unknown types,
 * resources, another tenant's resources, bad bodies and academies are refused. And the SDK's method.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AdminClient } from '@atrium/client';
import { adminCaller, expectJson as json } from '../support/admin.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

interface Event {
  id: string;
  type: string;
  name: string | null;
  created_at: string;
  actor: { type: string; name: string | null; data: Record<string, unknown> };
  data: { id?: string; name?: string } & Record<string, unknown>;
  triggered?: boolean;
}

interface Refusal {
  code: string;
  message: string;
  errors?: { field: string; code: string; message: string }[];
}

interface Fired {
  event: Event;
  webhooks: number;
}

/** A delivered body without what differs between two events of the same resource: its id, date and actor. */
function shape(body: string): Record<string, unknown> {
  const { id, created_at, actor, ...rest } = JSON.parse(body) as Event;
  assert.ok(id && created_at && actor);
  return rest;
}

for (const dialect of dialects()) {
  describe(`admin API: event triggers (${dialect})`, () => {
    let server: TestServer;
    let token: string;
    let tokenId: string;
    let hr: HrCaller;
    let other: HrCaller;
    let receiver: Receiver;
    let otherReceiver: Receiver;
    const call = adminCaller(
      () => server,
      () => token,
    );
    const trigger = (body: unknown, client = hr.creds.client_id) =>
      call('POST', `/tenants/hr/${client}/events/trigger`, body);

    before(async () => {
      server = await startServer(dialect, { ATRIUM_JOB_POLL_MS: '20', ATRIUM_WEBHOOK_BACKOFF_BASE_MS: '20' });
      const made = await server.app.services.adminTokens.create('ops', 'cli');
      token = made.token;
      tokenId = made.token_id;
      hr = await hrCaller(server);
      other = await hrCaller(server);
      receiver = await startReceiver();
      otherReceiver = await startReceiver();
      const hook = (caller: HrCaller, url: string, events: string[]) =>
        caller.call('POST', '/webhooks', { name: 'hook', callback_url: url, events, is_active: true });
      assert.equal((await hook(hr, receiver.url, ['organization.*'])).status, 201);
      // A second webhook of the client that matches no organization event: not queued for.
      assert.equal((await hook(hr, receiver.url, ['employee.created'])).status, 201);
      assert.equal((await hook(other, otherReceiver.url, ['*'])).status, 201);
      assert.equal((await other.call('PUT', '/organizations/berlin', { name: 'Berlin' })).status, 201);
    });
    after(async () => {
      await receiver.close();
      await otherReceiver.close();
      await server.close();
    });

    it('fires an event about a resource: the body a real change delivers, marked triggered in the trail only', async () => {
      assert.equal((await hr.call('PUT', '/organizations/paris', { name: 'Paris' })).status, 201);
      assert.equal((await hr.call('PUT', '/organizations/paris', { name: 'Paris, France' })).status, 200);
      const [, real] = await receiver.waitFor(2);
      assert.ok(real);
      assert.equal((JSON.parse(real.body) as Event).type, 'organization.updated');

      const theirs = otherReceiver.received.length;
      const fired = await json<Fired>(await trigger({ type: 'organization.updated', resource_id: 'paris' }), 201);
      assert.equal(fired.webhooks, 1, 'the one webhook whose patterns match');
      assert.equal(fired.event.type, 'organization.updated');
      assert.equal(fired.event.triggered, true);
      assert.deepEqual(fired.event.actor, { type: 'system', name: `admin token ${tokenId} (ops)`, data: {} });
      const current = await json<Record<string, unknown>>(await hr.call('GET', '/organizations/paris'), 200);
      assert.deepEqual(fired.event.data, current, "the resource's present state");

      const [, , delivered] = await receiver.waitFor(3);
      assert.ok(delivered);
      assert.equal(delivered.headers['x-event-id'], fired.event.id);
      assert.deepEqual(shape(delivered.body), shape(real.body), 'shaped as the real organization.updated');
      assert.equal('triggered' in (JSON.parse(delivered.body) as object), false, 'the delivery carries no mark');
      assert.deepEqual(
        Object.keys(JSON.parse(delivered.body) as object),
        Object.keys(JSON.parse(real.body) as object),
        'the same members, in the same order: no triggered mark',
      );
      assert.equal(otherReceiver.received.length, theirs, "another client's webhooks get nothing");

      // The audit trail shows the mark; the events writes recorded have none.
      const shown = await json<Event>(await hr.call('GET', `/events/${fired.event.id}`), 200);
      assert.deepEqual(shown, fired.event);
      const listed = await json<Event[]>(await hr.call('GET', '/events?resource_id=paris'), 200);
      assert.deepEqual(
        listed.map((e) => [e.type, e.triggered]),
        [
          ['organization.updated', true],
          ['organization.updated', undefined],
          ['organization.created', undefined],
        ],
      );
      const [entry] = await server.app.services.adminAudit.list(1);
      assert.equal(entry?.action, 'event.triggered');
      assert.equal(entry?.target, `hr:${hr.creds.client_id}`);
      assert.deepEqual(entry?.detail, {
        type: 'organization.updated',
        resource_id: 'paris',
        event_id: fired.event.id,
        webhooks: 1,
      });

      // Another action of the same resource: the same state, under that type.
      const created = await json<Fired>(await trigger({ type: 'organization.created', resource_id: 'paris' }), 201);
      assert.deepEqual(created.event.data, current);
      const [, , , fourth] = await receiver.waitFor(4);
      assert.equal((JSON.parse(fourth?.body ?? '{}') as Event).type, 'organization.created');
    });

    it("without resource_id: the client's resource of that type written last, never a triggered one's echo", async () => {
      assert.equal((await hr.call('PUT', '/organizations/rome', { name: 'Rome' })).status, 201);
      const rome = await json<Record<string, unknown>>(await hr.call('GET', '/organizations/rome'), 200);
      await receiver.waitFor(5);
      const fired = await json<Fired>(await trigger({ type: 'organization.updated' }), 201);
      assert.deepEqual(fired.event.data, rome);
      assert.equal(fired.event.name, 'Rome');
      await receiver.waitFor(6);
      // Triggered events about paris since do not make paris the last written.
      assert.equal((await trigger({ type: 'organization.updated', resource_id: 'paris' })).status, 201);
      await receiver.waitFor(7);
      const again = await json<Fired>(await trigger({ type: 'organization.updated' }), 201);
      assert.equal(again.event.data.id, 'rome');
      await receiver.waitFor(8);
      // The other client's last organization is its own.
      const theirCount = otherReceiver.received.length;
      const theirs = await json<Fired>(await trigger({ type: 'organization.created' }, other.creds.client_id), 201);
      assert.equal(theirs.event.data.id, 'berlin');
      assert.equal(theirs.webhooks, 1);
      await otherReceiver.waitFor(theirCount + 1);

      // No resource of that type: a 422 naming what to create; nothing recorded.
      const before = (await json<Event[]>(await hr.call('GET', '/events?per_page=100'), 200)).length;
      const none = await json<Refusal>(await trigger({ type: 'custom_status.created' }), 422);
      assert.match(none.errors?.[0]?.message ?? '', /no custom_status to build the event from: create one first/);
      assert.equal((await json<Event[]>(await hr.call('GET', '/events?per_page=100'), 200)).length, before);
    });

    it('refuses unknown types and resources, another client’s resources, bad bodies and academies', async () => {
      const received = receiver.received.length;
      const unknown = await json<Refusal>(await trigger({ type: 'organization.exploded' }), 422);
      assert.equal(unknown.errors?.[0]?.field, 'type');
      assert.match(unknown.errors?.[0]?.message ?? '', /"organization\.exploded" is not an event type/);
      assert.equal((await trigger({ type: 'nothing' })).status, 422);
      const missing = await json<{ code: string }>(
        await trigger({ type: 'organization.updated', resource_id: 'nope' }),
        404,
      );
      assert.equal(missing.code, 'not_found');
      assert.equal(
        (await trigger({ type: 'organization.updated', resource_id: 'berlin' })).status,
        404,
        "another client's resource",
      );
      // A body that breaks the schema is a 422 naming the member, as every admin body; malformed JSON a 400.
      const bad: [unknown, string, string][] = [
        [{}, 'type', 'required'],
        [{ type: '' }, 'type', 'too_short'],
        [{ type: 7 }, 'type', 'invalid_type'],
        [{ type: 'organization.updated', resource_id: '' }, 'resource_id', 'too_short'],
        [{ type: 'organization.updated', extra: 1 }, 'extra', 'unknown_field'],
      ];
      for (const [body, field, code] of bad) {
        const refused = await json<Refusal>(await trigger(body), 422);
        assert.equal(refused.code, 'validation_error');
        assert.deepEqual(
          refused.errors?.map((e) => [e.field, e.code]),
          [[field, code]],
          JSON.stringify(body),
        );
      }
      assert.equal((await trigger('{"type":')).status, 400, 'malformed JSON');
      assert.equal((await trigger({ type: 'organization.updated' }, 'no-such-client')).status, 404);
      assert.equal(
        (await call('POST', '/tenants/academy/1/events/trigger', { type: 'organization.updated' })).status,
        404,
        'an academy has no audit trail',
      );
      assert.equal(
        (await call('POST', `/tenants/hr/${hr.creds.client_id}/events/trigger`, { type: 'x.y' }, null)).status,
        401,
      );
      assert.equal(receiver.received.length, received, 'nothing was delivered');
    });

    it("the SDK's events.trigger", async () => {
      const admin = new AdminClient({ baseUrl: server.url, token, maxRetries: 0 });
      const count = receiver.received.length;
      const fired = await admin.events.trigger(`hr:${hr.creds.client_id}`, 'organization.updated', 'paris');
      assert.equal(fired.event.type, 'organization.updated');
      assert.equal(fired.event.data && (fired.event.data as { id: string }).id, 'paris');
      assert.equal(fired.webhooks, 1);
      const all = await receiver.waitFor(count + 1);
      assert.equal(all[count]?.headers['x-event-id'], fired.event.id);
      const latest = await admin.events.trigger(`hr:${hr.creds.client_id}`, 'organization.created');
      assert.equal((latest.event.data as { id: string }).id, 'rome');
      await assert.rejects(admin.events.trigger(`hr:${hr.creds.client_id}`, 'organization.updated', 'nope'), {
        name: 'AdminApiError',
        status: 404,
      });
    });
  });
}
