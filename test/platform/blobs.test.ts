import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { BlobCache } from '../../src/platform/blobs/cache.js';
import type { FileBlobStore } from '../../src/platform/blobs/filesystem.js';
import { blobCacheDirectory, blobDirectory, openBlobStore } from '../../src/platform/blobs/open.js';
import { CHUNK_BYTES, PostgresBlobStore } from '../../src/platform/blobs/postgres.js';
import { BLOB_REFERENCES } from '../../src/platform/blobs/references.js';
import { BlobIntegrityError, type BlobStore, BlobTooLargeError } from '../../src/platform/blobs/store.js';
import { loadConfig } from '../../src/platform/config.js';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { sanitizeFilename } from '../../src/platform/filenames.js';
import { formatContentDisposition, parseContentDisposition } from '../../src/platform/http/content-disposition.js';
import { parseRange, sendBlob } from '../../src/platform/http/send-blob.js';
import { dialects, freshDatabase, sleep, startServer, type TestDatabase } from '../support/harness.js';
import { until } from '../support/sync.js';

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A stream of `data` in chunks of `size` bytes, as a socket would deliver it. */
function chunked(data: Buffer, size = 64 * 1024): Readable {
  let offset = 0;
  return new Readable({
    read() {
      if (offset >= data.length) {
        this.push(null);
        return;
      }
      this.push(data.subarray(offset, offset + size));
      offset += size;
    },
  });
}

/** A stream that sends `bytes` then fails, like a connection cut mid-upload. */
function cutOff(bytes: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= bytes) {
        this.destroy(new Error('connection reset'));
        return;
      }
      this.push(randomBytes(64 * 1024));
      sent += 64 * 1024;
    },
  });
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A logger that writes its lines into `lines`. */
function loggerInto(lines: string[]) {
  return pino(
    { level: 'info' },
    new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    }),
  );
}

