/**
 * Connections per address (issue 49): past `ATRIUM_MAX_CONNECTIONS_PER_ADDRESS` open connections from one address, a
 * new one from it is closed at once while other addresses are still served; past `ATRIUM_MAX_CONNECTIONS` in all,
 * any new one is. Refusals are logged once a second as one count line, never one line per connection. Real sockets
 * on loopback: 127.0.0.1 is the flooding address, 127.0.0.2 and 127.0.0.3 others (`localAddress`).
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/platform/config.js';
import { RefusedConnections } from '../../src/platform/http/connection-caps.js';
import { sleep, startServer, type TestServer } from '../support/harness.js';

interface Refusal {
  refused: number;
  tooManyOpen: number;
  tooManyFromAddress: number;
  addresses: Record<string, number>;
  msg: string;
}

describe('connections per address', () => {
  let server: TestServer;
  const held: net.Socket[] = [];
  before(async () => {
    server = await startServer('sqlite', { ATRIUM_MAX_CONNECTIONS: '6', ATRIUM_MAX_CONNECTIONS_PER_ADDRESS: '3' });
  });
  after(async () => {
    for (const s of held) s.destroy();
    await server.close();
  });

  /** A connection from `from`, once the server's side has accepted it (the TCP handshake alone says nothing). */
  const open = (from: string): Promise<net.Socket> =>
    new Promise((resolve, reject) => {
      const { port: p } = new URL(server.url);
      const socket = net.connect({ port: Number(p), host: '127.0.0.1', localAddress: from }, () => resolve(socket));
      socket.on('error', reject);
    });

  /** Sends a GET /healthz on the socket: the answer's status line, or '' when the server closed it unanswered. */
  const ask = (socket: net.Socket): Promise<string> =>
    new Promise((resolve) => {
      let data = '';
      const done = () => resolve(data.split('\r\n')[0] ?? '');
      socket.setEncoding('utf8');
      socket.on('data', (d) => {
        data += d;
        if (data.includes('\r\n\r\n')) done();
      });
      socket.on('close', done);
      socket.on('error', done);
      socket.write('GET /healthz HTTP/1.1\r\nHost: atrium.test\r\n\r\n');
    });

  const refusalLines = (): Refusal[] =>
    server.logs
      .flatMap((chunk) => chunk.split('\n'))
      .filter((line) => line.includes('"connections refused"'))
      .map((line) => JSON.parse(line) as Refusal);

  it('one address past its cap is refused at once, another is served; past the global cap any is refused', async () => {
    assert.equal(server.config.maxConnectionsPerAddress, 3);
    // The flooding address holds its 3, and is refused 5 more.
    for (let i = 0; i < 3; i++) held.push(await open('127.0.0.1'));
    // Its held connections are served (each answers; keep-alive keeps them open).
    assert.equal(await ask(held[0] as net.Socket), 'HTTP/1.1 200 OK');
    for (let i = 0; i < 5; i++) {
      const extra = await open('127.0.0.1');
      assert.equal(await ask(extra), '', 'closed without an answer');
    }
    // A second address is served while the first is at its cap.
    const other = await open('127.0.0.2');
    held.push(other);
    assert.equal(await ask(other), 'HTTP/1.1 200 OK');
    // Two more from it make 6 open in all: the global cap. A third address is then refused by it.
    held.push(await open('127.0.0.2'), await open('127.0.0.2'));
    const third = await open('127.0.0.3');
    assert.equal(await ask(third), '', 'closed at the global cap');
    // One of the first address's freed: it may open one again (the server counts it down as it sees it close).
    (held.shift() as net.Socket).destroy();
    let status = '';
    for (let i = 0; i < 50 && status === ''; i++) {
      const again = await open('127.0.0.1');
      status = await ask(again);
      if (status === '') await sleep(50);
      else held.push(again);
    }
    assert.equal(status, 'HTTP/1.1 200 OK');

    // The refusals are counted into lines of a second each, never one line per connection.
    let lines: Refusal[] = [];
    for (let i = 0; i < 100 && lines.reduce((n, l) => n + l.refused, 0) < 6; i++) {
      await sleep(100);
      lines = refusalLines();
    }
    const total = lines.reduce((n, l) => n + l.refused, 0);
    const fromAddress = lines.reduce((n, l) => n + l.tooManyFromAddress, 0);
    const global = lines.reduce((n, l) => n + l.tooManyOpen, 0);
    assert.ok(total >= 6, `refusals logged: ${total}`);
    // 1 at the global cap and 5 past the address's, plus the retries of the last loop until the server saw the
    // freed connection close (refused by either cap, as the count stood).
    assert.ok(global >= 1, `global: ${global}`);
    assert.ok(fromAddress >= 5, `from the address: ${fromAddress}`);
    assert.equal(global + fromAddress, total);
    assert.ok(lines.length < total, `${lines.length} lines for ${total} refusals`);
    assert.ok((lines[0]?.addresses['127.0.0.1'] ?? 0) >= 1, JSON.stringify(lines[0]));
    assert.ok(!server.logs.join('').includes('too many open'), 'no line per connection');
  });

  it('counts refusals into one line per window: 25 refusals, one line; none, no line', () => {
    const warned: { fields: Record<string, unknown>; message: string }[] = [];
    let scheduled: (() => void) | undefined;
    let timers = 0;
    const refusals = new RefusedConnections(
      { warn: (fields, message) => warned.push({ fields: fields as Record<string, unknown>, message }) },
      { maxConnections: 6, maxConnectionsPerAddress: 3 },
      (flush) => {
        timers++;
        scheduled = flush;
        return setTimeout(() => {}, 0);
      },
    );
    for (let i = 0; i < 20; i++) refusals.refused('address', '10.0.0.1');
    for (let i = 0; i < 5; i++) refusals.refused('global', `10.0.0.${i + 2}`);
    assert.equal(timers, 1, 'one timer for the window');
    assert.equal(warned.length, 0, 'nothing logged before the window ends');
    scheduled?.();
    assert.equal(warned.length, 1);
    assert.equal(warned[0]?.message, 'connections refused');
    assert.equal(warned[0]?.fields.refused, 25);
    assert.equal(warned[0]?.fields.tooManyFromAddress, 20);
    assert.equal(warned[0]?.fields.tooManyOpen, 5);
    assert.deepEqual(Object.entries(warned[0]?.fields.addresses as object)[0], ['10.0.0.1', 20]);
    refusals.flush();
    assert.equal(warned.length, 1, 'an empty window writes nothing');
    refusals.refused('address', '10.0.0.1');
    assert.equal(timers, 2, 'the next refusal opens a new window');
  });

  it('defaults: 100 per address, a quarter of a lower global cap, off behind a trusted proxy, 0 turns it off', () => {
    assert.equal(loadConfig({}).maxConnectionsPerAddress, 100);
    assert.equal(loadConfig({ ATRIUM_MAX_CONNECTIONS: '40' }).maxConnectionsPerAddress, 10);
    assert.equal(loadConfig({ ATRIUM_TRUST_PROXY: '1' }).maxConnectionsPerAddress, 0);
    assert.equal(loadConfig({ ATRIUM_MAX_CONNECTIONS_PER_ADDRESS: '0' }).maxConnectionsPerAddress, 0);
    assert.throws(() => loadConfig({ ATRIUM_MAX_CONNECTIONS_PER_ADDRESS: 'x' }), /ATRIUM_MAX_CONNECTIONS_PER_ADDRESS/);
  });
});
