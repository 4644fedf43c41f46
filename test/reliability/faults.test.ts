/**
 * Faults around the server: PostgreSQL going away and coming back (through a TCP proxy the test cuts), and a
 * full disk (a blob store reporting ENOSPC). Crashes are in crash.test.ts; graceful shutdown (in-flight requests
 * finish, new ones are refused) in test/cli/cli.test.ts ("SIGTERM drains").
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { PutOptions, PutResult } from '../../src/platform/blobs/store.js';
import { academyCaller } from '../support/academy.js';
import { changed, snapshot } from '../support/dbstate.js';
import {
  dialects,
  freshDatabase,
  type HrCaller,
  hrCaller,
  sleep,
  startServer,
  type TestDatabase,
  type TestServer,
} from '../support/harness.js';

/**
 * A TCP proxy to a port (or to a Unix socket: a `DATABASE_URL` with `?host=/run/postgresql`), which the test can
 * cut (connections refused, open ones reset) and restore.
 */
class TcpProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number } | { path: string }) {}

  async start(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = 'path' in this.target ? net.connect(this.target.path) : net.connect(this.target);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

if (dialects().includes('postgres')) {
  describe('PostgreSQL going away and coming back (postgres)', () => {
    let server: TestServer;
    let proxy: TcpProxy;
    let hr: HrCaller;
    let database: TestDatabase;
    before(async () => {
      database = await freshDatabase('postgres');
      const url = new URL(database.env.DATABASE_URL as string);
      // libpq's convention, which pg follows: a `host` parameter that is a directory names the Unix socket's.
      const socketDir = url.searchParams.get('host');
      const port = Number(url.port || 5432);
      proxy = new TcpProxy(
        socketDir?.startsWith('/') ? { path: `${socketDir}/.s.PGSQL.${port}` } : { host: url.hostname, port },
      );
      url.searchParams.delete('host');
      await proxy.start();
      url.hostname = '127.0.0.1';
      url.port = String(proxy.port);
      server = await startServer('postgres', { ...database.env, DATABASE_URL: url.toString() });
      hr = await hrCaller(server);
      assert.equal((await hr.call('PUT', '/organizations/hq', { name: 'HQ' })).status, 201);
    });
    after(async () => {
      await server.close();
      await proxy.cut();
      await database.drop();
    });

    it('answers 503 with a JSON body while the database is unreachable, and recovers by itself', async () => {
      const academy = await academyCaller(server);
      await proxy.cut();
      for (let i = 0; i < 3; i++) {
        const read = await hr.call('GET', '/organizations/hq');
        assert.equal(read.status, 503, `read ${i}`);
        assert.equal(read.headers.get('retry-after'), '1');
        assert.deepEqual(((await read.json()) as { code: string }).code, 'service_unavailable');
        const write = await hr.call('PUT', '/organizations/paris', { name: 'Paris' });
        assert.equal(write.status, 503, `write ${i}`);
        await write.body?.cancel();
        const v1 = await academy.call('GET', '/events/ilt');
        assert.equal(v1.status, 503);
        assert.deepEqual(((await v1.json()) as { status: number; code: string }).status, 503);
      }
      assert.equal((await fetch(`${server.url}/readyz`)).status, 503);
      // Back: the same process serves again within a few seconds, without a restart.
      await proxy.start();
      let status = 0;
      for (let waited = 0; waited < 15_000 && status !== 200; waited += 200) {
        const res = await hr.call('GET', '/organizations/hq');
        status = res.status;
        await res.body?.cancel();
        if (status !== 200) await sleep(200);
      }
      assert.equal(status, 200, 'reads work again');
      assert.equal((await hr.call('PUT', '/organizations/paris', { name: 'Paris' })).status, 201, 'writes too');
      assert.equal((await academy.call('GET', '/events/ilt')).status, 200);
      assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
    });
  });
}

for (const dialect of dialects()) {
  describe(`a full disk (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
    });
    after(() => server.close());

    const upload = (bytes: Buffer) =>
      fetch(`${server.url}/api/v2/client/uploads`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${hr.token}`,
          'content-type': 'application/octet-stream',
          'content-disposition': 'attachment; filename="f.bin"',
        },
        body: new Uint8Array(bytes),
      });

    it('an upload the blob store cannot write (ENOSPC) is a 507 and leaves nothing; once there is space, uploads work', async () => {
      const blobs = server.app.services.blobs;
      const kept = Buffer.from('kept file');
      const first = await upload(kept);
      assert.equal(first.status, 201);
      const put = blobs.put.bind(blobs);
      // The disk fills up half-way through the bytes: the store's own write fails as a real one would.
      blobs.put = async <T>(source: Readable, options?: PutOptions<T>): Promise<PutResult<T>> => {
        let seen = 0;
        const failing = Readable.from(
          (async function* () {
            for await (const chunk of source) {
              seen += (chunk as Buffer).length;
              if (seen > 1024)
                throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
              yield chunk;
            }
          })(),
        );
        return put(failing, options);
      };
      try {
        const before = await snapshot(server.app.database, dialect === 'sqlite' ? server.config.dataDir : undefined);
        const res = await upload(Buffer.alloc(64 * 1024, 7));
        assert.equal(res.status, 507);
        const body = (await res.json()) as { code: string; message: string };
        assert.equal(body.code, 'insufficient_storage');
        const after = await snapshot(server.app.database, dialect === 'sqlite' ? server.config.dataDir : undefined);
        assert.deepEqual(changed(before, after), [], 'nothing written');
      } finally {
        blobs.put = put;
      }
      const again = await upload(Buffer.alloc(64 * 1024, 7));
      assert.equal(again.status, 201, 'space again: the same upload works');
    });
  });
}
