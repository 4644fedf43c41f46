/** Caching and sniffing headers, and a request without a Host header (issue 16, item 11). */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type AcademyCaller, academyCaller } from '../support/academy.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

/** Sends raw bytes and reads the whole answer (the server closes the connection). */
function raw(url: string, request: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(request));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => {
      data += d;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

const dialect = dialects()[0] ?? 'sqlite';

describe('response headers', () => {
  let server: TestServer;
  let hr: HrCaller;
  let academy: AcademyCaller;
  before(async () => {
    server = await startServer(dialect);
    hr = await hrCaller(server);
    academy = await academyCaller(server);
    assert.equal((await hr.call('PUT', '/organizations/hq', { name: 'HQ' })).status, 201);
  });
  after(() => server.close());

  it('JSON answers of both APIs, errors included, are no-store and nosniff', async () => {
    const answers = [
      await hr.call('GET', '/organizations'),
      await hr.call('GET', '/organizations/hq'),
      await hr.call('GET', '/organizations/nowhere'),
      await academy.call('GET', '/events/ilt'),
      await academy.call('GET', '/events/ilt/999999'),
    ];
    for (const res of answers) {
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(res.headers.get('cache-control'), 'no-store', res.url);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', res.url);
      await res.arrayBuffer();
    }
    assert.deepEqual(
      answers.map((r) => r.status),
      [200, 200, 404, 200, 404],
    );
  });

  it('a route that chose its caching keeps it (the token answer), and still gets nosniff', async () => {
    const res = await fetch(`${server.url}/api/v2/client/tokens`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${hr.creds.application_id}:${hr.creds.application_secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: `grant_type=client_credentials&scope=client&client_id=${hr.creds.client_id}`,
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('pragma'), 'no-cache');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  });

  it('an HTTP/1.1 request without Host gets the API’s error body and a request id', async () => {
    const hrAnswer = await raw(server.url, 'GET /api/v2/client/organizations HTTP/1.1\r\nConnection: close\r\n\r\n');
    assert.equal(hrAnswer.status, 400);
    assert.ok(hrAnswer.headers['x-request-id'], 'a request id');
    const hrBody = JSON.parse(hrAnswer.body) as { code: string; message: string };
    assert.equal(hrBody.code, 'invalid_request');
    assert.match(hrBody.message, /Host/);

    const acadAnswer = await raw(server.url, 'GET /v1/events/ilt HTTP/1.1\r\nConnection: close\r\n\r\n');
    assert.equal(acadAnswer.status, 400);
    assert.ok(acadAnswer.headers['x-request-id']);
    const acadBody = JSON.parse(acadAnswer.body) as { status: number; code: string };
    assert.deepEqual([acadBody.status, acadBody.code], [400, 'bad_request']);
  });

  it('HTTP/1.0 without Host is still served (Host is an HTTP/1.1 requirement)', async () => {
    const answer = await raw(server.url, 'GET /healthz HTTP/1.0\r\n\r\n');
    assert.equal(answer.status, 200);
  });
});
