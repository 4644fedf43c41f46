/**
 * `atrium trigger --tenant hr/ID TYPE` (docs/admin.md, "Event triggers"): fires an audit event on the database, which
 * a running server's job runner delivers to the matching webhook; `--json` prints what the admin API answers; an
 * academy, an unknown type or resource are clear failures.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { atrium, json } from '../support/cli.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

interface Fired {
  event: { id: string; type: string; name: string | null; actor: { name: string }; data: { id: string } };
  webhooks: number;
}

for (const dialect of dialects()) {
  describe(`atrium trigger (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let receiver: Receiver;

    before(async () => {
      server = await startServer(dialect, { ATRIUM_JOB_POLL_MS: '20', ATRIUM_WEBHOOK_BACKOFF_BASE_MS: '20' });
      hr = await hrCaller(server);
      receiver = await startReceiver();
      const hook = { name: 'hook', callback_url: receiver.url, events: ['organization.updated'], is_active: true };
      assert.equal((await hr.call('POST', '/webhooks', hook)).status, 201);
      assert.equal((await hr.call('PUT', '/organizations/paris', { name: 'Paris' })).status, 201);
      assert.equal((await hr.call('PUT', '/organizations/lyon', { name: 'Lyon' })).status, 201);
    });
    after(async () => {
      await receiver.close();
      await server.close();
    });

    it('fires the event, which the server delivers; --json prints {event, webhooks}', async () => {
      const tenant = `hr/${hr.creds.client_id}`;
      const fired = json<Fired>(
        await atrium(
          server.env,
          'trigger',
          '--tenant',
          tenant,
          'organization.updated',
          '--resource-id',
          'paris',
          '--json',
        ),
      );
      assert.equal(fired.event.type, 'organization.updated');
      assert.equal(fired.event.data.id, 'paris');
      assert.equal(fired.event.actor.name, 'admin cli');
      assert.equal(fired.webhooks, 1);
      const [delivered] = await receiver.waitFor(1);
      assert.equal(delivered?.headers['x-event-id'], fired.event.id);
      const shown = (await (await hr.call('GET', `/events/${fired.event.id}`)).json()) as { triggered?: boolean };
      assert.equal(shown.triggered, true);

      // Without --resource-id: the organization written last; a line for people.
      const human = await atrium(server.env, 'trigger', '--tenant', tenant, 'organization.updated');
      assert.equal(human.code, 0, human.stderr);
      assert.match(human.stdout, /^triggered organization\.updated [0-9a-f-]{36} \(Lyon\): queued for 1 webhook\n$/);
      await receiver.waitFor(2);
    });

    it('refuses an academy, an unknown type or resource, with a clear line', async () => {
      const academy = await atrium(server.env, 'trigger', '--tenant', 'academy/1', 'organization.updated');
      assert.notEqual(academy.code, 0);
      assert.match(academy.stderr, /an academy has no audit events/);
      const tenant = `hr/${hr.creds.client_id}`;
      const unknown = await atrium(server.env, 'trigger', '--tenant', tenant, 'organization.exploded');
      assert.notEqual(unknown.code, 0);
      assert.match(unknown.stderr, /"organization\.exploded" is not an event type/);
      const missing = await atrium(
        server.env,
        'trigger',
        '--tenant',
        tenant,
        'organization.updated',
        '--resource-id',
        'x',
      );
      assert.notEqual(missing.code, 0);
      assert.match(missing.stderr, /organization "x" was not found/);
      assert.equal(receiver.received.length, 2, 'nothing else was delivered');
    });
  });
}
