/**
 * Credentials, beyond test/hr/tokens.test.ts and test/hr/guard.test.ts (expiry by waiting, another key,
 * alg none, one altered character, revocation) and test/cli/academy-cli.test.ts (key rotation through the CLI):
 * tokens forged with the server's real signing key (another client, another algorithm, expired, another
 * issuer), every byte of a signature altered, a rotated-out Academy key past its grace period, and the
 * constant-time comparison of secrets.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { hashSecret, safeEqual, verifySecret } from '../../src/platform/security/secrets.js';
import { academyCaller } from '../support/academy.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { ROOT } from '../support/root.js';

for (const dialect of dialects()) {
  describe(`credentials (${dialect})`, () => {
    let server: TestServer;
    let a: HrCaller;
    let b: HrCaller;
    let key: Uint8Array;
    let kid: string;

    before(async () => {
      // This file fails authentication on purpose many times: the per-address limit would answer 429 instead.
      server = await startServer(dialect, { ATRIUM_KEY_GRACE_SECONDS: '60', ATRIUM_AUTH_FAILURE_LIMIT: '0' });
      a = await hrCaller(server);
      b = await hrCaller(server);
      kid = decodeProtectedHeader(a.token).kid as string;
      const row = await server.app.database.db
        .selectFrom('signing_keys')
        .selectAll()
        .where('kid', '=', kid)
        .executeTakeFirstOrThrow();
      // Stored sealed by the master key (test/reliability/secrets-at-rest.test.ts): opened here to forge with it.
      const secret = server.app.services.secretBox.open(`signing_key:${kid}`, row.secret);
      key = new Uint8Array(Buffer.from(secret, 'base64url'));
      // B has an organization A must never reach.
      assert.equal((await b.call('PUT', '/organizations/b-only', { name: 'B' })).status, 201);
    });
    after(() => server.close());

    const get = (token: string, p = '/organizations') =>
      fetch(`${server.url}/api/v2/client${p}`, { headers: { authorization: `Bearer ${token}` } });

    /** A token like A's, signed with the server's own key, with some claims or header fields changed. */
    const forge = async (claims: Record<string, unknown>, header: Record<string, unknown> = {}) => {
      const base = decodeJwt(a.token);
      return new SignJWT({ ...base, ...claims })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid, ...header } as { alg: string })
        .sign(key);
    };

    it('the forging helper is sound: a re-signed copy of a real token is accepted', async () => {
      assert.equal((await get(await forge({}))).status, 200);
    });

    it("a token claiming another client (even validly signed) cannot act for it; A's token never reaches B's objects", async () => {
      const asB = await forge({ cid: b.creds.client_id });
      assert.equal((await get(asB)).status, 401);
      assert.equal((await get(asB, '/organizations/b-only')).status, 401);
      assert.equal((await get(a.token, '/organizations/b-only')).status, 404);
      // B's own application id with A's client: the application belongs to B.
      assert.equal((await get(await forge({ sub: b.creds.application_id }))).status, 401);
    });

    it('expired, another issuer, another scope, no jti, another algorithm or an unknown key id: 401 invalid_token', async () => {
      const now = Math.floor(Date.now() / 1000);
      const cases: [string, Promise<string>][] = [
        ['expired', forge({ iat: now - 7200, exp: now - 60 })],
        ['another issuer', forge({ iss: 'someone-else' })],
        ['another scope', forge({ scope: 'admin' })],
        ['no jti', forge({ jti: undefined })],
        ['unknown kid', forge({}, { kid: randomUUID() })],
        ['HS512', new SignJWT({ ...decodeJwt(a.token) }).setProtectedHeader({ alg: 'HS512', kid }).sign(key)],
        ['HS384', new SignJWT({ ...decodeJwt(a.token) }).setProtectedHeader({ alg: 'HS384', kid }).sign(key)],
      ];
      for (const [what, token] of cases) {
        const res = await get(await token);
        assert.equal(res.status, 401, what);
        assert.equal(((await res.json()) as { code: string }).code, 'invalid_token', what);
      }
    });

    it('a signature with any one byte altered is refused', async () => {
      const [h, p, s] = a.token.split('.') as [string, string, string];
      const signature = Buffer.from(s, 'base64url');
      await fc.assert(
        fc.asyncProperty(fc.nat({ max: signature.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, xor) => {
          const altered = Buffer.from(signature);
          altered[at] = (altered[at] as number) ^ xor;
          const res = await get(`${h}.${p}.${altered.toString('base64url')}`);
          await res.body?.cancel();
          return res.status === 401;
        }),
        { numRuns: 64 },
      );
      assert.equal((await get(a.token)).status, 200, 'the untouched token still works');
    });

    it('an Academy key rotated out is refused once the grace period has passed; the new key works', async () => {
      const academy = await academyCaller(server);
      const clock = server.app.services.clock;
      const users = (apikey: string) => fetch(`${server.url}/v1/users?acadId=${academy.acadId}&apikey=${apikey}`);
      const start = Date.now();
      clock.set(start);
      try {
        const rotated = await server.app.services.academies.rotateKey(academy.acadId);
        assert.equal((await users(academy.apikey)).status, 200, 'old key within the grace period');
        clock.set(start + 59_000);
        assert.equal((await users(academy.apikey)).status, 200, 'old key, one second before the end');
        clock.set(start + 61_000);
        assert.equal((await users(academy.apikey)).status, 401, 'old key after the grace period');
        assert.equal((await users(rotated.apikey)).status, 200, 'new key');
        const other = await academyCaller(server);
        const crossed = await fetch(`${server.url}/v1/users?acadId=${other.acadId}&apikey=${rotated.apikey}`);
        assert.equal(crossed.status, 401, "a key with another academy's id");
      } finally {
        clock.reset();
      }
    });
  });
}

describe('secrets are compared in constant time', () => {
  it('safeEqual is built on crypto.timingSafeEqual and compares exactly', () => {
    const source = fs.readFileSync(path.join(ROOT, 'src/platform/security/secrets.ts'), 'utf8');
    assert.match(source, /import \{[^}]*timingSafeEqual[^}]*\} from 'node:crypto'/);
    assert.match(source, /return timingSafeEqual\(ab, bb\)/);
    fc.assert(
      fc.property(fc.string(), fc.string(), (x, y) => safeEqual(x, y) === (x === y) && safeEqual(x, x)),
      { numRuns: 500 },
    );
    assert.equal(safeEqual('abc', 'abd'), false);
    assert.equal(safeEqual('abc', 'abcd'), false);
    const secret = 'a-secret';
    assert.equal(verifySecret(secret, hashSecret(secret)), true);
    assert.equal(verifySecret('another', hashSecret(secret)), false);
  });

  it('every check of a stored secret goes through safeEqual / verifySecret, never ===', () => {
    for (const file of ['src/hr/core/auth/service.ts', 'src/academy/academies/service.ts']) {
      const source = fs.readFileSync(path.join(ROOT, file), 'utf8');
      assert.match(source, /\b(safeEqual|verifySecret)\(/, `${file} uses the constant-time comparison`);
      assert.doesNotMatch(source, /(secretHash|keyHash|key_hash|secret_hash)\s*[!=]==/, `${file}: no === on a hash`);
      assert.doesNotMatch(
        source,
        /[!=]==\s*\w*\.?(secretHash|keyHash|key_hash|secret_hash)\b/,
        `${file}: no === on a hash`,
      );
    }
  });
});
