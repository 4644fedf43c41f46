import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT, UnsecuredJWT } from 'jose';
import { dialects, getToken, hrCaller, startServer, type TestServer } from '../support/harness.js';

const LIST = '/api/v2/client/organizations';

async function expectError(res: Response, status: number, code: string): Promise<void> {
  const body = (await res.json()) as Record<string, unknown>;
  assert.equal(res.status, status, JSON.stringify(body));
  assert.equal(body.code, code);
  assert.equal(typeof body.message, 'string');
}

for (const dialect of dialects()) {
  describe(`bearer guard (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server.close());

    const get = (headers: Record<string, string>, query = '') => fetch(`${server.url}${LIST}${query}`, { headers });

    it('401 invalid_token without a token, with a malformed one, or another scheme', async () => {
      const none = await get({});
      assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer realm="atrium"/);
      await expectError(none, 401, 'invalid_token');
      await expectError(await get({ authorization: 'Bearer not-a-jwt' }), 401, 'invalid_token');
      await expectError(await get({ authorization: 'Bearer ' }), 401, 'invalid_token');
      await expectError(await get({ authorization: 'Token abc' }), 401, 'invalid_token');
    });

    it('refuses tokens signed with another key, with alg none, or with one altered byte', async () => {
      const caller = await hrCaller(server);
      const claims = { cid: caller.creds.client_id, scope: 'client', app: 'x:y' };
      const foreign = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', kid: 'whatever' })
        .setIssuer('atrium')
        .setSubject(caller.creds.application_id)
        .setIssuedAt()
        .setExpirationTime('1h')
        .setJti(crypto.randomUUID())
        .sign(new TextEncoder().encode('an-attacker-key-of-enough-length!!'));
      await expectError(await get({ authorization: `Bearer ${foreign}` }), 401, 'invalid_token');
      const unsecured = new UnsecuredJWT(claims)
        .setIssuer('atrium')
        .setSubject(caller.creds.application_id)
        .setIssuedAt()
        .setExpirationTime('1h')
        .setJti(crypto.randomUUID())
        .encode();
      await expectError(await get({ authorization: `Bearer ${unsecured}` }), 401, 'invalid_token');
      const [h, p, s] = caller.token.split('.') as [string, string, string];
      const flipped = s.slice(0, 10) + (s[10] === 'A' ? 'B' : 'A') + s.slice(11);
      await expectError(await get({ authorization: `Bearer ${h}.${p}.${flipped}` }), 401, 'invalid_token');
      // The same payload claiming another client is refused too.
      const forged = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), cid: crypto.randomUUID() }),
      ).toString('base64url');
      await expectError(await get({ authorization: `Bearer ${h}.${forged}.${s}` }), 401, 'invalid_token');
      assert.equal((await get({ authorization: `Bearer ${caller.token}` })).status, 200);
    });

    it('accepts a lone access_token header or query parameter, but 400 when the token comes more than one way', async () => {
      const caller = await hrCaller(server);
      assert.equal((await get({ access_token: caller.token })).status, 200);
      assert.equal((await get({}, `?access_token=${caller.token}&per_page=5`)).status, 200);
      await expectError(
        await get({ authorization: `Bearer ${caller.token}`, access_token: caller.token }),
        400,
        'invalid_request',
      );
      await expectError(
        await get({ authorization: `Bearer ${caller.token}` }, `?access_token=${caller.token}`),
        400,
        'invalid_request',
      );
      await expectError(
        await get({}, `?access_token=${caller.token}&access_token=${caller.token}`),
        400,
        'invalid_request',
      );
    });

    it('a read-only application may read but 403 insufficient_scope on writes', async () => {
      const ro = await hrCaller(server, { readOnly: true });
      assert.equal((await ro.call('GET', '/organizations')).status, 200);
      assert.equal((await ro.call('HEAD', '/organizations')).status, 200);
      await expectError(await ro.call('PUT', '/organizations/ro', { name: 'Read only' }), 403, 'insufficient_scope');
      await expectError(await ro.call('PATCH', '/organizations/ro', { name: 'Read only' }), 403, 'insufficient_scope');
      const rw = await hrCaller(server);
      assert.equal((await ro.call('GET', '/organizations/ro')).status, 404);
      assert.equal((await rw.call('PUT', '/organizations/ro', { name: 'Writable' })).status, 201);
    });

    it("a token of one client never reaches another client's objects", async () => {
      const a = await hrCaller(server);
      const b = await hrCaller(server);
      assert.equal((await a.call('PUT', '/organizations/shared-code', { name: 'A' })).status, 201);
      await expectError(await b.call('GET', '/organizations/shared-code'), 404, 'not_found');
      await expectError(await b.call('PATCH', '/organizations/shared-code', { name: 'B' }), 404, 'not_found');
      // B may use the same code for its own organization; A's is untouched.
      assert.equal((await b.call('PUT', '/organizations/shared-code', { name: 'B' })).status, 201);
      const mine = (await (await a.call('GET', '/organizations/shared-code')).json()) as { name: string };
      assert.equal(mine.name, 'A');
      const listB = (await (await b.call('GET', '/organizations')).json()) as { name: string }[];
      assert.deepEqual(
        listB.map((o) => o.name),
        ['B'],
      );
      assert.ok(await getToken(server, a.creds), 'the application still gets tokens');
    });
  });
}
