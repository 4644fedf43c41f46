/**
 * Issue 51, finding 2: wrong access codes typed on the signing page count against the client address, with the
 * APIs' failed authentications (ATRIUM_AUTH_FAILURE_LIMIT, docs/security.md "Failed authentications"): past the
 * limit the page answers 429 with Retry-After, and the address's further failures elsewhere are refused too. Another
 * address is not affected. (The per-signer lock after five wrong codes is tested in signatures.test.ts.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { startedSigner } from '../support/signing.js';

const LIMIT = 60;

for (const dialect of dialects()) {
  describe(`signing page failures count against the address (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    before(async () => {
      server = await startServer(dialect, { ATRIUM_TRUST_PROXY: '1', ATRIUM_RATE_LIMIT: '0' });
      // The server's clock stands still, so the failure window does not end while the test runs, however slowly;
      // the token is issued at that time.
      server.app.services.clock.set(Date.UTC(2039, 0, 1, 12));
      hr = await hrCaller(server);
    });
    after(async () => {
      server.app.services.clock.reset();
      await server.close();
    });

    /** A signing link of a started process whose signer has the access code `4242`. */
    const signingUrl = async () => (await startedSigner(server, hr, { signer: { access_code: '4242' } })).signingUrl;

    const typeCode = (url: string, code: string, address: string) =>
      fetch(`${url}/sign`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
        body: new URLSearchParams({ name: 'Ada Lovelace', access_code: code }).toString(),
        redirect: 'manual',
      });
    const badBearer = (address: string) =>
      fetch(`${server.url}/api/v2/client/organizations`, {
        headers: { authorization: 'Bearer a.b.c', 'x-forwarded-for': address },
      });

    it('wrong codes fill the address’s failure budget: the API then answers 429 to it, and so does the page', async () => {
      const attacker = '192.0.2.50';
      const url = await signingUrl();
      for (let i = 0; i < 4; i++) {
        const res = await typeCode(url, `000${i}`, attacker);
        assert.equal(res.status, 422, `wrong code ${i + 1}`);
        assert.match(await res.text(), /access code is missing or wrong/);
      }
      // 4 page failures + 56 token failures reach the limit of 60 from this address.
      for (let i = 0; i < LIMIT - 4; i++) {
        const res = await badBearer(attacker);
        assert.equal(res.status, 401, `bearer failure ${i + 1}`);
        await res.body?.cancel();
      }
      const past = await badBearer(attacker);
      assert.equal(past.status, 429, 'the page’s failures counted: the address is past its limit');
      await past.body?.cancel();

      // Past the limit, the page answers a wrong code with 429 and Retry-After (another signer: not locked).
      const other = await signingUrl();
      const refused = await typeCode(other, '0000', attacker);
      assert.equal(refused.status, 429);
      assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/);
      assert.match(refused.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(await refused.text(), /Too many wrong access codes from your address/);

      // Another address is not limited: its wrong code is a plain 422, its right code signs.
      const neighbour = '192.0.2.51';
      assert.equal((await typeCode(other, '0001', neighbour)).status, 422);
      assert.equal((await typeCode(other, '4242', neighbour)).status, 303);
    });
  });
}
