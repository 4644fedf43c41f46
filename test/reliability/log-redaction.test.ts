/**
 * Issue 16, item 6: every header whose name looks like a credential is redacted in the logs, whatever its case and
 * not only the standard ones (`Proxy-Authorization`, `X-Forwarded-Authorization`, `X-Auth-Token`, …). The standard
 * ones and URL parameters are tested in test/platform/server.test.ts.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { redactHeaders } from '../../src/platform/logger.js';
import { dialects, hrCaller, startServer, type TestServer } from '../support/harness.js';

describe('redactHeaders', () => {
  it('redacts credential-looking names in any case and keeps the others', () => {
    const out = redactHeaders({
      'proxy-authorization': 'a',
      'X-Forwarded-Authorization': 'b',
      'x-auth-token': 'c',
      'x-client-secret': 'd',
      'x-api-key': 'e',
      'X-ApiKey': 'f',
      cookie: 'g',
      'set-cookie': 'h',
      'x-csrf-TOKEN': 'i',
      accept: 'application/json',
      'user-agent': 'test',
    });
    assert.deepEqual(out, {
      'proxy-authorization': '[redacted]',
      'X-Forwarded-Authorization': '[redacted]',
      'x-auth-token': '[redacted]',
      'x-client-secret': '[redacted]',
      'x-api-key': '[redacted]',
      'X-ApiKey': '[redacted]',
      cookie: '[redacted]',
      'set-cookie': '[redacted]',
      'x-csrf-TOKEN': '[redacted]',
      accept: 'application/json',
      'user-agent': 'test',
    });
  });
});

for (const dialect of dialects()) {
  describe(`log redaction of credential headers (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server.close());

    it('a token sent in Proxy-Authorization, X-Forwarded-Authorization and the like never reaches the log', async () => {
      const caller = await hrCaller(server);
      const secrets = Array.from({ length: 6 }, () => randomBytes(16).toString('hex'));
      const res = await caller.call('GET', '/organizations', undefined, {
        'Proxy-Authorization': `Bearer ${caller.token}`,
        'X-Forwarded-Authorization': `Bearer ${secrets[0]}`,
        'X-Auth-Token': secrets[1] as string,
        'X-Client-Secret': secrets[2] as string,
        'X-Upstream-Api-Key': secrets[3] as string,
        'X-APIKEY': secrets[4] as string,
        Cookie: `session=${secrets[5]}`,
      });
      assert.equal(res.status, 200);
      const text = server.logs.join('');
      assert.ok(text.includes('"proxy-authorization":"[redacted]"'), 'the header is logged, redacted');
      assert.ok(text.includes('"x-forwarded-authorization":"[redacted]"'), 'the header is logged, redacted');
      for (const secret of [caller.token, ...secrets])
        assert.ok(!text.includes(secret), 'a credential reached the log');
    });
  });
}
