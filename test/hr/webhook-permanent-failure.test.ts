/**
 * Permanent delivery failures (docs/hr-api.md, "Private addresses"; issue 49): a delivery refused for a private
 * address fails at once, unretried, logged in one short line without a stack; the webhook's later events still go
 * out (to be refused in turn); after ATRIUM_WEBHOOK_DEACTIVATE_AFTER refusals in a row the webhook is made
 * inactive and `webhook.deactivated` is recorded. Both databases; the assertions read the API, the log and the rows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/platform/config.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

const REFUSED = 'refused: the callback URL names a private address';

interface Attempt {
  delivery_id: string;
  attempt: number;
  status: string;
  error: string | null;
  delivery_status: string;
}

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** Polls until `check` holds (bounded; no timing is asserted). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('ATRIUM_WEBHOOK_DEACTIVATE_AFTER', () => {
  it('defaults to 5; 0 (never) to 1000', () => {
    assert.equal(loadConfig({}).webhookDeactivateAfter, 5);
    assert.equal(loadConfig({ ATRIUM_WEBHOOK_DEACTIVATE_AFTER: '0' }).webhookDeactivateAfter, 0);
    assert.throws(() => loadConfig({ ATRIUM_WEBHOOK_DEACTIVATE_AFTER: '1001' }));
    assert.throws(() => loadConfig({ ATRIUM_WEBHOOK_DEACTIVATE_AFTER: '-1' }));
  });
});

for (const dialect of dialects()) {
  describe(`a refused webhook delivery is a permanent failure (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let receiver: Receiver;
    const db = () => server.app.database.db;

    before(async () => {
      server = await startServer(dialect, {
        ATRIUM_JOB_POLL_MS: '20',
        ATRIUM_WEBHOOK_ALLOW_PRIVATE: 'false',
        // Were a refusal retried, its delivery would stay pending (and hold the next ones back) for a day.
        ATRIUM_WEBHOOK_RETRY_FOR: '86400',
        ATRIUM_WEBHOOK_DEACTIVATE_AFTER: '3',
      });
      hr = await hrCaller(server);
      receiver = await startReceiver();
    });
    after(async () => {
      await receiver.close();
      await server.close();
    });

    it('fails each refused delivery at once, lets the next go, and deactivates the webhook after 3 in a row', async () => {
      const hook = await json<{ id: string }>(
        await hr.call('POST', '/webhooks', {
          name: 'private receiver',
          callback_url: receiver.url,
          events: ['organization.*'],
          is_active: true,
        }),
        201,
      );
      const attempts = async () =>
        json<Attempt[]>(await hr.call('GET', `/webhooks/${hook.id}/deliveries?per_page=100`), 200);
      const webhookRow = () =>
        db()
          .selectFrom('hr_webhooks')
          .select(['is_active', 'refused_in_row'])
          .where('id', '=', hook.id)
          .executeTakeFirstOrThrow();
      const organization = async (code: string) =>
        assert.equal((await hr.call('PUT', `/organizations/${code}`, { name: code })).status, 201);

      // Two events: the second is attempted though the first was refused (it is not retried, so not ahead).
      await organization('org-1');
      await organization('org-2');
      await until(async () => (await attempts()).length === 2, 'both deliveries attempted');
      await until(
        async () => (await attempts()).every((a) => a.delivery_status === 'failed'),
        'both deliveries failed',
      );
      assert.deepEqual(Number((await webhookRow()).refused_in_row), 2);
      assert.equal(Number((await webhookRow()).is_active), 1, 'two refusals: still active');
      const view = await json<{ is_active: boolean }>(await hr.call('GET', `/webhooks/${hook.id}`), 200);
      assert.equal(view.is_active, true);

      // The third in a row deactivates it.
      await organization('org-3');
      await until(async () => Number((await webhookRow()).is_active) === 0, 'the webhook deactivated');
      const list = await attempts();
      assert.equal(list.length, 3, 'one attempt per delivery, no retry');
      for (const a of list) {
        assert.equal(a.attempt, 1);
        assert.equal(a.status, 'failed');
        assert.equal(a.error, REFUSED);
        assert.equal(a.delivery_status, 'failed');
      }
      assert.equal(
        (await json<{ is_active: boolean }>(await hr.call('GET', `/webhooks/${hook.id}`), 200)).is_active,
        false,
      );
      assert.equal(Number((await webhookRow()).refused_in_row), 3);

      // The rows: each delivery failed, each job failed after one attempt, none left pending.
      const deliveries = await db()
        .selectFrom('hr_webhook_deliveries')
        .select(['status', 'attempts', 'job_id'])
        .where('webhook_id', '=', hook.id)
        .execute();
      assert.deepEqual(
        deliveries.map((d) => [d.status, Number(d.attempts)]),
        [
          ['failed', 1],
          ['failed', 1],
          ['failed', 1],
        ],
      );
      const jobs = await db()
        .selectFrom('jobs')
        .select(['status', 'attempts', 'last_error'])
        .where(
          'id',
          'in',
          deliveries.map((d) => Number(d.job_id)),
        )
        .execute();
      for (const job of jobs) {
        assert.equal(job.status, 'failed');
        assert.equal(Number(job.attempts), 1);
        assert.equal(job.last_error, `PermanentJobError: ${REFUSED}`);
      }

      // The audit event, by the system, with the webhook as it now is.
      const events = await json<{ type: string; actor: { type: string }; data: { id: string; is_active: boolean } }[]>(
        await hr.call('GET', '/events?resource_type=webhook&per_page=100'),
        200,
      );
      const deactivated = events.filter((e) => e.type === 'webhook.deactivated');
      assert.equal(deactivated.length, 1);
      assert.equal(deactivated[0]?.actor.type, 'system');
      assert.equal(deactivated[0]?.data.id, hook.id);
      assert.equal(deactivated[0]?.data.is_active, false);

      // The log: one short line per refused delivery, no stack, no retry scheduled.
      const lines = server.logs.filter((l) => l.includes('"queue":"webhook.delivery"'));
      const refused = lines.filter((l) => l.includes('job failed for good'));
      assert.equal(refused.length, 3);
      for (const l of refused) assert.ok(!l.includes('"stack"') && !l.includes('"err"'), l);
      assert.equal(lines.filter((l) => l.includes('retry scheduled')).length, 0);
      assert.equal(receiver.received.length, 0, 'the receiver was never called');

      // Inactive now: a fourth event queues nothing for it.
      await organization('org-4');
      assert.equal((await attempts()).length, 3);

      // A PUT (the webhook made active again) starts the count afresh.
      await json(
        await hr.call('PUT', `/webhooks/${hook.id}`, {
          name: 'private receiver',
          callback_url: receiver.url,
          events: ['organization.*'],
          is_active: true,
        }),
        200,
      );
      assert.deepEqual([Number((await webhookRow()).is_active), Number((await webhookRow()).refused_in_row)], [1, 0]);
    });
  });
}
