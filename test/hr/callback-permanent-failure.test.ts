/**
 * Signature and scan callbacks to a refused (private) address fail for good at once, like webhook deliveries
 * (docs/hr-api.md, "Private addresses"): one attempt, the job `failed`, nothing retried and nothing received.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { startedSigner } from '../support/signing.js';

/** Polls until `check` holds (bounded; no timing is asserted). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 90_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

for (const dialect of dialects()) {
  describe(`callbacks to a refused address fail for good (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let receiver: Receiver;
    before(async () => {
      server = await startServer(dialect, {
        ATRIUM_JOB_POLL_MS: '20',
        ATRIUM_WEBHOOK_ALLOW_PRIVATE: 'false',
        // Were a refusal retried, its job would wait for its next try for up to a day.
        ATRIUM_WEBHOOK_RETRY_FOR: '86400',
      });
      hr = await hrCaller(server);
      receiver = await startReceiver();
    });
    after(async () => {
      await receiver.close();
      await server.close();
    });

    const jobsOf = (queue: string) =>
      server.app.database.db
        .selectFrom('jobs')
        .select(['status', 'attempts', 'last_error'])
        .where('queue', '=', queue)
        .execute();
    const failedOnce = async (queue: string) => {
      await until(async () => (await jobsOf(queue)).some((j) => j.status === 'failed'), `the ${queue} job to fail`);
      const jobs = await jobsOf(queue);
      assert.equal(jobs.length, 1);
      assert.equal(jobs[0]?.status, 'failed');
      assert.equal(Number(jobs[0]?.attempts), 1, 'one attempt, no retry');
      assert.match(jobs[0]?.last_error ?? '', /refused: the callback URL names a private address/);
      assert.equal(receiver.received.length, 0, 'the receiver was never called');
    };

    it('a signature process’s callback_url on loopback', async () => {
      const { signerId } = await startedSigner(server, hr, {
        process: { callback_url: `${receiver.url}/signature` },
      });
      assert.equal((await hr.call('POST', `/signers/${signerId}/sign`, { name: 'Ada Lovelace' })).status, 200);
      await failedOnce('signature_callback');
    });

    it('an asynchronous scan’s X-Callback-URL on loopback', async () => {
      const res = await fetch(`${server.url}/api/v2/client/file/upload/async`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${hr.token}`,
          'content-type': 'application/octet-stream',
          'content-disposition': 'attachment; filename="report.txt"',
          'x-client-id': hr.creds.client_id,
          'x-callback-url': `${receiver.url}/scans`,
        },
        body: 'contract draft',
      });
      assert.equal(res.status, 201, await res.text());
      await failedOnce('file_scan_callback');
    });
  });
}
