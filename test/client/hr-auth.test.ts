import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AtriumUsageError,
  HrAuthenticationError,
  HrClient,
  HrInvalidRequestError,
  hrApiRoot,
  REDACTED,
} from '@atrium/client';
import { sdkHr } from '../support/client.js';
import { basic, createCredentials, dialects, sleep, startServer, type TestServer } from '../support/harness.js';

for (const dialect of dialects()) {
  describe(`SDK: HR tokens (${dialect})`, () => {
    let server: TestServer;
    let short: TestServer;
    before(async () => {
      server = await startServer(dialect);
      // 6 s tokens: the SDK refreshes them half-way (its margin is at most half the lifetime), at 3 s.
      short = await startServer(dialect, { ATRIUM_TOKEN_TTL: '6' });
    });
    after(async () => {
      await short.close();
      await server.close();
    });

    it('fetches the token lazily, caches it, and refreshes it before it expires (short TTL)', async () => {
      const { hr, rec } = await sdkHr(short);
      assert.equal(rec.tokenRequests(), 0, 'no token before the first call');
      const started = Date.now();
      await hr.organizations.upsert('root', { name: 'Root' });
      await hr.organizations.retrieve('root');
      assert.equal((await hr.organizations.list().toArray()).length, 1);
      // Three calls, one token (unless the machine was so slow that the refresh point, 3 s, had already passed).
      if (Date.now() - started < 2500) assert.equal(rec.tokenRequests(), 1, 'one token for three calls');
      const first = await hr.getAccessToken();
      const before = rec.tokenRequests();

      await sleep(3200); // past the refresh point (3 s), before the server's expiry (6 s)
      assert.equal((await hr.organizations.retrieve('root')).name, 'Root');
      assert.equal(rec.tokenRequests(), before + 1, 'a new token before the old one expired');
      assert.notEqual(await hr.getAccessToken(), first);
      const refused = rec.responses.filter((e) => e.status === 401);
      assert.equal(refused.length, 0, 'no call was ever refused: the refresh came first');
      assert.equal(hr.tokenRequests, rec.tokenRequests());
    });

    it('concurrent calls share one token request, and one refresh', async () => {
      const fresh = await sdkHr(short);
      const results = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          i % 2 ? fresh.hr.organizations.list().toArray() : fresh.hr.organizations.count(),
        ),
      );
      assert.equal(results.length, 25);
      assert.equal(fresh.rec.tokenRequests(), 1, 'one token request for 25 concurrent first calls');

      await sleep(3200);
      await Promise.all(Array.from({ length: 25 }, () => fresh.hr.organizations.count()));
      assert.equal(fresh.rec.tokenRequests(), 2, 'one refresh for 25 concurrent calls after the refresh point');
    });

    it('a revoked token: the call gets 401 invalid_token, refreshes once and is repeated once', async () => {
      const { hr, rec, creds } = await sdkHr(server);
      await hr.organizations.upsert('r', { name: 'R' });
      const token = await hr.getAccessToken();
      // Revoked behind the SDK's back, as another process of the integration would.
      const revoked = await fetch(`${server.url}/api/v2/client/revoke_token`, {
        method: 'POST',
        headers: { authorization: basic(creds), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }),
      });
      assert.equal(revoked.status, 200);
      await sleep(1000); // revocations reach every process within a second

      const calls = rec.calls.length;
      // Several calls at once, all refused, still share one refresh.
      const names = await Promise.all([1, 2, 3, 4].map(async () => (await hr.organizations.retrieve('r')).name));
      assert.deepEqual(names, ['R', 'R', 'R', 'R']);
      assert.equal(rec.tokenRequests(), 2, 'one new token for four refused calls');
      const after401 = rec.responses.slice(-9).filter((e) => e.status === 401);
      assert.ok(after401.length >= 1, 'the server refused the revoked token');
      assert.equal(rec.calls.length - calls, 9, 'four refused calls, one token request, four repeated calls');
      assert.notEqual(await hr.getAccessToken(), token);
    });

    it('a revoked application: the refresh is refused and the error says so (no loop)', async () => {
      const { hr, rec, creds } = await sdkHr(server);
      await hr.organizations.count();
      await server.app.services.tenants.revokeApplication(creds.application_id);
      await sleep(1000);
      await assert.rejects(hr.organizations.count(), (e: unknown) => {
        assert.ok(e instanceof HrAuthenticationError, `an HrAuthenticationError, not ${String(e)}`);
        assert.equal(e.status, 401);
        assert.equal(e.code, 'invalid_credentials');
        assert.ok(e.requestId, 'the error carries X-Request-Id');
        return true;
      });
      assert.equal(rec.tokenRequests(), 2, 'one refresh attempt, then the error');
    });

    it('a token that stays invalid is retried once only, then thrown as invalid_token', async () => {
      const { hr, rec } = await sdkHr(server, {
        // A broken proxy that mangles every bearer token.
        fetch: (input, init) => {
          const headers = { ...(init.headers as Record<string, string>) };
          if (headers.authorization?.startsWith('Bearer ')) headers.authorization = 'Bearer x.y.z';
          return fetch(input, { ...init, headers });
        },
      });
      await assert.rejects(hr.organizations.count(), (e: unknown) => {
        assert.ok(e instanceof HrAuthenticationError, 'HrAuthenticationError');
        assert.equal(e.code, 'invalid_token');
        return true;
      });
      assert.equal(rec.tokenRequests(), 2);
      assert.equal(rec.calls.length, 4, 'token, call, token, call');
    });

    it('wrong client id and wrong secret map to their codes', async () => {
      const creds = await createCredentials(server);
      const { hr: badClient } = await sdkHr(server, { creds: { ...creds, client_id: 'no-such-client' } });
      await assert.rejects(badClient.organizations.count(), (e: unknown) => {
        assert.ok(e instanceof HrInvalidRequestError, 'HrInvalidRequestError');
        assert.equal(e.status, 400);
        assert.equal(e.code, 'invalid_client_id');
        return true;
      });
      const { hr: badSecret } = await sdkHr(server, { creds: { ...creds, application_secret: 'wrong' } });
      await assert.rejects(badSecret.organizations.count(), (e: unknown) => {
        assert.ok(e instanceof HrAuthenticationError, 'HrAuthenticationError');
        assert.equal(e.code, 'invalid_credentials');
        return true;
      });
    });

    it('revokeToken revokes the cached token on the server; the next call gets a new one', async () => {
      const { hr, rec } = await sdkHr(server);
      await hr.organizations.count();
      const token = await hr.getAccessToken();
      await hr.revokeToken();
      await sleep(1000);
      const direct = await fetch(`${server.url}/api/v2/client/organizations`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(direct.status, 401, 'the old token no longer works');
      assert.equal(await hr.organizations.count(), 0);
      assert.equal(rec.tokenRequests(), 2);
    });

    it('hooks see every call with the secret, the tokens and the Basic credentials redacted', async () => {
      const { hr, rec, creds } = await sdkHr(server);
      await hr.organizations.upsert('h', { name: 'H' });
      const token = await hr.getAccessToken();
      const logged = JSON.stringify([rec.requests, rec.responses]);
      assert.ok(rec.requests.length >= 2 && rec.responses.length >= 2, 'events for the token and the call');
      for (const secret of [creds.application_secret, token, basic(creds).slice(6)]) {
        assert.ok(!logged.includes(secret), 'no secret in any hook event');
      }
      assert.ok(
        rec.requests.some((e) => e.headers.authorization === `Bearer ${REDACTED}`),
        'the bearer header is shown redacted',
      );
      assert.ok(
        rec.requests.some((e) => e.headers.authorization === `Basic ${REDACTED}`),
        'Basic redacted too',
      );
      const put = rec.responses.find((e) => e.method === 'PUT');
      assert.equal(put?.status, 201);
      assert.match(put?.requestId ?? '', /./, 'response events carry the request id');
    });
  });
}

