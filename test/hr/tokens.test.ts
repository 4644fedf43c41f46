import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import {
  basic,
  createCredentials,
  dialects,
  getToken,
  requestToken,
  sleep,
  startServer,
  type TestServer,
} from '../support/harness.js';

const TOKENS = '/api/v2/client/tokens';

function form(fields: Record<string, string> | string): string {
  return typeof fields === 'string' ? fields : new URLSearchParams(fields).toString();
}

async function post(
  server: TestServer,
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...headers },
    body,
  });
}

async function expectError(res: Response, status: number, code: string): Promise<Record<string, unknown>> {
  const body = (await res.json()) as Record<string, unknown>;
  assert.equal(res.status, status, JSON.stringify(body));
  assert.equal(body.code, code);
  assert.equal(typeof body.message, 'string');
  return body;
}

for (const dialect of dialects()) {
  describe(`token endpoint (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server.close());

    it('issues a bearer JWT with the spec headers and claims', async () => {
      const creds = await createCredentials(server);
      const res = await requestToken(server, creds);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('pragma'), 'no-cache');
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
      const body = (await res.json()) as { access_token: string; token_type: string; expires_in: number };
      assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'token_type']);
      assert.equal(body.token_type, 'bearer');
      assert.equal(body.expires_in, 3600);
      const claims = decodeJwt(body.access_token);
      assert.equal(claims.cid, creds.client_id);
      assert.equal(claims.sub, creds.application_id);
      assert.equal(claims.scope, 'client');
      assert.match(String(claims.app), new RegExp(`^${creds.application_id}:`));
      assert.match(String(claims.jti), /^[0-9a-f-]{36}$/);
      assert.equal((claims.exp as number) - (claims.iat as number), 3600);
      assert.equal(decodeProtectedHeader(body.access_token).alg, 'HS256');
      const list = await fetch(`${server.url}/api/v2/client/organizations`, {
        headers: { authorization: `Bearer ${body.access_token}` },
      });
      assert.equal(list.status, 200);
    });

    it('401 invalid_credentials without Basic credentials, with a wrong secret, or an unknown application', async () => {
      const creds = await createCredentials(server);
      const good = form({ grant_type: 'client_credentials', scope: 'client', client_id: creds.client_id });
      const none = await expectError(await post(server, TOKENS, good, {}), 401, 'invalid_credentials');
      assert.equal(none.error, 'invalid_client');
      assert.equal(typeof none.error_description, 'string');
      const wrong = await post(server, TOKENS, good, {
        authorization: basic({ ...creds, application_secret: 'nope' }),
      });
      assert.equal(wrong.headers.get('www-authenticate'), 'Basic realm="atrium"');
      await expectError(wrong, 401, 'invalid_credentials');
      await expectError(
        await post(server, TOKENS, good, { authorization: basic({ ...creds, application_id: crypto.randomUUID() }) }),
        401,
        'invalid_credentials',
      );
      await expectError(await post(server, TOKENS, good, { authorization: 'Basic !!!' }), 401, 'invalid_credentials');
      await expectError(
        await post(server, TOKENS, good, { authorization: `Bearer ${creds.application_secret}` }),
        401,
        'invalid_credentials',
      );
    });

    it('checks Basic credentials before the body: 401 whatever the body, on /tokens and /revoke_token', async () => {
      const creds = await createCredentials(server);
      const token = await getToken(server, creds);
      const wrong = basic({ ...creds, application_secret: 'nope' });
      const nul = `Basic ${Buffer.from(`${creds.application_id}\u0000:${creds.application_secret}`).toString('base64')}`;
      const json = JSON.stringify({ grant_type: 'client_credentials', scope: 'client', client_id: creds.client_id });
      for (const path of [TOKENS, '/api/v2/client/revoke_token']) {
        const repeated =
          path === TOKENS
            ? `grant_type=client_credentials&grant_type=client_credentials&scope=client&client_id=${creds.client_id}`
            : `token=${token}&token=${token}`;
        for (const authorization of [undefined, wrong, nul]) {
          const auth: Record<string, string> = authorization ? { authorization } : {};
          const asJson = await fetch(`${server.url}${path}`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: json,
          });
          const body = await expectError(asJson, 401, 'invalid_credentials');
          assert.equal(body.error, 'invalid_client', `${path} JSON`);
          await expectError(await post(server, path, repeated, auth), 401, 'invalid_credentials');
          await expectError(
            await post(server, path, '<xml/>', { ...auth, 'content-type': 'application/xml' }),
            401,
            'invalid_credentials',
          );
          await expectError(await post(server, path, `x=${'y'.repeat(1_100_000)}`, auth), 401, 'invalid_credentials');
        }
        // With the right credentials, the same bodies are what is wrong.
        const right = { authorization: basic(creds) };
        await expectError(await post(server, path, repeated, right), 400, 'invalid_request');
        const asJson = await fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { ...right, 'content-type': 'application/json' },
          body: json,
        });
        await expectError(asJson, 400, 'invalid_request');
      }
      assert.equal((await requestToken(server, creds)).status, 200);
    });

    it('400 invalid_client_id for an unknown client or one the application may not act for', async () => {
      const creds = await createCredentials(server);
      const other = await createCredentials(server);
      const auth = { authorization: basic(creds) };
      for (const client_id of [crypto.randomUUID(), other.client_id]) {
        const body = await expectError(
          await post(server, TOKENS, form({ grant_type: 'client_credentials', scope: 'client', client_id }), auth),
          400,
          'invalid_client_id',
        );
        assert.equal(body.error, 'invalid_request');
      }
    });

    it('401 invalid_scope, as the reference lists it, for a scope other than client', async () => {
      const creds = await createCredentials(server);
      for (const scope of ['admin', 'client extra', 'CLIENT']) {
        const res = await post(
          server,
          TOKENS,
          form({ grant_type: 'client_credentials', scope, client_id: creds.client_id }),
          {
            authorization: basic(creds),
          },
        );
        const err = await expectError(res, 401, 'invalid_scope');
        assert.equal(err.error, 'invalid_scope', 'the RFC 6749 name');
        assert.match(String(err.error_description), /use client/);
        assert.equal(res.headers.get('cache-control'), 'no-store');
      }
    });

    it('400 invalid_request for a missing or unsupported grant_type, a missing scope, repeated or malformed input', async () => {
      const creds = await createCredentials(server);
      const auth = { authorization: basic(creds) };
      const cid = creds.client_id;
      const cases: [string, string | undefined][] = [
        [form({ scope: 'client', client_id: cid }), undefined],
        [form({ grant_type: 'password', scope: 'client', client_id: cid }), 'unsupported_grant_type'],
        [form({ grant_type: 'client_credentials', client_id: cid }), undefined],
        [form({ grant_type: 'client_credentials', scope: 'client' }), undefined],
        [`grant_type=client_credentials&grant_type=client_credentials&scope=client&client_id=${cid}`, undefined],
        [`grant_type=client_credentials&scope=client&scope=client&client_id=${cid}`, undefined],
      ];
      for (const [body, oauthError] of cases) {
        const res = await post(server, TOKENS, body, auth);
        const err = await expectError(res, 400, 'invalid_request');
        assert.equal(err.error, oauthError ?? 'invalid_request', body);
        assert.equal(res.headers.get('cache-control'), 'no-store');
      }
      // A JSON body, and no body at all, are malformed for this endpoint.
      const json = await fetch(`${server.url}${TOKENS}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', scope: 'client', client_id: cid }),
      });
      await expectError(json, 400, 'invalid_request');
      const empty = await fetch(`${server.url}${TOKENS}`, { method: 'POST', headers: auth });
      await expectError(empty, 400, 'invalid_request');
    });

    it('refuses a revoked application, in every process, within one second', async () => {
      const creds = await createCredentials(server);
      const token = await getToken(server, creds);
      const sibling = await server.sibling();
      const call = (s: TestServer) =>
        fetch(`${s.url}/api/v2/client/organizations`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal((await call(sibling)).status, 200);
      // Revoked through a third, independent service instance, as the CLI does.
      await sibling.app.services.tenants.revokeApplication(creds.application_id);
      await sleep(1000);
      await expectError(await call(server), 401, 'invalid_token');
      await expectError(await call(sibling), 401, 'invalid_token');
      await expectError(await requestToken(server, creds), 401, 'invalid_credentials');
    });
  });

  describe(`token lifetime (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      // 2 s, not 1: iat and exp are whole seconds, so a 1 s token issued late in a second lives for a few ms only.
      server = await startServer(dialect, { ATRIUM_TOKEN_TTL: '2' });
    });
    after(() => server.close());

    it('an expired token is refused with 401 invalid_token', async () => {
      const creds = await createCredentials(server);
      const res = await requestToken(server, creds);
      const body = (await res.json()) as { access_token: string; expires_in: number };
      assert.equal(body.expires_in, 2);
      const call = () =>
        fetch(`${server.url}/api/v2/client/organizations`, {
          headers: { authorization: `Bearer ${body.access_token}` },
        });
      assert.equal((await call()).status, 200);
      await sleep(3100);
      const expired = await call();
      assert.match(expired.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
      const err = await expectError(expired, 401, 'invalid_token');
      assert.match(String(err.message), /expired/);
    });
  });

  describe(`token revocation and key rotation (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server.close());

    const list = (s: TestServer, token: string) =>
      fetch(`${s.url}/api/v2/client/organizations`, { headers: { authorization: `Bearer ${token}` } });

    it('revoke_token revokes one token on every process; others keep working', async () => {
      const creds = await createCredentials(server);
      const [a, b] = [await getToken(server, creds), await getToken(server, creds)];
      const sibling = await server.sibling();
      assert.equal((await list(sibling, a)).status, 200);
      const res = await post(server, '/api/v2/client/revoke_token', form({ token: a }), {
        authorization: basic(creds),
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      await expectError(await list(server, a), 401, 'invalid_token');
      await sleep(1000);
      await expectError(await list(sibling, a), 401, 'invalid_token');
      assert.equal((await list(sibling, b)).status, 200);
      assert.equal((await list(server, b)).status, 200);
    });

    it('revoke_token needs the Basic credentials of the application that holds the token', async () => {
      const creds = await createCredentials(server);
      const other = await createCredentials(server);
      const token = await getToken(server, creds);
      await expectError(
        await post(server, '/api/v2/client/revoke_token', form({ token }), {}),
        401,
        'invalid_credentials',
      );
      await expectError(
        await post(server, '/api/v2/client/revoke_token', form({ token }), { authorization: basic(other) }),
        400,
        'invalid_request',
      );
      await expectError(
        await post(server, '/api/v2/client/revoke_token', form({}), { authorization: basic(creds) }),
        400,
        'invalid_request',
      );
      // A token that is already invalid needs no revoking (RFC 7009).
      const junk = await post(server, '/api/v2/client/revoke_token', form({ token: 'x.y.z' }), {
        authorization: basic(creds),
      });
      assert.equal(junk.status, 200);
      assert.equal((await list(server, token)).status, 200);
    });

    it('rotating the signing key keeps old tokens valid and signs new ones with the new key', async () => {
      const creds = await createCredentials(server);
      const before = await getToken(server, creds);
      const sibling = await server.sibling();
      const kid = await sibling.app.services.auth.rotateSigningKey();
      await sleep(1000);
      const after = await getToken(server, creds);
      assert.notEqual(decodeProtectedHeader(before).kid, kid);
      assert.equal(decodeProtectedHeader(after).kid, kid);
      for (const s of [server, sibling]) {
        assert.equal((await list(s, before)).status, 200);
        assert.equal((await list(s, after)).status, 200);
      }
    });
  });
}
