import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AcademyRateLimitError,
  AtriumAbortError,
  AtriumConnectionError,
  AtriumTimeoutError,
  HrServerError,
} from '@atrium/client';
import { type AcademyCaller, academyCaller } from '../support/academy.js';
import { type FaultyGateway, faultyGateway, sdkAcademy, sdkHr } from '../support/client.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';

const LIMIT = 3;
const vc = (title: string) => ({
  title,
  description: 'd',
  timeOffset: 0,
  registrationDeadline: 1,
  based: 2 as const,
  sessions: [
    {
      topic: 't',
      date: '06/15/2031',
      from: { hours: 9, minutes: 0, meridian: 'AM' as const },
      to: { hours: 10, minutes: 0, meridian: 'AM' as const },
    },
  ],
});

for (const dialect of dialects()) {
  describe(`SDK: retries, timeouts and aborts (${dialect})`, () => {
    let server: TestServer;
    let gateway: FaultyGateway;
    before(async () => {
      server = await startServer(dialect, { ATRIUM_ACADEMY_RATE_LIMIT: String(LIMIT) });
      gateway = await faultyGateway(server.url);
    });
    after(async () => {
      await gateway.close();
      await server.close();
    });

    /** Uses up the academy's window at instant `t0`, then moves its clock to 1 s before the window ends. */
    async function exhaust(acad: AcademyCaller, t0: number): Promise<void> {
      const clock = server.app.services.clock;
      clock.set(t0);
      for (let i = 0; i < LIMIT; i++) assert.equal((await acad.call('GET', '/events/vc')).status, 200);
      clock.set(t0 + 59_500);
    }

    it('429: waits the Retry-After the server sent, then succeeds', async () => {
      const acad = await academyCaller(server);
      const clock = server.app.services.clock;
      const t0 = Date.UTC(2034, 0, 1, 12);
      try {
        await exhaust(acad, t0);
        const { academy, rec } = sdkAcademy(server.url, acad, {
          // The minute passes while the SDK waits (the server's clock is the test's).
          onRetry: (e) => {
            rec.retries.push(e);
            clock.set(t0 + 61_000);
          },
        });
        const events = await academy.events.vc.list().toArray();
        assert.deepEqual(events, []);
        assert.equal(rec.retries.length, 1);
        assert.equal(rec.retries[0]?.reason, 429);
        const retryAfter = Number(rec.responses[0]?.responseHeaders?.['retry-after']);
        assert.ok(retryAfter >= 1 && retryAfter <= 2, `Retry-After ${retryAfter} s: the end of the window`);
        assert.equal(rec.retries[0]?.delayMs, retryAfter * 1000, 'the delay is the Retry-After, not a backoff guess');
        assert.deepEqual(
          rec.responses.map((r) => r.status),
          [429, 200],
        );
      } finally {
        clock.reset();
      }
    });

    it('429 on a POST is not retried unless the caller opts in; a long Retry-After is not waited for', async () => {
      const acad = await academyCaller(server);
      const clock = server.app.services.clock;
      const t0 = Date.UTC(2034, 0, 2, 12);
      try {
        await exhaust(acad, t0);
        const { academy, rec } = sdkAcademy(server.url, acad);
        await assert.rejects(academy.events.vc.create(vc('Not retried')), (e: unknown) => {
          assert.ok(e instanceof AcademyRateLimitError, 'AcademyRateLimitError');
          assert.equal(e.code, 'rate_limited');
          assert.ok(e.retryAfter !== undefined && e.retryAfter >= 1 && e.retryAfter <= 2, 'retryAfter from the header');
          return true;
        });
        assert.deepEqual(
          rec.calls.map((c) => c.split('?')[0]),
          ['POST /v1/events/vc'],
          'one attempt',
        );

        const optIn = sdkAcademy(server.url, acad, {
          onRetry: (e) => {
            optIn.rec.retries.push(e);
            clock.set(t0 + 61_000);
          },
        });
        const created = await optIn.academy.events.vc.create(vc('Retried'), { retryNonIdempotent: true });
        assert.equal(created.title, 'Retried');
        assert.equal(optIn.rec.retries.length, 1, 'retried once');

        // A new window, used up at its start: Retry-After is 60 s, more than this client waits.
        clock.set(t0 + 200_000);
        for (let i = 0; i < LIMIT; i++) await acad.call('GET', '/events/vc');
        const impatient = sdkAcademy(server.url, acad, { maxRetryAfterSeconds: 5 });
        await assert.rejects(impatient.academy.events.vc.list().toArray(), (e: unknown) => {
          assert.ok(e instanceof AcademyRateLimitError, 'AcademyRateLimitError');
          // About a minute (the calls that used the window up took some of it on a loaded machine): beyond the 5 s.
          assert.ok(e.retryAfter !== undefined && e.retryAfter > 5 && e.retryAfter <= 60, `retryAfter ${e.retryAfter}`);
          return true;
        });
        assert.equal(impatient.rec.calls.length, 1, 'thrown at once');
      } finally {
        clock.reset();
      }
    });

    it('502, 503, 504 and a dropped connection are retried with backoff for idempotent calls', async () => {
      const { hr, rec } = await sdkHr(server, { url: gateway.url, maxRetries: 4 });
      await hr.getAccessToken();
      gateway.plan.push(502, 503, 'reset', 504);
      assert.equal(await hr.organizations.count(), 0);
      assert.deepEqual(
        rec.retries.map((r) => r.reason),
        [502, 503, 'network', 504],
      );
      const delays = rec.retries.map((r) => r.delayMs);
      // Exponential with jitter: retry n waits between half and all of 20 ms × 2^(n-1).
      delays.forEach((d, i) => {
        const ceiling = 20 * 2 ** i;
        assert.ok(
          d >= ceiling / 2 && d <= ceiling,
          `retry ${i + 1} waited ${d} ms, within [${ceiling / 2}, ${ceiling}]`,
        );
      });

      // Retries run out: the last answer is thrown.
      gateway.plan.push(502, 502, 502, 502, 502);
      await assert.rejects(hr.organizations.count(), (e: unknown) => {
        assert.ok(e instanceof HrServerError, 'HrServerError');
        assert.equal(e.status, 502);
        return true;
      });
      gateway.plan.length = 0;
      gateway.plan.push('reset', 'reset', 'reset', 'reset', 'reset');
      await assert.rejects(hr.organizations.count(), (e: unknown) => {
        assert.ok(e instanceof AtriumConnectionError, `AtriumConnectionError, not ${String(e)}`);
        return true;
      });
      gateway.plan.length = 0;
    });

    it('a POST is not retried after a 503 unless the caller opts in', async () => {
      const { hr } = await sdkHr(server, { url: gateway.url });
      await hr.getAccessToken();
      const employee = {
        firstname: 'Once',
        lastname: 'Only',
        email: 'once@example.com',
        registration_references: [{ organization_id: 'o', employee_number: '1' }],
      };
      await hr.organizations.upsert('o', { name: 'O' });
      const seen = gateway.seen.length;
      gateway.plan.push(503);
      await assert.rejects(hr.employees.create(employee), (e: unknown) => {
        assert.ok(e instanceof HrServerError, 'HrServerError');
        assert.equal(e.code, 'service_unavailable');
        return true;
      });
      assert.equal(gateway.seen.length - seen, 1, 'sent once');
      gateway.plan.push(503);
      const created = await hr.employees.create(employee, { retryNonIdempotent: true });
      assert.equal(created.firstname, 'Once');
      assert.equal(gateway.seen.length - seen, 3);
    });

    it('each attempt has a timeout; a timed-out call is retried, or thrown as AtriumTimeoutError', async () => {
      const { hr, rec } = await sdkHr(server, { url: gateway.url, timeoutMs: 1000 });
      await hr.getAccessToken();
      gateway.plan.push('hang');
      assert.equal(await hr.organizations.count(), 0);
      assert.equal(rec.retries[0]?.reason, 'timeout', 'the hung attempt timed out and was retried');
      gateway.plan.push('hang');
      await assert.rejects(hr.organizations.count({}, { maxRetries: 0, timeoutMs: 200 }), (e: unknown) => {
        assert.ok(e instanceof AtriumTimeoutError, `AtriumTimeoutError, not ${String(e)}`);
        return true;
      });
    });

    it('an AbortSignal aborts a call in flight, or while it waits to retry', async () => {
      const { hr } = await sdkHr(server, { url: gateway.url, initialRetryDelayMs: 5_000 });
      await hr.getAccessToken();
      gateway.plan.push('hang');
      const inFlight = new AbortController();
      setTimeout(() => inFlight.abort(new Error('user left')), 100);
      await assert.rejects(hr.organizations.count({}, { signal: inFlight.signal }), (e: unknown) => {
        assert.ok(e instanceof AtriumAbortError, `AtriumAbortError, not ${String(e)}`);
        assert.equal((e.cause as Error).message, 'user left');
        return true;
      });

      gateway.plan.length = 0;
      gateway.plan.push(503);
      const waiting = new AbortController();
      const call = hr.organizations.count({}, { signal: waiting.signal });
      setTimeout(() => waiting.abort(), 200); // during the 2.5–5 s backoff
      await assert.rejects(call, AtriumAbortError);
      await assert.rejects(
        hr.organizations.count({}, { signal: AbortSignal.abort() }),
        AtriumAbortError,
        'an aborted signal stops the call before it starts',
      );
    });
  });
}
