/**
 * Rate limits shared by both APIs: requests per second per credential (ATRIUM_RATE_LIMIT, default 1000, 0 off)
 * and failed authentications per minute per client address and per credential (ATRIUM_AUTH_FAILURE_LIMIT, default
 * 60, 0 off; test/reliability/lockout.test.ts has the per-credential half and X-Forwarded-For).
 * Past either: 429 with an integer Retry-After and the API's error body. The Academy API's own per-minute limit
 * is tested in test/academy/rate-limit.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/platform/config.js';
import { academyCaller } from '../support/academy.js';
import { basic, dialects, hrCaller, startServer, type TestServer } from '../support/harness.js';

async function limited(res: Response, api: 'hr' | 'academy', max: number): Promise<void> {
  assert.equal(res.status, 429);
  const retryAfter = res.headers.get('retry-after') ?? '';
  assert.match(retryAfter, /^[0-9]+$/, 'Retry-After is integer seconds');
  assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= max, `Retry-After ${retryAfter} within ${max} s`);
  const body = (await res.json()) as { code: string; message: string; status?: number };
  assert.equal(body.code, 'rate_limited');
  assert.equal(typeof body.message, 'string');
  if (api === 'academy') assert.equal(body.status, 429);
  else assert.equal('status' in body, false);
}

describe('rate limit settings', () => {
  it('default to 1000 requests per second per credential and 60 failed authentications per minute; 0 is allowed', () => {
    const config = loadConfig({});
    assert.equal(config.rateLimit, 1000);
    assert.equal(config.authFailureLimit, 60);
    assert.equal(loadConfig({ ATRIUM_RATE_LIMIT: '0', ATRIUM_AUTH_FAILURE_LIMIT: '0' }).rateLimit, 0);
    assert.throws(() => loadConfig({ ATRIUM_RATE_LIMIT: '-1' }), /ATRIUM_RATE_LIMIT/);
  });
});

for (const dialect of dialects()) {
  describe(`rate limits (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { ATRIUM_RATE_LIMIT: '5', ATRIUM_AUTH_FAILURE_LIMIT: '3' });
    });
    after(() => server.close());

    it('per credential: the request past the limit within a second is a 429; other credentials are unaffected', async () => {
      const clock = server.app.services.clock;
      // The clock is set to the same instant before each request, so that all fall in one one-second window
      // however slow the machine (only the time from here to the limiter passes).
      const T = Date.UTC(2035, 0, 1, 12);
      let step = 0;
      const at = <R>(call: () => Promise<R>): Promise<R> => {
        step += 1;
        clock.set(T);
        return call();
      };
      try {
        // The tokens are issued at T: the server's clock decides their lifetime.
        clock.set(T);
        const a = await hrCaller(server);
        const b = await hrCaller(server);
        const academy = await academyCaller(server);
        for (let i = 0; i < 5; i++) {
          assert.equal((await at(() => a.call('GET', '/organizations'))).status, 200, `HR ${i + 1}`);
        }
        await limited(await at(() => a.call('GET', '/organizations')), 'hr', 1);
        await limited(await at(() => a.call('PUT', '/organizations/x', { name: 'x' })), 'hr', 1);
        assert.equal((await at(() => b.call('GET', '/organizations'))).status, 200, 'another application');
        for (let i = 0; i < 5; i++) {
          assert.equal((await at(() => academy.call('GET', '/users'))).status, 200, `Academy ${i + 1}`);
        }
        await limited(await at(() => academy.call('GET', '/users')), 'academy', 1);
        assert.ok(step <= 20, 'all within the second');
        clock.set(T + 2500);
        const next = await a.call('GET', '/organizations');
        assert.equal(next.status, 200, `HR: the next second: ${await next.text()}`);
        assert.equal((await academy.call('GET', '/users')).status, 200, 'Academy: the next second');
      } finally {
        clock.reset();
      }
    });

    it('failed authentications per client address: past the limit, failures wait (429) but good credentials pass; both APIs count', async () => {
      const clock = server.app.services.clock;
      clock.set(Date.UTC(2036, 0, 1, 12));
      try {
        const good = await hrCaller(server);
        const academy = await academyCaller(server);
        const badToken = () =>
          fetch(`${server.url}/api/v2/client/organizations`, { headers: { authorization: 'Bearer x.y.z' } });
        assert.equal((await badToken()).status, 401);
        const badSecret = await fetch(`${server.url}/api/v2/client/tokens`, {
          method: 'POST',
          headers: { authorization: basic({ ...good.creds, application_secret: 'wrong' }) },
        });
        assert.equal(badSecret.status, 401);
        assert.equal((await fetch(`${server.url}/v1/users?acadId=${academy.acadId}&apikey=wrong`)).status, 401);
        // Three failures from this address: the fourth failure waits, of either API…
        await limited(await badToken(), 'hr', 60);
        await limited(await fetch(`${server.url}/v1/users?acadId=${academy.acadId}&apikey=wrong2`), 'academy', 60);
        // …but credentials that check out are served: others' failures never lock a valid credential out.
        assert.equal((await good.call('GET', '/organizations')).status, 200, 'a valid token');
        assert.equal((await academy.call('GET', '/users')).status, 200, 'a valid Academy key');
        const token = await fetch(`${server.url}/api/v2/client/tokens`, {
          method: 'POST',
          headers: { authorization: basic(good.creds), 'content-type': 'application/x-www-form-urlencoded' },
          body: `grant_type=client_credentials&scope=client&client_id=${good.creds.client_id}`,
        });
        assert.equal(token.status, 200, 'valid application credentials');
        clock.set(Date.UTC(2036, 0, 1, 12, 1, 1));
        assert.equal((await badToken()).status, 401, 'a minute later, a failure is a 401 again');
      } finally {
        clock.reset();
      }
    });
  });

  describe(`rate limits turned off (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { ATRIUM_RATE_LIMIT: '0', ATRIUM_AUTH_FAILURE_LIMIT: '0' });
    });
    after(() => server.close());

    it('0 turns both limits off', async () => {
      const clock = server.app.services.clock;
      clock.set(Date.UTC(2037, 0, 1, 12));
      try {
        const a = await hrCaller(server);
        for (let i = 0; i < 30; i++) {
          const res = await fetch(`${server.url}/api/v2/client/organizations`, {
            headers: { authorization: 'Bearer x' },
          });
          assert.equal(res.status, 401, `failure ${i + 1}`);
        }
        for (let i = 0; i < 30; i++)
          assert.equal((await a.call('GET', '/organizations')).status, 200, `request ${i + 1}`);
      } finally {
        clock.reset();
      }
    });
  });
}
