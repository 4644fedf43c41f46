/** The console's "Copy as curl": every secret the log redacted becomes a placeholder, and the shell sees one word each. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { shellQuote, toCurl } from '../../console/src/curl.js';

const origin = 'http://atrium.test:8080';

describe('console: a logged call as curl', () => {
  it('leaves every redacted secret as a placeholder: Bearer, Basic, a key header, query and body secrets', () => {
    const bearer = toCurl(
      {
        method: 'GET',
        path: '/api/v2/client/employees?per_page=5',
        request: { headers: { host: 'x', authorization: 'Bearer [REDACTED]', accept: '*/*' }, body: null },
      },
      origin,
    );
    assert.equal(
      bearer,
      "curl -X GET 'http://atrium.test:8080/api/v2/client/employees?per_page=5' -H 'authorization: Bearer <access_token>' -H 'accept: */*'",
    );
    const token = toCurl(
      {
        method: 'POST',
        path: '/api/v2/client/tokens',
        request: {
          headers: {
            authorization: 'Basic [REDACTED]',
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': '90',
          },
          body: 'grant_type=client_credentials&client_secret=[REDACTED]&client_id=c1',
        },
      },
      origin,
    );
    assert.ok(token.includes("-H 'authorization: Basic <base64 of application_id:application_secret>'"), token);
    assert.ok(token.includes("--data-raw 'grant_type=client_credentials&client_secret=<client_secret>&client_id=c1'"));
    assert.ok(!token.includes('content-length'), 'curl sets its own length');
    const academy = toCurl(
      {
        method: 'PUT',
        path: '/v1/events/ilt/7?acadId=3&apikey=[REDACTED]&apikey%5B%5D=[REDACTED]',
        request: {
          headers: { 'x-api-key': '[REDACTED]', 'content-type': 'application/json' },
          body: '{"name":"it\'s","signing_key": "[REDACTED]"}',
        },
      },
      origin,
    );
    assert.ok(academy.includes('?acadId=3&apikey=<apikey>&apikey%5B%5D=<apikey>'), academy);
    assert.ok(academy.includes("-H 'x-api-key: <x-api-key>'"));
    assert.ok(academy.includes(`--data-raw '{"name":"it'\\''s","signing_key": "<signing_key>"}'`), academy);
    for (const line of [bearer, token, academy]) assert.ok(!line.includes('[REDACTED]'), line);
  });

  it('does not replay a body the log did not keep', () => {
    const upload = toCurl(
      {
        method: 'POST',
        path: '/api/v2/client/uploads',
        request: {
          headers: { 'content-type': 'multipart/form-data' },
          body: '[2048 bytes of multipart/form-data, not kept]',
        },
      },
      origin,
    );
    assert.ok(!upload.includes('--data-raw'), upload);
  });

  it('quotes each word so that the shell reads it back unchanged', () => {
    for (const text of ['plain', "it's", "a 'b' c", '$HOME `id` "x"', "'", '']) {
      const echoed = execFileSync('sh', ['-c', `printf %s ${shellQuote(text)}`], { encoding: 'utf8' });
      assert.equal(echoed, text);
    }
  });
});