/** Inverts one byte of a stored chunk (PostgreSQL): a second call restores it. */
async function flipChunkByte(db: Database['db'], digest: string, seq: number, at: number): Promise<void> {
  const chunk = await db
    .selectFrom('blob_chunks')
    .select('data')
    .where('sha256', '=', digest)
    .where('seq', '=', seq)
    .executeTakeFirstOrThrow();
  const flipped = Buffer.from(chunk.data);
  flipped[at] = (flipped[at] ?? 0) ^ 0xff;
  await db
    .updateTable('blob_chunks')
    .set({ data: flipped })
    .where('sha256', '=', digest)
    .where('seq', '=', seq)
    .execute();
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe('content disposition, file names and ranges', () => {
  it('parses the file name of a raw upload', () => {
    assert.deepEqual(parseContentDisposition('attachment; filename="x.pdf"'), {
      type: 'attachment',
      filename: 'x.pdf',
    });
    assert.deepEqual(parseContentDisposition('attachment;filename=report.pdf'), {
      type: 'attachment',
      filename: 'report.pdf',
    });
    assert.equal(parseContentDisposition('attachment; filename="a \\"b\\".txt"')?.filename, 'a "b".txt');
    assert.equal(
      parseContentDisposition(`attachment; filename="fallback.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`)?.filename,
      'résumé.pdf',
    );
    // UTF-8 bytes in a plain filename, as curl sends them (Node reads headers as Latin-1).
    assert.equal(
      parseContentDisposition(Buffer.from('attachment; filename="été.pdf"').toString('latin1'))?.filename,
      'été.pdf',
    );
    assert.deepEqual(parseContentDisposition('attachment'), { type: 'attachment' });
    assert.equal(parseContentDisposition('attachment; filename="unterminated'), undefined);
    assert.equal(parseContentDisposition(undefined), undefined);
  });

  it('formats a download header, with filename* for names that are not plain ASCII', () => {
    assert.equal(formatContentDisposition('report.pdf'), 'attachment; filename="report.pdf"');
    assert.equal(
      formatContentDisposition('résumé (1).pdf'),
      `attachment; filename="r_sum_ (1).pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%281%29.pdf`,
    );
    assert.equal(formatContentDisposition('a"b.txt'), `attachment; filename="a_b.txt"; filename*=UTF-8''a%22b.txt`);
  });

  it('keeps client file names as data: no path, no control characters', () => {
    assert.equal(sanitizeFilename('../../etc/passwd'), 'passwd');
    assert.equal(sanitizeFilename('C:\\Users\\me\\cv.pdf'), 'cv.pdf');
    assert.equal(sanitizeFilename('bad\u0000na\nme\u202e.pdf'), 'badname.pdf');
    assert.equal(sanitizeFilename('..'), 'file');
    assert.equal(sanitizeFilename('dir/'), 'file');
    assert.equal(sanitizeFilename(undefined), 'file');
    const long = sanitizeFilename(`${'x'.repeat(400)}.pdf`);
    assert.equal(long.length, 255);
    assert.ok(long.endsWith('.pdf'));
  });

  it('reads a single byte range', () => {
    assert.deepEqual(parseRange('bytes=0-99', 1000), { start: 0, end: 99 });
    assert.deepEqual(parseRange('bytes=900-', 1000), { start: 900, end: 999 });
    assert.deepEqual(parseRange('bytes=-100', 1000), { start: 900, end: 999 });
    assert.deepEqual(parseRange('bytes=990-2000', 1000), { start: 990, end: 999 });
    assert.equal(parseRange('bytes=1000-1001', 1000), 'unsatisfiable');
    assert.equal(parseRange('bytes=-0', 1000), 'unsatisfiable');
    assert.equal(parseRange('bytes=0-1,5-6', 1000), undefined, 'several ranges: the whole content');
    assert.equal(parseRange('items=0-1', 1000), undefined);
    assert.equal(parseRange('bytes=5-1', 1000), undefined);
  });
});

for (const dialect of dialects()) {
  describe(`blob store (${dialect})`, () => {
    let testDb: TestDatabase;
    let database: Database;
    let store: BlobStore;
    let dataDir: string;
    const logs: string[] = [];
    let clientId: string;

    const blobRow = (digest: string) =>
      database.db.selectFrom('blobs').selectAll().where('sha256', '=', digest).executeTakeFirst();
    const stagingCount = async () =>
      Number(
        (
          await database.db
            .selectFrom('blob_staging')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const tempFiles = () => filesUnder(path.join(blobDirectory(dataDir), 'tmp'));
    /** Inserts an upload row that refers to the blob (what the uploads service does in `attach`). */
    const refer = async (db: Database['db'], digest: string, size: number, consumed = false) => {
      const id = crypto.randomUUID();
      await db
        .insertInto('hr_uploads')
        .values({
          id,
          client_id: clientId,
          filename: 'f.bin',
          sha256: digest,
          size,
          content_type: 'application/octet-stream',
          created_at: Date.now(),
          expires_at: Date.now() + 60_000,
          consumed_at: consumed ? Date.now() : null,
        })
        .execute();
      return id;
    };

    before(async () => {
      testDb = await freshDatabase(dialect);
      const config = loadConfig(testDb.env);
      dataDir = config.dataDir;
      database = openDatabase(config);
      await migrateToLatest(database);
      const log = loggerInto(logs);
      store = openBlobStore(database, { dataDir, log });
      clientId = `c-${randomBytes(4).toString('hex')}`;
      await database.db.insertInto('hr_clients').values({ id: clientId, name: 'blob test', created_at: 0 }).execute();
    });
    after(async () => {
      await database.close();
      await testDb.drop();
    });

    it('uses the directory with SQLite and chunks in the database with PostgreSQL', () => {
      assert.equal(store.kind, dialect === 'sqlite' ? 'filesystem' : 'postgres');
      assert.deepEqual(BLOB_REFERENCES[0], { table: 'hr_uploads', column: 'sha256', onlyWhileNull: 'consumed_at' });
    });

    it('stores 10 MiB as a stream, content-addressed, and reads the same bytes back', async () => {
      const data = randomBytes(10 * 1024 * 1024);
      const { blob, deduplicated } = await store.put(chunked(data));
      assert.equal(blob.sha256, sha(data));
      assert.equal(blob.size, data.length);
      assert.equal(blob.contentType, 'application/octet-stream');
      assert.equal(deduplicated, false);
      const row = await blobRow(blob.sha256);
      assert.equal(Number(row?.size), data.length);
      const back = await collect(await store.read(blob.sha256));
      assert.equal(sha(back), blob.sha256);
      if (dialect === 'sqlite') {
        const file = (store as FileBlobStore).pathOf(blob.sha256);
        assert.equal(file, path.join(dataDir, 'blobs', blob.sha256.slice(0, 2), blob.sha256.slice(2, 4), blob.sha256));
        assert.equal(fs.statSync(file).size, data.length);
      } else {
        const chunks = await database.db
          .selectFrom('blob_chunks')
          .select(['seq', 'data'])
          .where('sha256', '=', blob.sha256)
          .orderBy('seq')
          .execute();
        assert.equal(chunks.length, 40);
        assert.ok(chunks.every((c) => c.data.length === CHUNK_BYTES));
      }
      assert.deepEqual(tempFiles(), []);
      assert.equal(await stagingCount(), 0);
      // The same bytes again: stored once.
      const again = await store.put(chunked(data, 1000));
      assert.equal(again.deduplicated, true);
      assert.equal(again.blob.sha256, blob.sha256);
      assert.equal(await store.deleteIfUnreferenced(blob.sha256), true);
    });

    it('serves byte ranges, across chunk boundaries, without verifying them', async () => {
      const data = randomBytes(CHUNK_BYTES * 2 + 1234);
      const { blob } = await store.put(chunked(data));
      for (const [start, end] of [
        [0, 99],
        [CHUNK_BYTES - 10, CHUNK_BYTES + 10],
        [CHUNK_BYTES * 2, data.length - 1],
        [5, data.length - 1],
        [data.length - 1, data.length - 1],
      ] as const) {
        const part = await collect(await store.read(blob.sha256, { start, end }));
        assert.ok(part.equals(data.subarray(start, end + 1)), `bytes ${start}-${end}`);
      }
      await assert.rejects(store.read(blob.sha256, { start: 0, end: data.length }), RangeError);
      await store.deleteIfUnreferenced(blob.sha256);
    });

    it('refuses content over the limit and leaves nothing behind', async () => {
      const data = randomBytes(300 * 1024);
      await assert.rejects(store.put(chunked(data), { limit: 200 * 1024 }), BlobTooLargeError);
      assert.equal(await blobRow(sha(data)), undefined);
      assert.deepEqual(tempFiles(), []);
      assert.equal(await stagingCount(), 0);
      // Exactly at the limit is fine.
      const { blob } = await store.put(chunked(data), { limit: data.length });
      assert.equal(blob.size, data.length);
      await store.deleteIfUnreferenced(blob.sha256);
    });

    it('a source cut off mid-way leaves no staged bytes and no blob', async () => {
      const before = await database.db.selectFrom('blobs').select('sha256').execute();
      await assert.rejects(store.put(cutOff(1024 * 1024)), /connection reset/);
      assert.deepEqual(await database.db.selectFrom('blobs').select('sha256').execute(), before);
      assert.deepEqual(tempFiles(), []);
      assert.equal(await stagingCount(), 0);
    });

    it('a failing attach undoes the blob', async () => {
      const data = randomBytes(1000);
      await assert.rejects(
        store.put(chunked(data), {
          attach: async () => {
            throw new Error('no thanks');
          },
        }),
        /no thanks/,
      );
      assert.equal(await blobRow(sha(data)), undefined);
      assert.deepEqual(tempFiles(), []);
      assert.equal(await stagingCount(), 0);
      if (dialect === 'sqlite') assert.equal(fs.existsSync((store as FileBlobStore).pathOf(sha(data))), false);
    });

    it('detects corruption on a full read (stream error, logged); a range read still answers', async () => {
      const data = randomBytes(CHUNK_BYTES + 5000);
      const { blob } = await store.put(chunked(data));
      if (dialect === 'sqlite') {
        const file = (store as FileBlobStore).pathOf(blob.sha256);
        const handle = fs.openSync(file, 'r+');
        const byte = Buffer.alloc(1);
        fs.readSync(handle, byte, 0, 1, 100);
        byte[0] = (byte[0] ?? 0) ^ 0xff;
        fs.writeSync(handle, byte, 0, 1, 100);
        fs.closeSync(handle);
      } else {
        await flipChunkByte(database.db, blob.sha256, 0, 100);
      }
      const received: Buffer[] = [];
      await assert.rejects(
        (async () => {
          for await (const chunk of await store.read(blob.sha256)) received.push(chunk as Buffer);
        })(),
        BlobIntegrityError,
      );
      assert.ok(Buffer.concat(received).length < data.length, 'the reader never gets the whole corrupted content');
      assert.ok(logs.some((l) => l.includes('blob checksum mismatch') && l.includes(blob.sha256)));
      const range = await collect(await store.read(blob.sha256, { start: 200, end: 299 }));
      assert.ok(range.equals(data.subarray(200, 300)));
      await store.deleteIfUnreferenced(blob.sha256);
    });

    it('deletes bytes only once nothing refers to them', async () => {
      const data = randomBytes(CHUNK_BYTES + 10);
      const digest = sha(data);
      const uploadId = await store
        .put(chunked(data), { attach: (trx, blob) => refer(trx, blob.sha256, blob.size) })
        .then((r) => r.attached);
      assert.equal(await store.deleteIfUnreferenced(digest), false, 'an upload holds it');
      assert.ok(await blobRow(digest));
      // A consumed upload no longer holds its blob.
      await database.db.updateTable('hr_uploads').set({ consumed_at: Date.now() }).where('id', '=', uploadId).execute();
      assert.equal(await store.deleteIfUnreferenced(digest), true);
      assert.equal(await blobRow(digest), undefined);
      assert.equal(await store.stat(digest), undefined);
      if (dialect === 'sqlite') assert.equal(fs.existsSync((store as FileBlobStore).pathOf(digest)), false);
      else {
        const left = await database.db.selectFrom('blob_chunks').select('seq').where('sha256', '=', digest).execute();
        assert.deepEqual(left, []);
      }
      await assert.rejects(store.read(digest), /not stored/);
      assert.equal(await store.deleteIfUnreferenced(digest), false, 'already gone');
      assert.equal(await store.deleteIfUnreferenced('not-a-checksum'), false);
    });

    it('a put racing a delete of the same bytes never leaves a reference without bytes', async () => {
      const data = randomBytes(CHUNK_BYTES + 99);
      const digest = sha(data);
      for (let round = 0; round < 15; round++) {
        const puts = [0, 1].map(() =>
          store.put(chunked(data, 32 * 1024), { attach: (trx, blob) => refer(trx, blob.sha256, blob.size) }),
        );
        const deletes = [0, 1, 2].map(async (i) => {
          await sleep(i * 2);
          return store.deleteIfUnreferenced(digest);
        });
        await Promise.all([...puts, ...deletes]);
        // Every upload row must find its bytes intact.
        const refs = await database.db.selectFrom('hr_uploads').select('id').where('sha256', '=', digest).execute();
        assert.equal(refs.length, 2);
        const back = await collect(await store.read(digest));
        assert.equal(sha(back), digest);
        await database.db.deleteFrom('hr_uploads').where('sha256', '=', digest).execute();
        assert.equal(await store.deleteIfUnreferenced(digest), true);
      }
    });

    it('sweeps staged bytes left by a process that died mid-write', async () => {
      if (dialect === 'sqlite') {
        const stale = path.join(blobDirectory(dataDir), 'tmp', 'dead.part');
        fs.writeFileSync(stale, 'half a file');
        const old = new Date(Date.now() - 3_600_000);
        fs.utimesSync(stale, old, old);
        fs.writeFileSync(path.join(blobDirectory(dataDir), 'tmp', 'fresh.part'), 'in progress');
        assert.equal(await store.sweepStaging(Date.now() - 60_000), 1);
        assert.deepEqual(
          tempFiles().map((f) => path.basename(f)),
          ['fresh.part'],
        );
        fs.rmSync(path.join(blobDirectory(dataDir), 'tmp', 'fresh.part'));
      } else {
        await database.db
          .insertInto('blob_staging')
          .values({ staging_id: 'dead', seq: 0, data: Buffer.from('x'), created_at: Date.now() - 3_600_000 })
          .execute();
        assert.equal(await store.sweepStaging(Date.now() - 60_000), 1);
        assert.equal(await stagingCount(), 0);
      }
    });

    describe('download responder over HTTP', () => {
      let app: FastifyInstance;
      let url: string;
      let data: Buffer;
      let digest: string;

      before(async () => {
        data = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(CHUNK_BYTES * 3)]);
        const { blob } = await store.put(chunked(data));
        digest = blob.sha256;
        app = Fastify();
        app.get<{ Params: { sha: string }; Querystring: { name?: string } }>('/files/:sha', async (request, reply) => {
          const found = await store.stat(request.params.sha);
          if (!found) return reply.status(404).send({ code: 'not_found' });
          return sendBlob(reply, request, store, {
            sha256: found.sha256,
            size: found.size,
            contentType: found.contentType,
            filename: request.query.name ?? 'report.pdf',
          });
        });
        url = await app.listen({ port: 0, host: '127.0.0.1' });
      });
      after(async () => {
        await app.close();
      });

      it('sends the whole file with its headers', async () => {
        const res = await fetch(`${url}/files/${digest}`);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), 'application/pdf');
        assert.equal(res.headers.get('content-length'), String(data.length));
        assert.equal(res.headers.get('accept-ranges'), 'bytes');
        assert.equal(res.headers.get('content-disposition'), 'attachment; filename="report.pdf"');
        assert.equal(res.headers.get('etag'), `"${digest}"`);
        const body = Buffer.from(await res.arrayBuffer());
        assert.ok(body.equals(data));
      });

      it('answers a range with 206 and Content-Range, an impossible one with 416', async () => {
        const res = await fetch(`${url}/files/${digest}`, { headers: { range: 'bytes=0-99' } });
        assert.equal(res.status, 206);
        assert.equal(res.headers.get('content-range'), `bytes 0-99/${data.length}`);
        assert.equal(res.headers.get('content-length'), '100');
        assert.ok(Buffer.from(await res.arrayBuffer()).equals(data.subarray(0, 100)));

        const tail = await fetch(`${url}/files/${digest}`, { headers: { range: 'bytes=-10' } });
        assert.equal(tail.status, 206);
        assert.ok(Buffer.from(await tail.arrayBuffer()).equals(data.subarray(data.length - 10)));

        const outside = await fetch(`${url}/files/${digest}`, { headers: { range: `bytes=${data.length}-` } });
        assert.equal(outside.status, 416);
        assert.equal(outside.headers.get('content-range'), `bytes */${data.length}`);
        await outside.arrayBuffer();

        const stale = await fetch(`${url}/files/${digest}`, { headers: { range: 'bytes=0-9', 'if-range': '"other"' } });
        assert.equal(stale.status, 200, 'If-Range that does not match: the whole file');
        assert.equal(Buffer.from(await stale.arrayBuffer()).length, data.length);
      });

      it('HEAD gives the same headers and no body', async () => {
        const res = await fetch(`${url}/files/${digest}`, { method: 'HEAD' });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-length'), String(data.length));
        assert.equal(res.headers.get('content-type'), 'application/pdf');
        assert.equal(res.headers.get('accept-ranges'), 'bytes');
        assert.equal(res.headers.get('content-disposition'), 'attachment; filename="report.pdf"');
        assert.equal((await res.arrayBuffer()).byteLength, 0);
      });

      it('names non-ASCII files with filename*', async () => {
        const res = await fetch(`${url}/files/${digest}?name=${encodeURIComponent('Bulletin de paie – été.pdf')}`);
        assert.equal(
          res.headers.get('content-disposition'),
          `attachment; filename="Bulletin de paie _ _t_.pdf"; filename*=UTF-8''Bulletin%20de%20paie%20%E2%80%93%20%C3%A9t%C3%A9.pdf`,
        );
        await res.arrayBuffer();
      });

      it('aborts the response of a corrupted blob; a range of it is still served', async () => {
        const bad = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(2 * 1024 * 1024)]);
        const { blob } = await store.put(chunked(bad));
        if (dialect === 'sqlite') {
          const file = (store as FileBlobStore).pathOf(blob.sha256);
          const content = fs.readFileSync(file);
          content[bad.length - 10] = (content[bad.length - 10] ?? 0) ^ 0xff;
          fs.writeFileSync(file, content);
        } else {
          const at = bad.length - 10;
          const seq = Math.floor(at / CHUNK_BYTES);
          const chunk = await database.db
            .selectFrom('blob_chunks')
            .select('data')
            .where('sha256', '=', blob.sha256)
            .where('seq', '=', seq)
            .executeTakeFirstOrThrow();
          const flipped = Buffer.from(chunk.data);
          flipped[at % CHUNK_BYTES] = (flipped[at % CHUNK_BYTES] ?? 0) ^ 0xff;
          await database.db
            .updateTable('blob_chunks')
            .set({ data: flipped })
            .where('sha256', '=', blob.sha256)
            .where('seq', '=', seq)
            .execute();
        }
        const res = await fetch(`${url}/files/${blob.sha256}`);
        assert.equal(res.status, 200, 'the headers went out before the end was checked');
        assert.equal(res.headers.get('content-length'), String(bad.length));
        await assert.rejects(res.arrayBuffer(), 'the connection is aborted short of Content-Length');
        const range = await fetch(`${url}/files/${blob.sha256}`, { headers: { range: 'bytes=0-8' } });
        assert.equal(range.status, 206);
        assert.equal(Buffer.from(await range.arrayBuffer()).toString(), '%PDF-1.4\n');
      });
    });
  });
}

