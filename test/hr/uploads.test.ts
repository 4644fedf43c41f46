import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { UploadsRepository } from '../../src/hr/core/uploads/repository.js';
import { blobDirectory } from '../../src/platform/blobs/open.js';
import type { DialectName } from '../../src/platform/db/database.js';
import { hrTenantId } from '../../src/platform/db/tenant.js';
import { FieldValidationError, NotFoundError } from '../../src/platform/errors.js';
import { dialects, type HrCaller, hrCaller, sleep, startServer, type TestServer } from '../support/harness.js';

interface UploadDocument {
  id: string;
  filename: string;
  content_type: string;
  size: number;
  creation_date: string;
  expires_at: string;
  retention_period: number;
}

interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string; message: string }[];
}

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const MiB = 1024 * 1024;
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'), randomBytes(2000)]);

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text) as T;
}

/** POST of raw bytes named by Content-Disposition. */
function postRaw(
  server: TestServer,
  hr: HrCaller,
  data: Buffer,
  filename: string,
  headers: Record<string, string> = {},
  p = '/uploads',
): Promise<Response> {
  return fetch(`${server.url}/api/v2/client${p}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${hr.token}`,
      'content-type': 'application/octet-stream',
      'content-disposition': `attachment; filename="${filename}"`,
      ...headers,
    },
    body: data,
  });
}

/** POST of a multipart form with the file in `field`. */
function postMultipart(
  server: TestServer,
  hr: HrCaller,
  data: Buffer,
  filename: string,
  options: { field?: string; type?: string; path?: string } = {},
): Promise<Response> {
  const form = new FormData();
  form.append('note', 'a field before the file');
  form.append(
    options.field ?? 'file',
    new Blob([data], { type: options.type ?? 'application/octet-stream' }),
    filename,
  );
  return fetch(`${server.url}/api/v2/client${options.path ?? '/uploads'}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${hr.token}` },
    body: form,
  });
}

/** What a server has stored: upload rows, blob rows, files under the blob directory (SQLite), staged chunks. */
async function stored(server: TestServer) {
  const db = server.app.database.db;
  const uploads = await db.selectFrom('hr_uploads').selectAll().execute();
  const blobs = await db.selectFrom('blobs').selectAll().execute();
  const staging = await db.selectFrom('blob_staging').select('staging_id').execute();
  const dir = blobDirectory(server.config.dataDir);
  const files = fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    : [];
  return { uploads, blobs, staging, files };
}

async function assertNothingStored(server: TestServer): Promise<void> {
  const s = await stored(server);
  assert.deepEqual(s.uploads, [], 'no upload row');
  assert.deepEqual(s.blobs, [], 'no blob row');
  assert.deepEqual(s.staging, [], 'no staged chunk');
  assert.deepEqual(s.files, [], 'no file, temporary or not, under the blob directory');
}

