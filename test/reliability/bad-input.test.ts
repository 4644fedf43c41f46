/**
 * The bad input the fuzzer (fuzz.test.ts) found answered with a 5xx or outside the API's error format, kept
 * as fixed cases: a request Node's HTTP parser refuses, a JSON body nested too deeply, a truncated multipart body.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type AcademyCaller, academyCaller } from '../support/academy.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

/** Sends raw bytes and reads everything until the server closes the connection. */
function raw(server: TestServer, request: Buffer | string): Promise<{ status: number; head: string; body: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (err) => (chunks.length ? undefined : reject(err)));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body });
    });
    socket.end(request);
  });
}

for (const dialect of dialects()) {
  describe(`bad input found by fuzzing (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let academy: AcademyCaller;
    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      academy = await academyCaller(server);
    });
    after(() => server.close());

    it('headers too large: 431 in the error format of the API the path names; a HEAD answer has no body', async () => {
      const long = 'x'.repeat(20_000);
      const hrAnswer = await raw(server, `GET /api/v2/client/organizations?q=${long} HTTP/1.1\r\nHost: x\r\n\r\n`);
      assert.equal(hrAnswer.status, 431);
      assert.match(hrAnswer.head, /\r\nX-Request-Id: /i);
      assert.deepEqual(Object.keys(JSON.parse(hrAnswer.body)).sort(), ['code', 'message']);
      assert.equal(JSON.parse(hrAnswer.body).code, 'request_header_fields_too_large');
      const academyAnswer = await raw(server, `GET /v1/events/ilt?acadId=1&q=${long} HTTP/1.1\r\nHost: x\r\n\r\n`);
      assert.equal(academyAnswer.status, 431);
      const body = JSON.parse(academyAnswer.body) as { status: number; code: string };
      assert.equal(body.status, 431);
      assert.equal(body.code, 'request_header_fields_too_large');
      const head = await raw(server, `HEAD /api/v2/client/organizations?q=${long} HTTP/1.1\r\nHost: x\r\n\r\n`);
      assert.equal(head.status, 431);
      assert.equal(head.body, '', 'no body after a HEAD answer');
    });

    it('a malformed request line (raw bytes in the URL): 400 in the API’s error format', async () => {
      const request = Buffer.concat([
        Buffer.from('GET /api/v2/client/organizations/'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
      ]);
      const answer = await raw(server, request);
      assert.equal(answer.status, 400);
      assert.equal(JSON.parse(answer.body).code, 'invalid_request');
      const academyRequest = Buffer.concat([
        Buffer.from('GET /v1/events/ilt/'),
        Buffer.from([0xff]),
        Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
      ]);
      const academyAnswer = await raw(server, academyRequest);
      assert.equal(academyAnswer.status, 400);
      assert.deepEqual(JSON.parse(academyAnswer.body).status, 400);
    });

    it('a JSON body nested more than 64 levels deep is a 400, never a stack overflow', async () => {
      const deep = (n: number) => `{"userIds":${'['.repeat(n)}${']'.repeat(n)}}`;
      const hrRes = await hr.call(
        'PUT',
        '/organizations/deep',
        `{"name":"x","extra":${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
      );
      assert.equal(hrRes.status, 400);
      assert.equal(((await hrRes.json()) as { code: string }).code, 'invalid_request');
      const acRes = await fetch(
        `${server.url}/v1/events/ilt/1/users?acadId=${academy.acadId}&apikey=${academy.apikey}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: deep(20_000),
        },
      );
      assert.equal(acRes.status, 400);
      assert.equal(((await acRes.json()) as { status: number }).status, 400);
      // 64 levels are still read (and refused by the schema, as any wrong type).
      const ok = await hr.call('PUT', '/organizations/deep', `{"name":"x","extra":${'['.repeat(60)}${']'.repeat(60)}}`);
      assert.equal(ok.status, 201);
    });

    it('a truncated multipart upload is a 400 and stores nothing', async () => {
      const boundary = 'xyz';
      const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/octet-stream\r\n\r\nabc\r\n-`;
      for (const path of ['/uploads', '/document']) {
        const res = await fetch(`${server.url}/api/v2/client${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${hr.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
          body,
        });
        assert.equal(res.status, 400, path);
        assert.equal(((await res.json()) as { code: string }).code, 'invalid_request');
      }
      const uploads = await server.app.database.db.selectFrom('hr_uploads').select('id').execute();
      assert.equal(uploads.length, 0, 'no upload was recorded');
    });
  });
}