describe('staged files a killed process left', () => {
  it('are removed when a process starts, and only those older than the request timeout', async () => {
    const server = await startServer('sqlite', { ATRIUM_REQUEST_TIMEOUT: '5000' });
    try {
      const tmp = path.join(server.config.dataDir, 'blobs', 'tmp');
      const stale = path.join(tmp, `${randomUUID()}.part`);
      const fresh = path.join(tmp, `${randomUUID()}.part`);
      const other = path.join(tmp, 'not-staging.txt');
      for (const file of [stale, fresh, other]) fs.writeFileSync(file, 'half an upload');
      // Older than the request timeout and its margin (5 s + 60 s): a dead process's.
      const old = new Date(Date.now() - 10 * 60_000);
      fs.utimesSync(stale, old, old);
      fs.utimesSync(other, old, old);
      // A second process starting on the same data directory, as after a SIGKILL and a restart.
      const sibling = await server.sibling();
      try {
        assert.equal(fs.existsSync(stale), false, 'the stale .part file is gone');
        assert.equal(fs.existsSync(fresh), true, 'a recent one may be a live upload of another process: kept');
        assert.equal(fs.existsSync(other), true, 'only .part files are swept');
      } finally {
        await sibling.close();
      }
    } finally {
      await server.close();
    }
  });
});

