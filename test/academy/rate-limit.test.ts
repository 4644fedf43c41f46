import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type AcademyCaller, academyCaller } from '../support/academy.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';

const LIMIT = 3;

for (const dialect of dialects()) {
  describe(`academy rate limit (${dialect})`, () => {
    let server: TestServer;
    let a: AcademyCaller;
    let b: AcademyCaller;
    before(async () => {
      server = await startServer(dialect, { ATRIUM_ACADEMY_RATE_LIMIT: String(LIMIT) });
      a = await academyCaller(server);
      b = await academyCaller(server);
    });
    after(() => server.close());

    it('the request past the limit is a 429 with an integer Retry-After and the JSON error body; other academies are unaffected', async () => {
      const clock = server.app.services.clock;
      // A fixed instant, so the whole test falls in one window whatever the wall clock does.
      clock.set(Date.UTC(2034, 0, 1, 12));
      try {
        for (let i = 0; i < LIMIT; i++) {
          assert.equal((await a.call('GET', '/events/ilt')).status, 200, `request ${i + 1}`);
        }
        const limited = await a.call('GET', '/events/vc');
        assert.equal(limited.status, 429);
        const retryAfter = limited.headers.get('retry-after') ?? '';
        assert.match(retryAfter, /^[0-9]+$/, 'Retry-After is integer seconds');
        assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `Retry-After ${retryAfter} within the minute`);
        assert.match(limited.headers.get('content-type') ?? '', /^application\/json/);
        const body = (await limited.json()) as { status: number; code: string; message: string };
        assert.equal(body.status, 429);
        assert.equal(body.code, 'rate_limited');
        assert.equal(typeof body.message, 'string');
        // Every method and path of /v1 counts, and stays limited.
        assert.equal((await a.call('POST', '/events/ilt', {})).status, 429);
        assert.equal((await a.call('GET', '/content/timezones')).status, 429);

        // Another academy has its own allowance.
        for (let i = 0; i < LIMIT; i++) {
          assert.equal((await b.call('GET', '/events/ilt')).status, 200, `academy b, request ${i + 1}`);
        }
        assert.equal((await b.call('GET', '/events/ilt')).status, 429);

        // Bad credentials are a 401 and use up nobody's allowance.
        const forged = await fetch(`${server.url}/v1/events/ilt?acadId=${a.acadId}&apikey=wrong`);
        assert.equal(forged.status, 401);

        // A minute later, the window has passed.
        clock.set(Date.UTC(2034, 0, 1, 12, 1, 1));
        assert.equal((await a.call('GET', '/events/ilt')).status, 200, 'allowed again after the window');
      } finally {
        clock.reset();
      }
    });
  });
}