describe('SDK: HR client construction', () => {
  it('takes an origin or a URL ending in /api/v2/client', () => {
    assert.equal(hrApiRoot('http://127.0.0.1:8080'), 'http://127.0.0.1:8080/api/v2/client');
    assert.equal(hrApiRoot('http://127.0.0.1:8080/'), 'http://127.0.0.1:8080/api/v2/client');
    assert.equal(hrApiRoot('https://hr.example/api/v2/client/'), 'https://hr.example/api/v2/client');
    assert.equal(hrApiRoot('https://example/proxy'), 'https://example/proxy/api/v2/client');
    assert.throws(() => hrApiRoot('not a url'), AtriumUsageError);
  });

  it('refuses to run in a browser, with a clear error', () => {
    const g = globalThis as { window?: unknown; document?: unknown };
    g.window = {};
    g.document = {};
    try {
      assert.throws(
        () => new HrClient({ baseUrl: 'http://x', applicationId: 'a', applicationSecret: 's', clientId: 'c' }),
        (e: unknown) => {
          assert.ok(e instanceof AtriumUsageError, 'AtriumUsageError');
          assert.match(e.message, /must not run in a browser/);
          return true;
        },
      );
    } finally {
      delete g.window;
      delete g.document;
    }
    assert.ok(new HrClient({ baseUrl: 'http://x', applicationId: 'a', applicationSecret: 's', clientId: 'c' }));
  });

  it('needs every credential', () => {
    assert.throws(
      () => new HrClient({ baseUrl: 'http://x', applicationId: '', applicationSecret: 's', clientId: 'c' }),
      /applicationId/,
    );
  });
});
