import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashSecret } from '../../src/platform/security/secrets.js';
import { adminCaller, expectJson } from '../support/admin.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';

interface Session {
  token: { token_id: string; name: string };
  created_at: string;
  expires_at: string;
  csrf_token: string;
}

interface Failure {
  code: string;
  message: string;
}

/** The `name=value` of a Set-Cookie header, and its attributes in lower case. */
function parseSetCookie(header: string | null) {
  assert.ok(header, 'a Set-Cookie header');
  const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
  const at = pair.indexOf('=');
  return {
    name: pair.slice(0, at),
    value: pair.slice(at + 1),
    attributes: attributes.map((a) => a.toLowerCase()),
  };
}

for (const dialect of dialects()) {
  describe(`admin API: sessions for the console (${dialect})`, () => {
    let server: TestServer;
    let token: string;
    let tokenId: string;
    const admin = adminCaller(
      () => server,
      () => token,
    );
    /** A call with the session cookie only (no Authorization), and the CSRF token when given. */
    const withCookie = (cookie: string, method: string, path: string, body?: unknown, csrf?: string) =>
      fetch(`${server.url}/admin/v1${path}`, {
        method,
        headers: {
          cookie: `atrium_admin_session=${cookie}`,
          ...(csrf !== undefined ? { 'x-csrf-token': csrf } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    const signIn = async (presented = token) => {
      const res = await admin('POST', '/session', { token: presented }, null);
      const session = await expectJson<Session>(res, 201);
      const cookie = parseSetCookie(res.headers.get('set-cookie'));
      return { res, session, cookie };
    };
    const db = () => server.app.database.db;
    const tenantCount = async () => (await db().selectFrom('hr_clients').select('id').execute()).length;

    before(async () => {
      server = await startServer(dialect);
      const made = await server.app.services.adminTokens.create('console tests', 'cli');
      token = made.token;
      tokenId = made.token_id;
    });
    after(() => server.close());

    it('signs in with an operator token: an HttpOnly, SameSite=Strict cookie for /admin/v1, stored as a hash', async () => {
      const { session, cookie } = await signIn();
      assert.equal(cookie.name, 'atrium_admin_session');
      assert.ok(cookie.value.length >= 43, 'a long random value');
      assert.ok(!cookie.value.includes(token) && !token.includes(cookie.value), 'not the token');
      assert.ok(cookie.attributes.includes('httponly'));
      assert.ok(cookie.attributes.includes('samesite=strict'));
      assert.ok(cookie.attributes.includes('path=/admin/v1'));
      assert.ok(cookie.attributes.includes('max-age=43200'), cookie.attributes.join('; '));
      assert.ok(!cookie.attributes.includes('secure'), 'plain http: no Secure');
      assert.deepEqual(session.token, { token_id: tokenId, name: 'console tests' });
      assert.match(session.csrf_token, /^[0-9a-f]{64}$/);
      const idle = Date.parse(session.expires_at) - Date.parse(session.created_at);
      assert.equal(idle, 30 * 60_000, 'ends after 30 minutes unless used');

      const rows = await db().selectFrom('admin_sessions').selectAll().where('token_id', '=', tokenId).execute();
      assert.ok(rows.some((r) => r.id_hash === hashSecret(cookie.value)));
      assert.ok(!JSON.stringify(rows).includes(cookie.value), 'the cookie is not stored');
      assert.ok(!JSON.stringify(rows).includes(session.csrf_token), 'nor the CSRF token');
      const [last] = await server.app.services.adminAudit.list(1);
      assert.equal(last?.action, 'admin_session.opened');
      assert.equal(last?.target, tokenId);
    });

    it('the cookie stands for the token on reads; GET /session gives the CSRF token again; 404 with a token', async () => {
      const { session, cookie } = await signIn();
      const tenants = await withCookie(cookie.value, 'GET', '/tenants');
      assert.equal(tenants.status, 200);
      const again = await expectJson<Session>(await withCookie(cookie.value, 'GET', '/session'), 200);
      assert.equal(again.csrf_token, session.csrf_token);
      assert.deepEqual(again.token, session.token);
      const none = await expectJson<Failure>(await admin('GET', '/session'), 404);
      assert.equal(none.code, 'not_found');
    });

    it('refuses a change without the right X-CSRF-Token (403, nothing written), and takes it with', async () => {
      const { session, cookie } = await signIn();
      const before = await tenantCount();
      const missing = await withCookie(cookie.value, 'POST', '/tenants/hr', { name: 'csrf' });
      assert.equal((await expectJson<Failure>(missing, 403)).code, 'csrf_refused');
      const wrong = await withCookie(cookie.value, 'POST', '/tenants/hr', { name: 'csrf' }, 'f'.repeat(64));
      assert.equal((await expectJson<Failure>(wrong, 403)).code, 'csrf_refused');
      const other = await signIn();
      const foreign = await withCookie(cookie.value, 'POST', '/tenants/hr', { name: 'csrf' }, other.session.csrf_token);
      assert.equal((await expectJson<Failure>(foreign, 403)).code, 'csrf_refused', "another session's token");
      assert.equal(await tenantCount(), before, 'nothing was made');

      const made = await withCookie(cookie.value, 'POST', '/tenants/hr', { name: 'csrf' }, session.csrf_token);
      const body = await expectJson<{ tenant: { id: string } }>(made, 201);
      assert.equal(await tenantCount(), before + 1);
      const [last] = await server.app.services.adminAudit.list(1);
      assert.deepEqual(
        [last?.action, last?.target, last?.actor],
        ['tenant.created', `hr:${body.tenant.id}`, `token ${tokenId} (console tests)`],
      );
    });

    it('an Authorization header wins over the cookie, and needs no CSRF token', async () => {
      const { cookie } = await signIn();
      const res = await fetch(`${server.url}/admin/v1/tenants/hr`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          cookie: `atrium_admin_session=${cookie.value}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ name: 'bearer' }),
      });
      assert.equal(res.status, 201);
      const refused = await fetch(`${server.url}/admin/v1/tenants`, {
        headers: { authorization: 'Bearer atrium_admin_nope', cookie: `atrium_admin_session=${cookie.value}` },
      });
      assert.equal(refused.status, 401, 'a bad token is not rescued by a good cookie');
    });

    it('signs out: CSRF required, the session ends, the cookie is cleared', async () => {
      const { session, cookie } = await signIn();
      assert.equal((await withCookie(cookie.value, 'DELETE', '/session')).status, 403);
      assert.equal((await withCookie(cookie.value, 'GET', '/tenants')).status, 200, 'a refused sign-out ends nothing');
      const res = await withCookie(cookie.value, 'DELETE', '/session', undefined, session.csrf_token);
      assert.equal(res.status, 204);
      const cleared = parseSetCookie(res.headers.get('set-cookie'));
      assert.equal(cleared.name, 'atrium_admin_session');
      assert.equal(cleared.value, '');
      assert.ok(cleared.attributes.includes('path=/admin/v1'));
      assert.ok(
        cleared.attributes.includes('max-age=0') ||
          cleared.attributes.some((a) => a.startsWith('expires=thu, 01 jan 1970')),
        cleared.attributes.join('; '),
      );
      const after = await withCookie(cookie.value, 'GET', '/tenants');
      assert.equal((await expectJson<Failure>(after, 401)).code, 'invalid_token');
      const rows = await db()
        .selectFrom('admin_sessions')
        .select('id_hash')
        .where('id_hash', '=', hashSecret(cookie.value))
        .execute();
      assert.deepEqual(rows, []);
      const [last] = await server.app.services.adminAudit.list(1);
      assert.equal(last?.action, 'admin_session.closed');
    });

    it('a session ends when idle for 30 minutes, after 12 hours, or when its token is revoked', async () => {
      const idle = await signIn();
      const idleHash = hashSecret(idle.cookie.value);
      const now = Date.now();
      await db()
        .updateTable('admin_sessions')
        .set({ last_seen_at: now - 30 * 60_000 - 1000 })
        .where('id_hash', '=', idleHash)
        .execute();
      assert.equal((await withCookie(idle.cookie.value, 'GET', '/tenants')).status, 401, 'idle');

      const used = await signIn();
      await db()
        .updateTable('admin_sessions')
        .set({ last_seen_at: now - 2 * 60_000 })
        .where('id_hash', '=', hashSecret(used.cookie.value))
        .execute();
      assert.equal((await withCookie(used.cookie.value, 'GET', '/tenants')).status, 200, 'used within the idle time');
      const touched = await db()
        .selectFrom('admin_sessions')
        .select('last_seen_at')
        .where('id_hash', '=', hashSecret(used.cookie.value))
        .executeTakeFirstOrThrow();
      assert.ok(Number(touched.last_seen_at) >= now, 'its use moved the idle end forward');

      const old = await signIn();
      await db()
        .updateTable('admin_sessions')
        .set({ expires_at: now - 1 })
        .where('id_hash', '=', hashSecret(old.cookie.value))
        .execute();
      assert.equal((await withCookie(old.cookie.value, 'GET', '/tenants')).status, 401, 'past its 12 hours');

      const made = await server.app.services.adminTokens.create('to revoke', 'cli');
      const revoked = await signIn(made.token);
      assert.equal((await withCookie(revoked.cookie.value, 'GET', '/tenants')).status, 200);
      await server.app.services.adminTokens.revoke(made.token_id, 'cli');
      assert.equal((await withCookie(revoked.cookie.value, 'GET', '/tenants')).status, 401, 'its token revoked');
    });

    it('refuses a bad token (401, no cookie), a bad body (422) and a made-up cookie (401)', async () => {
      const bad = await admin('POST', '/session', { token: 'atrium_admin_nope' }, null);
      assert.equal((await expectJson<Failure>(bad, 401)).code, 'invalid_token');
      assert.equal(bad.headers.get('set-cookie'), null);
      const tenantCredential = await admin('POST', '/session', { token: 'Bearer x' }, null);
      assert.equal(tenantCredential.status, 401);
      assert.equal((await admin('POST', '/session', {}, null)).status, 422);
      assert.equal((await admin('POST', '/session', { token: token, extra: 1 }, null)).status, 422);
      assert.equal((await admin('POST', '/session', '{"token":', null)).status, 400);
      // Any other credential is a wrong credential: 401, whatever its length (an HR access token is long).
      const hrToken = await admin(
        'POST',
        '/session',
        { token: `eyJ${'a'.repeat(900)}.eyJ${'b'.repeat(600)}.sig` },
        null,
      );
      assert.equal((await expectJson<Failure>(hrToken, 401)).code, 'invalid_token');
      // A form body (a cross-site form post could sign its visitor in): 415, no cookie.
      const form = await fetch(`${server.url}/admin/v1/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `token=${encodeURIComponent(token)}`,
      });
      assert.equal((await expectJson<Failure>(form, 415)).code, 'unsupported_media_type');
      assert.equal(form.headers.get('set-cookie'), null);
      const plain = await fetch(`${server.url}/admin/v1/session`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ token }),
      });
      assert.ok([400, 415].includes(plain.status), `text/plain: ${plain.status}`);
      assert.equal(plain.headers.get('set-cookie'), null);
      const madeUp = await withCookie('x'.repeat(43), 'GET', '/tenants');
      assert.equal((await expectJson<Failure>(madeUp, 401)).code, 'invalid_token');
      const empty = await withCookie('', 'GET', '/tenants');
      assert.equal(empty.status, 401);
    });
  });

  describe(`admin API: the session cookie behind a TLS proxy (${dialect})`, () => {
    let server: TestServer;
    let token: string;
    before(async () => {
      server = await startServer(dialect, { ATRIUM_TRUST_PROXY: '127.0.0.1' });
      token = (await server.app.services.adminTokens.create('proxied', 'cli')).token;
    });
    after(() => server.close());

    it('is Secure when a trusted proxy says the call came over https, and not when it says http', async () => {
      const signIn = (proto: string) =>
        fetch(`${server.url}/admin/v1/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-proto': proto },
          body: JSON.stringify({ token }),
        });
      const secure = await signIn('https');
      assert.equal(secure.status, 201);
      assert.ok(parseSetCookie(secure.headers.get('set-cookie')).attributes.includes('secure'));
      const plain = await signIn('http');
      assert.ok(!parseSetCookie(plain.headers.get('set-cookie')).attributes.includes('secure'));
    });
  });
}