if (dialects().includes('postgres')) {
  describe("the PostgreSQL store's local cache of bytes", () => {
    let testDb: TestDatabase;
    let database: Database;
    let dataDir: string;
    const log = loggerInto([]);
    /** A store as a machine of its own would have it: its own cache directory, the shared database. */
    const machine = (name: string, maxBytes = 64 * 1024 * 1024) => {
      const cache = new BlobCache(path.join(dataDir, name), maxBytes, log);
      return { cache, store: new PostgresBlobStore(database.db, log, cache) };
    };
    const chunkCount = async (digest: string) =>
      Number(
        (
          await database.db
            .selectFrom('blob_chunks')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('sha256', '=', digest)
            .executeTakeFirstOrThrow()
        ).n,
      );

    before(async () => {
      testDb = await freshDatabase('postgres');
      const config = loadConfig(testDb.env);
      dataDir = config.dataDir;
      database = openDatabase(config);
      await migrateToLatest(database);
    });
    after(async () => {
      await database.close();
      await testDb.drop();
    });

    it('a full read keeps a verified copy; later reads, whole or a range, read the copy, not the chunks', async () => {
      const { cache, store } = machine('a');
      const data = randomBytes(CHUNK_BYTES * 2 + 777);
      const { blob } = await store.put(chunked(data));
      assert.equal(fs.existsSync(cache.pathOf(blob.sha256)), false, 'a write does not fill the cache');
      const range = await collect(await store.read(blob.sha256, { start: 10, end: 20 }));
      assert.ok(range.equals(data.subarray(10, 21)));
      assert.equal(fs.existsSync(cache.pathOf(blob.sha256)), false, 'a range read does not fill it');
      assert.ok((await collect(await store.read(blob.sha256))).equals(data));
      assert.ok(fs.readFileSync(cache.pathOf(blob.sha256)).equals(data));
      assert.equal(fs.statSync(cache.pathOf(blob.sha256)).mode & 0o777, 0o600);
      assert.deepEqual(await cache.usage(), { bytes: data.length, files: 1 });
      assert.deepEqual(filesUnder(cache.tmpDir), []);
      // The chunks gone (as if the network were): the reads are still answered, so they come from the copy.
      await database.db.deleteFrom('blob_chunks').where('sha256', '=', blob.sha256).execute();
      assert.equal(await chunkCount(blob.sha256), 0);
      assert.ok((await collect(await store.read(blob.sha256))).equals(data));
      const across = await collect(await store.read(blob.sha256, { start: CHUNK_BYTES - 3, end: CHUNK_BYTES + 3 }));
      assert.ok(across.equals(data.subarray(CHUNK_BYTES - 3, CHUNK_BYTES + 4)));
      // Whether the blob exists is still the database's answer.
      await database.db.deleteFrom('blobs').where('sha256', '=', blob.sha256).execute();
      await assert.rejects(store.read(blob.sha256), /is not stored/);
    });

    it('a corrupted copy fails its checksum, is dropped, and the next read comes from the chunks', async () => {
      const { cache, store } = machine('b');
      const data = randomBytes(CHUNK_BYTES + 5000);
      const { blob } = await store.put(chunked(data));
      await collect(await store.read(blob.sha256));
      const file = cache.pathOf(blob.sha256);
      const copy = fs.readFileSync(file);
      copy[100] = (copy[100] ?? 0) ^ 0xff;
      fs.writeFileSync(file, copy);
      await assert.rejects(collect(await store.read(blob.sha256)), BlobIntegrityError);
      await until(async () => !fs.existsSync(file), 'the corrupted copy is removed', 10_000);
      assert.ok((await collect(await store.read(blob.sha256))).equals(data));
      assert.ok(fs.readFileSync(file).equals(data), 'and kept again, whole');
      // A copy of another size (cut short) is not read at all, even for a range.
      fs.truncateSync(file, 1000);
      assert.ok((await collect(await store.read(blob.sha256, { start: 0, end: 9 }))).equals(data.subarray(0, 10)));
      assert.equal(fs.existsSync(file), false);
    });

    it('never keeps bytes that fail their checksum, nor a read its reader stopped', async () => {
      const { cache, store } = machine('c');
      const data = randomBytes(CHUNK_BYTES * 4 + 1);
      const { blob } = await store.put(chunked(data));
      await flipChunkByte(database.db, blob.sha256, 1, 7);
      await assert.rejects(collect(await store.read(blob.sha256)), BlobIntegrityError);
      assert.equal(fs.existsSync(cache.pathOf(blob.sha256)), false);
      assert.deepEqual(filesUnder(cache.tmpDir), []);
      await flipChunkByte(database.db, blob.sha256, 1, 7);
      const stream = await store.read(blob.sha256);
      for await (const _ of stream) break;
      await until(async () => filesUnder(cache.tmpDir).length === 0, 'the partial copy is removed', 10_000);
      assert.equal(fs.existsSync(cache.pathOf(blob.sha256)), false, 'a read its reader stopped keeps nothing');
      assert.deepEqual(filesUnder(cache.tmpDir), [], 'and leaves no partial copy');
      assert.deepEqual(await cache.usage(), { bytes: 0, files: 0 });
    });

    it('stays within its bound, removing the least recently read first; a new process counts what is there', async () => {
      const size = 100_000;
      const { cache, store } = machine('d', Math.floor(size * 2.5));
      const blobs = [];
      for (let i = 0; i < 4; i++) blobs.push((await store.put(chunked(randomBytes(size)))).blob.sha256);
      const [a, b, c, d] = blobs as [string, string, string, string];
      for (const digest of [a, b, a, c]) {
        await collect(await store.read(digest));
      }
      const cached = (digest: string) => fs.existsSync(cache.pathOf(digest));
      assert.deepEqual([cached(a), cached(b), cached(c)], [true, false, true], 'b was read least recently');
      assert.deepEqual(await cache.usage(), { bytes: 2 * size, files: 2 });
      const bigger = randomBytes(Math.floor(size * 2.5) + 1);
      const big = (await store.put(chunked(bigger))).blob.sha256;
      assert.ok((await collect(await store.read(big))).equals(bigger));
      assert.equal(cached(big), false, 'a blob larger than the cache is never kept');
      assert.deepEqual([cached(a), cached(c)], [true, true], 'and evicts nothing');
      // Another process on the same directory, with a smaller bound: it counts the files and keeps the newest.
      const later = new BlobCache(cache.root, size, log);
      const usage = await later.usage();
      assert.equal(usage.files, 1);
      assert.equal(usage.bytes, size);
      assert.equal([cached(a), cached(c)].filter(Boolean).length, 1);
      await collect(await new PostgresBlobStore(database.db, log, later).read(d));
      assert.equal(cached(d), true);
      assert.deepEqual(await later.usage(), { bytes: size, files: 1 });
    });

    it("deleting a blob drops this machine's copy; the sweep drops the copies other machines kept", async () => {
      const one = machine('e1');
      const two = machine('e2');
      const data = randomBytes(50_000);
      const { blob } = await one.store.put(chunked(data));
      for (const m of [one, two]) await collect(await m.store.read(blob.sha256));
      assert.ok(fs.existsSync(one.cache.pathOf(blob.sha256)) && fs.existsSync(two.cache.pathOf(blob.sha256)));
      assert.equal(await one.store.deleteIfUnreferenced(blob.sha256), true);
      assert.equal(fs.existsSync(one.cache.pathOf(blob.sha256)), false);
      assert.equal(fs.existsSync(two.cache.pathOf(blob.sha256)), true, 'the other machine does not know yet');
      const stale = path.join(two.cache.tmpDir, `${randomUUID()}.part`);
      const fresh = path.join(two.cache.tmpDir, `${randomUUID()}.part`);
      fs.writeFileSync(stale, 'a copy a stopped process left');
      fs.writeFileSync(fresh, 'a copy in progress');
      const old = new Date(Date.now() - 3_600_000);
      fs.utimesSync(stale, old, old);
      await two.store.sweepStaging(Date.now() - 60_000);
      assert.equal(fs.existsSync(two.cache.pathOf(blob.sha256)), false, 'the sweep removed the copy');
      assert.deepEqual(filesUnder(two.cache.tmpDir), [fresh]);
      assert.deepEqual(await two.cache.usage(), { bytes: 0, files: 0 });
      fs.rmSync(fresh);
    });

    it('is on by default under the data directory, and ATRIUM_BLOB_CACHE_MB=0 turns it off', async () => {
      assert.equal(loadConfig({}).blobCacheBytes, 512 * 1024 * 1024);
      for (const [env, expected] of [
        [{}, true],
        [{ ATRIUM_BLOB_CACHE_MB: '0' }, false],
      ] as const) {
        const server = await startServer('postgres', env);
        try {
          const data = randomBytes(10_000);
          const { blob } = await server.app.services.blobs.put(chunked(data));
          assert.ok((await collect(await server.app.services.blobs.read(blob.sha256))).equals(data));
          const copy = path.join(blobCacheDirectory(server.config.dataDir), blob.sha256.slice(0, 2));
          assert.equal(fs.existsSync(copy), expected);
        } finally {
          await server.close();
        }
      }
    });

    it('is off, with a warning, when its directory cannot be made; the server still serves files', async () => {
      const blocker = path.join(dataDir, 'a-file');
      fs.writeFileSync(blocker, 'not a directory');
      const server = await startServer('postgres', {
        ATRIUM_DATA_DIR: path.join(blocker, 'data'),
        ATRIUM_MASTER_KEY: randomBytes(32).toString('hex'),
      });
      try {
        const data = randomBytes(10_000);
        const { blob } = await server.app.services.blobs.put(chunked(data));
        assert.ok((await collect(await server.app.services.blobs.read(blob.sha256))).equals(data));
        assert.ok(server.logs.some((l) => l.includes('the local cache of stored files is off')));
      } finally {
        await server.close();
      }
    });
  });
}