async function readBack(server: TestServer, digest: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await server.app.services.blobs.read(digest)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

for (const dialect of dialects() as DialectName[]) {
  describe(`uploads (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;

    before(async () => {
      server = await startServer(dialect, { ATRIUM_UPLOAD_TTL: '3600' });
      hr = await hrCaller(server);
    });
    after(() => server.close());

    it('stores a 10 MiB raw upload byte for byte (201 UploadDocument)', async () => {
      const data = randomBytes(10 * MiB);
      const body = await json<UploadDocument>(await postRaw(server, hr, data, 'big.bin'), 201);
      assert.match(body.id, UUID);
      assert.equal(body.filename, 'big.bin');
      assert.equal(body.size, data.length);
      assert.equal(body.content_type, 'application/octet-stream');
      assert.match(body.creation_date, DATETIME);
      assert.match(body.expires_at, DATETIME);
      assert.equal(body.retention_period, 3600);
      assert.equal(Date.parse(body.expires_at) - Date.parse(body.creation_date), 3600 * 1000);
      const row = await server.app.database.db
        .selectFrom('hr_uploads')
        .selectAll()
        .where('id', '=', body.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.client_id, hr.creds.client_id);
      assert.equal(row.sha256, sha(data));
      assert.equal(Number(row.size), data.length);
      const blob = await server.app.database.db
        .selectFrom('blobs')
        .selectAll()
        .where('sha256', '=', sha(data))
        .executeTakeFirstOrThrow();
      assert.equal(Number(blob.size), data.length);
      assert.equal(sha(await readBack(server, row.sha256)), sha(data));
    });

    it('stores a 10 MiB multipart upload byte for byte', async () => {
      const data = randomBytes(10 * MiB);
      const body = await json<UploadDocument>(await postMultipart(server, hr, data, 'big.dat'), 201);
      assert.equal(body.filename, 'big.dat');
      assert.equal(body.size, data.length);
      const row = await server.app.database.db
        .selectFrom('hr_uploads')
        .selectAll()
        .where('id', '=', body.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.sha256, sha(data));
      const blob = await server.app.database.db
        .selectFrom('blobs')
        .selectAll()
        .where('sha256', '=', sha(data))
        .executeTakeFirstOrThrow();
      assert.equal(Number(blob.size), data.length);
      assert.equal(sha(await readBack(server, row.sha256)), sha(data));
    });

    it('POST /document answers 201 {filename, file_id}', async () => {
      const res = await postMultipart(server, hr, PDF, 'contract.pdf', { path: '/document' });
      const body = await json<Record<string, unknown>>(res, 201);
      assert.deepEqual(Object.keys(body).sort(), ['file_id', 'filename']);
      assert.equal(body.filename, 'contract.pdf');
      assert.match(String(body.file_id), UUID);
      const upload = await server.app.services.uploads.get(hrTenantId(hr.creds.client_id), String(body.file_id));
      assert.equal(upload.contentType, 'application/pdf');
      assert.equal(upload.size, PDF.length);
    });

    it('sniffs the content type from the bytes, never from the client', async () => {
      const raw = await json<UploadDocument>(
        await postRaw(server, hr, PDF, 'scan.png', { 'content-type': 'image/png' }),
        201,
      );
      assert.equal(raw.content_type, 'application/pdf');
      const multipart = await json<UploadDocument>(
        await postMultipart(server, hr, PDF, 'scan.png', { type: 'image/png' }),
        201,
      );
      assert.equal(multipart.content_type, 'application/pdf');
      const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
      const image = await json<UploadDocument>(
        await postRaw(server, hr, png, 'doc.pdf', { 'content-type': 'application/pdf' }),
        201,
      );
      assert.equal(image.content_type, 'image/png');
      const noise = await json<UploadDocument>(
        // Bytes of no format: random bytes start with some format's magic number now and then (1F 9D, compress).
        await postRaw(server, hr, Buffer.alloc(5000, 0xa7), 'noise.pdf', { 'content-type': 'application/pdf' }),
        201,
      );
      assert.equal(noise.content_type, 'application/octet-stream');
      // Any content type may carry a raw body, JSON included: it is never parsed.
      const jsonBody = await json<UploadDocument>(
        await postRaw(server, hr, Buffer.from('{"not": "parsed"}'), 'data.json', {
          'content-type': 'application/json',
        }),
        201,
      );
      assert.equal(jsonBody.size, 17);
    });

    it('keeps file names as data: path components and control characters are dropped', async () => {
      const traversal = await json<UploadDocument>(await postRaw(server, hr, PDF, '../../etc/passwd'), 201);
      assert.equal(traversal.filename, 'passwd');
      const windows = await json<UploadDocument>(await postMultipart(server, hr, PDF, 'C:\\temp\\..\\cv.pdf'), 201);
      assert.equal(windows.filename, 'cv.pdf');
      const utf8 = await json<UploadDocument>(
        await postRaw(server, hr, PDF, 'x.pdf', {
          'content-disposition': `attachment; filename="x.pdf"; filename*=UTF-8''fiche%20%C3%A9t%C3%A9%0A.pdf`,
        }),
        201,
      );
      assert.equal(utf8.filename, 'fiche été.pdf');
      // Nothing was written outside the blob directory's layout.
      const s = await stored(server);
      assert.ok(
        s.files.every((f) => /^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}$/.test(f)),
        s.files.join(', '),
      );
    });

    it('refuses a request without a file: 400 for a raw body without a name or an empty file, 422 without the field', async () => {
      const unnamed = await json<ErrorBody>(
        await fetch(`${server.url}/api/v2/client/uploads`, {
          method: 'POST',
          headers: { authorization: `Bearer ${hr.token}`, 'content-type': 'application/pdf' },
          body: PDF,
        }),
        400,
      );
      assert.equal(unnamed.code, 'invalid_request');
      assert.match(unnamed.message, /Content-Disposition/);
      const empty = await json<ErrorBody>(await postRaw(server, hr, Buffer.alloc(0), 'empty.txt'), 400);
      assert.equal(empty.code, 'invalid_request');
      const wrongField = await json<ErrorBody>(
        await postMultipart(server, hr, PDF, 'x.pdf', { field: 'attachment' }),
        422,
      );
      assert.deepEqual(
        wrongField.errors?.map((e) => [e.field, e.code]),
        [['file', 'required']],
      );
      // An unknown query parameter is ignored (ATRIUM_STRICT=1 refuses it: test/hr/strictness.test.ts).
      const query = await json<UploadDocument>(
        await fetch(`${server.url}/api/v2/client/uploads?retention=1`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${hr.token}`,
            'content-disposition': 'attachment; filename="a.pdf"',
          },
          body: PDF,
        }),
        201,
      );
      assert.equal(query.retention_period, 3600, 'the unknown parameter changed nothing');
    });

    it('scopes uploads to their client: another client cannot see or consume them', async () => {
      const mine = await json<UploadDocument>(await postRaw(server, hr, PDF, 'mine.pdf'), 201);
      const other = await hrCaller(server);
      const uploads = server.app.services.uploads;
      const db = server.app.database.db;
      await assert.rejects(uploads.get(hrTenantId(other.creds.client_id), mine.id), NotFoundError);
      await assert.rejects(
        db
          .transaction()
          .execute((trx) => uploads.consume(new UploadsRepository(trx), hrTenantId(other.creds.client_id), mine.id)),
        NotFoundError,
      );
      await assert.rejects(
        db.transaction().execute((trx) =>
          uploads.consume(new UploadsRepository(trx), hrTenantId(other.creds.client_id), mine.id, {
            field: 'uploaded_file.file_id',
          }),
        ),
        (error: unknown) =>
          error instanceof FieldValidationError &&
          error.fields[0]?.field === 'uploaded_file.file_id' &&
          error.fields[0]?.code === 'not_found',
      );
      // Still intact and usable by its owner.
      const taken = await db
        .transaction()
        .execute((trx) => uploads.consume(new UploadsRepository(trx), hrTenantId(hr.creds.client_id), mine.id));
      assert.equal(taken.filename, 'mine.pdf');
      assert.equal(taken.contentType, 'application/pdf');
    });

    it('consume takes an upload once, inside the caller transaction', async () => {
      const up = await json<UploadDocument>(await postRaw(server, hr, PDF, 'once.pdf'), 201);
      const uploads = server.app.services.uploads;
      const db = server.app.database.db;
      const clientId = hr.creds.client_id;
      // A caller whose transaction fails leaves the upload usable.
      await assert.rejects(
        db.transaction().execute(async (trx) => {
          await uploads.consume(new UploadsRepository(trx), hrTenantId(clientId), up.id);
          throw new Error('document insert failed');
        }),
        /document insert failed/,
      );
      const taken = await db
        .transaction()
        .execute((trx) => uploads.consume(new UploadsRepository(trx), hrTenantId(clientId), up.id));
      assert.deepEqual(taken, {
        id: up.id,
        sha256: sha(PDF),
        filename: 'once.pdf',
        size: PDF.length,
        contentType: 'application/pdf',
        // Sniffed as a PDF, but not one the library can read (a catalog and noise): no count.
        pageCount: null,
      });
      await assert.rejects(
        db.transaction().execute((trx) =>
          uploads.consume(new UploadsRepository(trx), hrTenantId(clientId), up.id, {
            field: 'uploaded_file.file_id',
          }),
        ),
        (error: unknown) => error instanceof FieldValidationError && error.fields[0]?.code === 'already_used',
      );
      await assert.rejects(
        db.transaction().execute((trx) => uploads.consume(new UploadsRepository(trx), hrTenantId(clientId), up.id)),
        NotFoundError,
      );
    });

    it('a read-only application gets 403 insufficient_scope and stores nothing', async () => {
      const ro = await hrCaller(server, { readOnly: true });
      const before = await stored(server);
      const raw = await json<ErrorBody>(await postRaw(server, ro, randomBytes(1000), 'ro.bin'), 403);
      assert.equal(raw.code, 'insufficient_scope');
      const doc = await json<ErrorBody>(
        await postMultipart(server, ro, randomBytes(1000), 'ro.bin', { path: '/document' }),
        403,
      );
      assert.equal(doc.code, 'insufficient_scope');
      const anonymous = await json<ErrorBody>(
        await fetch(`${server.url}/api/v2/client/uploads`, {
          method: 'POST',
          headers: { 'content-disposition': 'attachment; filename="a.bin"' },
          body: randomBytes(1000),
        }),
        401,
      );
      assert.equal(anonymous.code, 'invalid_token');
      const afterwards = await stored(server);
      assert.equal(afterwards.uploads.length, before.uploads.length);
      assert.equal(afterwards.blobs.length, before.blobs.length);
    });

    it('documents both endpoints in the OpenAPI document', async () => {
      const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
      };
      const uploads = doc.paths['/api/v2/client/uploads']?.post;
      assert.ok(uploads?.requestBody?.content['multipart/form-data']);
      assert.ok(uploads?.requestBody?.content['*/*']);
      assert.ok(doc.paths['/api/v2/client/document']?.post);
    });
  });

  describe(`upload limits and interrupted uploads (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;

    before(async () => {
      server = await startServer(dialect, { ATRIUM_UPLOAD_LIMIT: String(MiB) });
      hr = await hrCaller(server);
    });
    after(() => server.close());

    it('413 payload_too_large over ATRIUM_UPLOAD_LIMIT, raw or multipart, leaving nothing behind', async () => {
      const big = randomBytes(2 * MiB);
      const raw = await json<ErrorBody>(await postRaw(server, hr, big, 'big.bin'), 413);
      assert.equal(raw.code, 'payload_too_large');
      assert.match(raw.message, /1048576 bytes/);
      await assertNothingStored(server);

      // Without a Content-Length (chunked): refused while streaming.
      const chunked = await fetch(`${server.url}/api/v2/client/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${hr.token}`, 'content-disposition': 'attachment; filename="c.bin"' },
        body: new Blob([big]).stream(),
        duplex: 'half',
      } as RequestInit & { duplex: 'half' });
      const streamed = await json<ErrorBody>(chunked, 413);
      assert.equal(streamed.code, 'payload_too_large');
      await assertNothingStored(server);

      const multipart = await json<ErrorBody>(await postMultipart(server, hr, big, 'big.bin'), 413);
      assert.equal(multipart.code, 'payload_too_large');
      await assertNothingStored(server);

      const overByOne = await json<ErrorBody>(await postMultipart(server, hr, randomBytes(MiB + 1), 'b.bin'), 413);
      assert.equal(overByOne.code, 'payload_too_large');
      await assertNothingStored(server);
    });

    it('accepts a file of exactly the limit', async () => {
      const exact = randomBytes(MiB);
      assert.equal((await json<UploadDocument>(await postRaw(server, hr, exact, 'a.bin'), 201)).size, MiB);
      const exact2 = randomBytes(MiB);
      assert.equal((await json<UploadDocument>(await postMultipart(server, hr, exact2, 'b.bin'), 201)).size, MiB);
      const db = server.app.database.db;
      await db.deleteFrom('hr_uploads').execute();
      for (const digest of [sha(exact), sha(exact2)]) {
        assert.equal(await server.app.services.blobs.deleteIfUnreferenced(digest), true);
      }
      await assertNothingStored(server);
    });

    it('an upload cut off mid-stream leaves no upload, no blob and no temporary bytes', async () => {
      const url = new URL(server.url);
      const socket = net.connect(Number(url.port), url.hostname);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('error', reject);
      });
      socket.on('error', () => {});
      socket.write(
        [
          'POST /api/v2/client/uploads HTTP/1.1',
          `Host: ${url.host}`,
          `Authorization: Bearer ${hr.token}`,
          'Content-Type: application/octet-stream',
          'Content-Disposition: attachment; filename="cut.bin"',
          `Content-Length: ${MiB - 1}`,
          '',
          '',
        ].join('\r\n'),
      );
      socket.write(randomBytes(600 * 1024));
      // Wait until the server is demonstrably storing it: a temporary file, or staged chunks.
      await waitFor('the upload to be staged', async () => {
        const s = await stored(server);
        return s.files.some((f) => f.startsWith('tmp')) || s.staging.length > 0;
      });
      socket.destroy();
      await waitFor('the staged bytes to be removed', async () => {
        const s = await stored(server);
        return s.files.length === 0 && s.staging.length === 0;
      });
      await sleep(100);
      await assertNothingStored(server);
    });
  });

  describe(`upload expiry (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;

    before(async () => {
      server = await startServer(dialect, { ATRIUM_UPLOAD_TTL: '60' });
      hr = await hrCaller(server);
    });
    after(() => {
      server.app.services.clock.reset();
      return server.close();
    });

    it('the sweeper deletes expired uploads and their blobs once nothing else holds them', async () => {
      const { clock, uploads, blobs } = server.app.services;
      const db = server.app.database.db;
      const data = randomBytes(300 * 1024);
      const start = Date.now();
      const first = await json<UploadDocument>(await postRaw(server, hr, data, 'a.bin'), 201);
      assert.equal(first.retention_period, 60);
      // The same bytes uploaded 30 s later: one blob, two uploads.
      clock.set(start + 30_000);
      const second = await json<UploadDocument>(await postMultipart(server, hr, data, 'b.bin'), 201);
      assert.equal((await stored(server)).blobs.length, 1);

      clock.set(start + 61_000);
      assert.deepEqual(await uploads.sweep(), { uploads: 1, blobs: 0 }, 'the second upload still holds the bytes');
      await assert.rejects(uploads.get(hrTenantId(hr.creds.client_id), first.id), NotFoundError);
      // The second upload is consumed, as a document create would in its transaction: it hands its blob over.
      const taken = await db
        .transaction()
        .execute((trx) => uploads.consume(new UploadsRepository(trx), hrTenantId(hr.creds.client_id), second.id));
      assert.equal(taken.sha256, sha(data));
      clock.set(start + 91_000);
      // Expired and consumed: the row goes, the sweeper leaves the blob alone.
      assert.deepEqual(await uploads.sweep(), { uploads: 1, blobs: 0 });
      assert.equal((await stored(server)).blobs.length, 1, 'a consumed upload hands its blob over');
      assert.equal(await blobs.deleteIfUnreferenced(sha(data)), true, 'then whoever consumed it decides');
      await assertNothingStored(server);

      const third = await json<UploadDocument>(await postRaw(server, hr, data, 'c.bin'), 201);
      clock.set(start + 200_000);
      await assert.rejects(
        db.transaction().execute((trx) =>
          uploads.consume(new UploadsRepository(trx), hrTenantId(hr.creds.client_id), third.id, {
            field: 'upload_id',
          }),
        ),
        (error: unknown) => error instanceof FieldValidationError && error.fields[0]?.code === 'expired',
      );
      assert.deepEqual(await uploads.sweep(), { uploads: 1, blobs: 1 });
      await assertNothingStored(server);
      clock.reset();
    });

    it('the periodic sweep runs on its own', async () => {
      const timed = await startServer(dialect, { ATRIUM_UPLOAD_TTL: '1', ATRIUM_UPLOAD_SWEEP_MS: '200' });
      try {
        const caller = await hrCaller(timed);
        await json<UploadDocument>(await postRaw(timed, caller, randomBytes(1000), 'soon-gone.bin'), 201);
        await waitFor(
          'the periodic sweep',
          async () => {
            const s = await stored(timed);
            return s.uploads.length === 0 && s.blobs.length === 0;
          },
          15_000,
        );
        await assertNothingStored(timed);
      } finally {
        await timed.close();
      }
    });
  });
}
