/** The form-body parser is prototype-safe (issue 16, item 8). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { formParser } from '../../src/platform/http/body-parsers.js';
import {
  basic,
  type Credentials,
  createCredentials,
  dialects,
  startServer,
  type TestServer,
} from '../support/harness.js';

describe('form bodies', () => {
  it('parse into a record without a prototype: Object.prototype names are plain keys', () => {
    const parsed = formParser('toString=1&__proto__=2&constructor=3&hasOwnProperty=4');
    assert.equal(Object.getPrototypeOf(parsed), null);
    assert.deepEqual(Object.entries(parsed).sort(), [
      ['__proto__', '2'],
      ['constructor', '3'],
      ['hasOwnProperty', '4'],
      ['toString', '1'],
    ]);
    assert.deepEqual(formParser('a=1&a=2').a, ['1', '2']);
  });

  const dialect = dialects()[0] ?? 'sqlite';
  let server: TestServer;
  let creds: Credentials;
  before(async () => {
    server = await startServer(dialect);
    creds = await createCredentials(server);
  });
  after(() => server.close());

  const token = (extra: string) =>
    fetch(`${server.url}/api/v2/client/tokens`, {
      method: 'POST',
      headers: { authorization: basic(creds), 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&scope=client&client_id=${creds.client_id}${extra}`,
    });

  for (const extra of ['&toString=1', '&__proto__=1', '&constructor=x', '&__proto__[grant_type]=password']) {
    it(`POST /tokens with "${extra.slice(1)}" is an ordinary extra parameter (a token, no false "repeated")`, async () => {
      const res = await token(extra);
      const text = await res.text();
      assert.equal(res.status, 200, text);
      assert.equal((JSON.parse(text) as { token_type: string }).token_type, 'bearer');
    });
  }

  it('a parameter that is really repeated is still refused', async () => {
    const res = await token('&scope=client');
    assert.equal(res.status, 400);
    assert.match(((await res.json()) as { message: string }).message, /"scope" is repeated/);
  });
});
