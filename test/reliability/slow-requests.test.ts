/**
 * Slow requests and connection floods (issue 16, item 4): a body or headers trickled in are cut off by the
 * documented timeouts (with Node's default 30 s check, they were cut off up to 30 s late), and the open
 * connections of a process are capped.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sleep, startServer, type TestServer } from '../support/harness.js';

interface Trickle {
  /** What the server answered, if anything, before it closed the connection. */
  answer: string;
  /** Bytes of the trickle written before the server answered or closed. */
  sent: number;
  /** Whether the whole trickle was sent without the server cutting it off. */
  finished: boolean;
}

/** Writes `head` at once, then `byte` every `everyMs`, `count` times; stops when the server answers or closes. */
function trickle(url: string, head: string, byte: string, count: number, everyMs: number): Promise<Trickle> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let answer = '';
    let sent = 0;
    let done = false;
    const finish = (finished: boolean) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ answer, sent, finished });
    };
    socket.setEncoding('utf8');
    socket.on('data', (d) => {
      answer += d;
    });
    socket.on('close', () => finish(false));
    socket.on('error', () => finish(false));
    socket.on('connect', async () => {
      socket.write(head);
      for (let i = 0; i < count && !done; i++) {
        await sleep(everyMs);
        if (answer || socket.destroyed) break;
        socket.write(byte);
        sent++;
      }
      // Give a last answer a moment to arrive, then report the trickle as finished.
      await sleep(200);
      finish(!answer);
    });
  });
}

describe('slow requests and connection floods', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('sqlite', {
      ATRIUM_REQUEST_TIMEOUT: '2000',
      ATRIUM_HEADERS_TIMEOUT: '1000',
      ATRIUM_MAX_CONNECTIONS: '4',
    });
  });
  after(() => server.close());

  it('the server is configured with the documented timeouts and cap', () => {
    const http = server.app.server.server;
    assert.equal(http.requestTimeout, 2000);
    assert.equal(http.headersTimeout, 1000);
    assert.equal(http.maxConnections, 4);
  });

  it('a body sent a byte at a time is cut off with a 408 before it is all sent', async () => {
    // 150 bytes at one every 100 ms: 15 s, far past the 2 s request timeout.
    const head =
      'POST /api/v2/client/organizations HTTP/1.1\r\nHost: atrium.test\r\nContent-Type: application/json\r\nContent-Length: 150\r\n\r\n';
    const result = await trickle(server.url, head, ' ', 150, 100);
    assert.equal(result.finished, false, `the whole body went through (${result.sent} bytes)`);
    assert.match(result.answer, /^HTTP\/1\.1 408 /);
    assert.match(result.answer, /"code":"request_timeout"/);
    assert.match(result.answer, /X-Request-Id: /i);
    assert.ok(result.sent < 150);
  });

  it('headers sent a byte at a time are cut off with a 408 before they end', async () => {
    const result = await trickle(
      server.url,
      'GET /api/v2/client/organizations HTTP/1.1\r\nHost: atrium.test\r\nX-Slow: ',
      'a',
      150,
      100,
    );
    assert.equal(result.finished, false, `the headers kept coming (${result.sent} bytes)`);
    assert.match(result.answer, /^HTTP\/1\.1 408 /);
    assert.ok(result.sent < 150);
  });

  it('past ATRIUM_MAX_CONNECTIONS, a new connection is closed at once; one freed is usable again', async () => {
    const { hostname, port } = new URL(server.url);
    const open = (): Promise<net.Socket> =>
      new Promise((resolve, reject) => {
        const socket = net.connect(Number(port), hostname, () => resolve(socket));
        socket.on('error', reject);
      });
    const held = [await open(), await open(), await open(), await open()];
    try {
      const extra = await open();
      const closed = await new Promise<string>((resolve) => {
        let data = '';
        extra.on('data', (d) => {
          data += d;
        });
        extra.on('close', () => resolve(data));
        extra.on('error', () => resolve(data));
        extra.write('GET /healthz HTTP/1.1\r\nHost: atrium.test\r\n\r\n');
      });
      assert.equal(closed, '', 'closed without an answer');
    } finally {
      for (const s of held) s.destroy();
    }
    // The server counts the freed connections down as it sees them close.
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++) {
      status = await fetch(`${server.url}/healthz`)
        .then((r) => r.status)
        .catch(() => 0);
      if (status !== 200) await sleep(100);
    }
    assert.equal(status, 200);
  });
});
