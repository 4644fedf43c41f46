/**
 * Issue 16, items 3 and 5: a token's lifetime is capped (`exp - iat` at most ATRIUM_TOKEN_TTL, `iat` at most
 * IAT_SKEW_SECONDS ahead); a retired signing key verifies for one token lifetime after its retirement, then never;
 * `rotate-signing-key --revoke-previous` cuts the older keys off at once, in every process; a JWT header's `kid` is
 * type-checked before any look-up, and a burst of unknown key ids costs no query nor cache entry of its own.
 * Tokens are forged with the server's real keys (opened with the master key), so only the rule under test refuses.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { IAT_SKEW_SECONDS } from '../../src/hr/core/auth/service.js';
import { dialects, type HrCaller, hrCaller, sleep, startServer, type TestServer } from '../support/harness.js';
import { ROOT } from '../support/root.js';

const CLI = path.join(ROOT, 'dist/cli/main.js');
const TTL = 600;

function atrium(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, DATABASE_URL: env.DATABASE_URL ?? '' },
    });
    let stdout = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, stdout }));
  });
}

/** The key of a kid, as stored (sealed) and opened with the server's master key. */
async function signingKey(server: TestServer, kid: string): Promise<Uint8Array> {
  const row = await server.app.database.db
    .selectFrom('signing_keys')
    .selectAll()
    .where('kid', '=', kid)
    .executeTakeFirstOrThrow();
  return new Uint8Array(Buffer.from(server.app.services.secretBox.open(`signing_key:${kid}`, row.secret), 'base64url'));
}

