/**
 * Issue 16, item 7: failed authentications count per client address AND per credential (an HR application id at the
 * token endpoint, an Academy key), so a valid credential is never refused because of others' failures from the same
 * address; failures against one credential lock that credential (its owner then gets 429 with Retry-After until the
 * minute ends; tokens already issued keep working); X-Forwarded-For sets the address only with ATRIUM_TRUST_PROXY.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/platform/config.js';
import { type AcademyCaller, academyCaller } from '../support/academy.js';
import {
  basic,
  type Credentials,
  dialects,
  type HrCaller,
  hrCaller,
  startServer,
  type TestServer,
} from '../support/harness.js';

const LIMIT = 60;

const tokenRequest = (server: TestServer, creds: Credentials, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/api/v2/client/tokens`, {
    method: 'POST',
    headers: { authorization: basic(creds), 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: `grant_type=client_credentials&scope=client&client_id=${creds.client_id}`,
  });

const wrongSecret = (creds: Credentials): Credentials => ({
  ...creds,
  application_secret: randomBytes(32).toString('base64url'),
});

describe('ATRIUM_TRUST_PROXY', () => {
  it('is off by default; takes a hop count or addresses and CIDRs; refuses anything else', () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ ATRIUM_TRUST_PROXY: '2' }).trustProxy, 2);
    assert.deepEqual(loadConfig({ ATRIUM_TRUST_PROXY: '10.0.0.0/8, ::1' }).trustProxy, ['10.0.0.0/8', '::1']);
    assert.throws(() => loadConfig({ ATRIUM_TRUST_PROXY: 'yes' }), /ATRIUM_TRUST_PROXY/);
    assert.throws(() => loadConfig({ ATRIUM_TRUST_PROXY: '10.0.0.0/40' }), /ATRIUM_TRUST_PROXY/);
  });
});

for (const dialect of dialects()) {
  describe(`failed-login lockout, no proxy trusted (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let academy: AcademyCaller;
    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      academy = await academyCaller(server);
    });
    after(() => server.close());

    it(`${LIMIT + 10} failures from one address do not block a valid HR credential, token or Academy key from it`, async () => {
      const other = await hrCaller(server);
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 10; i++) {
        // Each from a "different" X-Forwarded-For: not trusted, so all count against 127.0.0.1.
        const xff = { 'x-forwarded-for': `203.0.113.${i}` };
        const kind = i % 3;
        const res =
          kind === 0
            ? await tokenRequest(
                server,
                wrongSecret(i % 2 ? other.creds : { ...other.creds, application_id: randomUUID() }),
                xff,
              )
            : kind === 1
              ? await fetch(`${server.url}/api/v2/client/organizations`, {
                  headers: { authorization: 'Bearer a.b.c', ...xff },
                })
              : await fetch(`${server.url}/v1/users?acadId=${academy.acadId + 1}&apikey=${randomUUID()}`, {
                  headers: xff,
                });
        statuses.push(res.status);
        await res.body?.cancel();
      }
      assert.deepEqual(statuses.slice(0, LIMIT), Array(LIMIT).fill(401), 'the first failures are 401');
      assert.deepEqual(statuses.slice(LIMIT), Array(10).fill(429), 'past the limit, failures from the address are 429');
      const token = await tokenRequest(server, hr.creds);
      assert.equal(token.status, 200, 'valid application credentials from the same address');
      assert.equal((await hr.call('GET', '/organizations')).status, 200, 'a valid bearer token from the same address');
      assert.equal((await academy.call('GET', '/users')).status, 200, 'a valid Academy key from the same address');
      const failure = await fetch(`${server.url}/api/v2/client/organizations`, {
        headers: { authorization: 'Bearer a.b.c' },
      });
      assert.equal(failure.status, 429, 'the address is still limited for failures');
      assert.ok(Number(failure.headers.get('retry-after')) >= 1, 'with Retry-After');
    });
  });

  describe(`failed-login lockout behind a trusted proxy (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { ATRIUM_TRUST_PROXY: '1' });
    });
    after(() => server.close());

    const clockAt = (t: number) => server.app.services.clock.set(t);
    let n = 0;
    const address = () => {
      n += 1;
      return { 'x-forwarded-for': `198.51.${Math.floor(n / 250)}.${n % 250}` };
    };

    it('X-Forwarded-For from a trusted proxy is the address: one client locked, another behind the same proxy not', async () => {
      clockAt(Date.UTC(2039, 0, 1, 12));
      try {
        const locked = { 'x-forwarded-for': '192.0.2.10' };
        for (let i = 0; i < LIMIT; i++) {
          const res = await fetch(`${server.url}/api/v2/client/organizations`, {
            headers: { authorization: 'Bearer a.b.c', ...locked },
          });
          assert.equal(res.status, 401, `failure ${i + 1}`);
        }
        const past = await fetch(`${server.url}/api/v2/client/organizations`, {
          headers: { authorization: 'Bearer a.b.c', ...locked },
        });
        assert.equal(past.status, 429, 'the client past its limit');
        const neighbour = await fetch(`${server.url}/api/v2/client/organizations`, {
          headers: { authorization: 'Bearer a.b.c', 'x-forwarded-for': '192.0.2.11' },
        });
        assert.equal(neighbour.status, 401, 'another client behind the same proxy is not limited');
      } finally {
        server.app.services.clock.reset();
      }
    });

    it('failures against an HR application lock it from that address only: its owner elsewhere is served', async () => {
      const T = Date.UTC(2039, 0, 2, 12);
      clockAt(T);
      try {
        const victim = await hrCaller(server);
        const bystander = await hrCaller(server);
        // Failures spread over many addresses: none of them reaches the limit, nothing is locked.
        for (let i = 0; i < LIMIT + 10; i++) {
          const res = await tokenRequest(server, wrongSecret(victim.creds), address());
          assert.equal(res.status, 401, `failure ${i + 1}, each from its own address`);
        }
        assert.equal((await tokenRequest(server, victim.creds, address())).status, 200, 'the owner is not locked out');
        // The limit reached from one address: the application is refused from there.
        const attacker = { 'x-forwarded-for': '203.0.113.66' };
        for (let i = 0; i < LIMIT; i++) {
          const res = await tokenRequest(server, wrongSecret(victim.creds), attacker);
          assert.equal(res.status, 401, `failure ${i + 1} from one address`);
        }
        const lockedAt = server.app.services.clock.now();
        const fromThere = await tokenRequest(server, victim.creds, attacker);
        assert.equal(fromThere.status, 429, 'refused from the address that failed');
        const retryAfter = Number(fromThere.headers.get('retry-after'));
        assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
        const body = (await fromThere.json()) as { code: string; message: string };
        assert.equal(body.code, 'rate_limited');
        assert.match(body.message, /for this application/);
        const owner = { 'x-forwarded-for': '198.18.0.7' };
        assert.equal((await tokenRequest(server, victim.creds, owner)).status, 200, 'its owner, elsewhere, is served');
        assert.equal((await victim.call('GET', '/organizations')).status, 200, 'tokens already issued keep working');
        assert.equal((await tokenRequest(server, bystander.creds, address())).status, 200, 'another application');
        clockAt(lockedAt + 61_000);
        assert.equal((await tokenRequest(server, victim.creds, attacker)).status, 200, 'a minute later');
      } finally {
        server.app.services.clock.reset();
      }
    });

    it('Academy: wrong keys naming an academy never lock it; failures with its own key (wrong acadId) lock that key', async () => {
      const T = Date.UTC(2039, 0, 3, 12);
      clockAt(T);
      try {
        const victim = await academyCaller(server);
        for (let i = 0; i < LIMIT + 5; i++) {
          const res = await fetch(`${server.url}/v1/users?acadId=${victim.acadId}&apikey=${randomUUID()}`, {
            headers: address(),
          });
          assert.equal(res.status, 401, `guess ${i + 1}`);
        }
        assert.equal(
          (await victim.call('GET', '/users', undefined, address())).status,
          200,
          'the academy is not locked',
        );
        const from = { 'x-forwarded-for': '203.0.113.77' };
        for (let i = 0; i < LIMIT; i++) {
          const res = await fetch(`${server.url}/v1/users?acadId=${victim.acadId + 1000}&apikey=${victim.apikey}`, {
            headers: from,
          });
          assert.equal(res.status, 401, `failure ${i + 1} with the key`);
        }
        const lockedAt = server.app.services.clock.now();
        const locked = await victim.call('GET', '/users', undefined, from);
        assert.equal(locked.status, 429, 'the key is locked from that address');
        assert.match(((await locked.json()) as { message: string }).message, /with this key/);
        assert.equal((await victim.call('GET', '/users', undefined, address())).status, 200, 'and served elsewhere');
        clockAt(lockedAt + 61_000);
        assert.equal((await victim.call('GET', '/users', undefined, from)).status, 200, 'a minute later');
      } finally {
        server.app.services.clock.reset();
      }
    });

    it('the per-credential table stays bounded: failures from an address past its limit are not counted per credential', async () => {
      clockAt(Date.UTC(2039, 0, 4, 12));
      try {
        const table = server.app.rateLimits.credentialFailures;
        const before = table.size;
        const from = { 'x-forwarded-for': '192.0.2.99' };
        const creds: Credentials = { client_id: 'c', application_id: randomUUID(), application_secret: 'x' };
        for (let i = 0; i < LIMIT + 40; i++) {
          const res = await tokenRequest(server, { ...creds, application_id: randomUUID() }, from);
          await res.body?.cancel();
          assert.equal(res.status, i < LIMIT ? 401 : 429, `attempt ${i + 1}`);
        }
        assert.ok(
          table.size - before <= LIMIT,
          `${table.size - before} credentials tracked for ${LIMIT + 40} failures`,
        );
      } finally {
        server.app.services.clock.reset();
      }
    });
  });
}