for (const dialect of dialects()) {
  describe(`signing keys and token lifetime (${dialect})`, () => {
    let server: TestServer;
    let caller: HrCaller;
    let kid: string;
    let key: Uint8Array;

    before(async () => {
      // The burst below opens 100 connections at once from 127.0.0.1: no per-address cap (its own test is
      // connections-per-address.test.ts).
      server = await startServer(dialect, {
        ATRIUM_TOKEN_TTL: String(TTL),
        ATRIUM_AUTH_FAILURE_LIMIT: '0',
        ATRIUM_MAX_CONNECTIONS_PER_ADDRESS: '0',
      });
      caller = await hrCaller(server);
      kid = decodeProtectedHeader(caller.token).kid as string;
      key = await signingKey(server, kid);
    });
    after(() => server.close());

    const get = (token: string) =>
      fetch(`${server.url}/api/v2/client/organizations`, { headers: { authorization: `Bearer ${token}` } });
    const nowSeconds = () => Math.floor(server.app.services.clock.now() / 1000);
    const forge = (claims: Record<string, unknown>, header: Record<string, unknown> = {}, withKey = key) =>
      new SignJWT({ ...decodeJwt(caller.token), jti: randomUUID(), ...claims })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid, ...header } as { alg: string })
        .sign(withKey);
    const refused = async (token: string, what: string) => {
      const res = await get(token);
      assert.equal(res.status, 401, what);
      assert.equal(((await res.json()) as { code: string }).code, 'invalid_token', what);
    };

    it('a token living longer than ATRIUM_TOKEN_TTL is refused, even validly signed (exp 100 years ahead)', async () => {
      const iat = nowSeconds();
      assert.equal((await get(await forge({ iat, exp: iat + TTL }))).status, 200, 'exactly the TTL is accepted');
      await refused(await forge({ iat, exp: iat + TTL + 1 }), 'one second longer');
      await refused(await forge({ iat, exp: iat + 100 * 365 * 86_400 }), '100 years');
    });

    it(`a token issued more than ${IAT_SKEW_SECONDS} s in the future is refused; within the skew it is accepted`, async () => {
      const soon = nowSeconds() + IAT_SKEW_SECONDS - 20;
      assert.equal((await get(await forge({ iat: soon, exp: soon + TTL }))).status, 200, 'within the skew');
      const later = nowSeconds() + IAT_SKEW_SECONDS + 60;
      await refused(await forge({ iat: later, exp: later + TTL }), 'beyond the skew');
    });

    it('a kid that is an array, a number, an object, over-long or of another form is refused before any look-up', async () => {
      const reads = server.app.services.auth.keyReads;
      for (const [what, bad] of [
        ['array', [kid]],
        ['number', 7],
        ['object', { kid }],
        ['over-long', 'k'.repeat(65)],
        ['another form', `${kid}/..`],
      ] as const) {
        await refused(await forge({}, { kid: bad }), what);
      }
      assert.equal(server.app.services.auth.keyReads, reads, 'no signing key read for a malformed kid');
    });

    it('a burst of unknown kids does not query per kid: key reloads are shared and at most one per refresh period', async () => {
      const auth = server.app.services.auth;
      const reads = auth.keyReads;
      const started = performance.now();
      const kids = 300;
      for (let round = 0; round < 3; round++) {
        const tokens = await Promise.all(Array.from({ length: kids / 3 }, () => forge({}, { kid: randomUUID() })));
        const statuses = await Promise.all(tokens.map(async (t) => (await get(t)).status));
        assert.ok(
          statuses.every((s) => s === 401),
          'every unknown kid is refused',
        );
      }
      const elapsed = performance.now() - started;
      const extra = auth.keyReads - reads;
      // The bound: one reload per refresh period of the burst (ATRIUM_AUTH_REFRESH_MS = 200 in tests), plus one.
      const bound = Math.ceil(elapsed / server.config.authRefreshMs) + 1;
      assert.ok(extra <= bound, `${extra} key reads for ${kids} unknown kids (bound ${bound})`);
      assert.ok(extra < kids / 3, `${extra} key reads for ${kids} unknown kids: not one per kid`);
      assert.equal((await get(caller.token)).status, 200, 'the real key still works');
    });

    it('a retired key verifies its tokens for ATRIUM_TOKEN_TTL after the rotation, then never', async () => {
      const clock = server.app.services.clock;
      const T = Date.UTC(2038, 0, 1, 12);
      try {
        clock.set(T);
        const oldKid = kid;
        const oldKey = key;
        const before = await forge({ iat: nowSeconds(), exp: nowSeconds() + TTL });
        const newKid = await server.app.services.auth.rotateSigningKey();
        assert.notEqual(newKid, oldKid);
        assert.equal((await get(before)).status, 200, 'a token of the retired key, within its lifetime');
        // A fresh token signed with the retired key (a leaked key) is still accepted inside the window…
        clock.set(T + (TTL - 30) * 1000);
        const inWindow = await forge({ iat: nowSeconds(), exp: nowSeconds() + TTL }, { kid: oldKid }, oldKey);
        assert.equal((await get(inWindow)).status, 200, 'the retired key inside its window');
        // …and never once the window has closed, even with a valid lifetime; a cached verification is dropped too.
        clock.set(T + (TTL + 1) * 1000);
        await refused(inWindow, 'the token verified earlier, after the window');
        const late = await forge({ iat: nowSeconds(), exp: nowSeconds() + TTL }, { kid: oldKid }, oldKey);
        await refused(late, 'the retired key after its window');
        const newKey = await signingKey(server, newKid);
        const current = await forge({ iat: nowSeconds(), exp: nowSeconds() + TTL }, { kid: newKid }, newKey);
        assert.equal((await get(current)).status, 200, 'the current key');
        kid = newKid;
        key = newKey;
      } finally {
        clock.reset();
      }
    });

    it('rotate-signing-key --revoke-previous (the CLI, another process) cuts the older keys off in every process', async () => {
      const sibling = await server.sibling();
      const fresh = await hrCaller(server);
      const getOn = (s: TestServer, token: string) =>
        fetch(`${s.url}/api/v2/client/organizations`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal((await getOn(server, fresh.token)).status, 200);
      assert.equal((await getOn(sibling, fresh.token)).status, 200);
      const run = await atrium(server.env, 'hr', 'rotate-signing-key', '--revoke-previous', '--json');
      assert.equal(run.code, 0, run.stdout);
      const { kid: newKid, previousKeysRevoked } = JSON.parse(run.stdout) as {
        kid: string;
        previousKeysRevoked: boolean;
      };
      assert.equal(previousKeysRevoked, true);
      const rows = await server.app.database.db.selectFrom('signing_keys').select('kid').execute();
      assert.deepEqual(
        rows.map((r) => r.kid),
        [newKid],
        'only the new key is left',
      );
      // Both processes follow auth_events: within a bounded wait, neither accepts the old token.
      let statuses: number[] = [];
      for (let i = 0; i < 50; i++) {
        statuses = [(await getOn(server, fresh.token)).status, (await getOn(sibling, fresh.token)).status];
        if (statuses.every((s) => s === 401)) break;
        await sleep(100);
      }
      assert.deepEqual(statuses, [401, 401], 'the old token is refused by both processes');
      const renewed = await hrCaller(sibling);
      assert.equal(decodeProtectedHeader(renewed.token).kid, newKid);
      assert.equal((await getOn(server, renewed.token)).status, 200, 'a token of the new key works everywhere');
    });
  });
}
