/**
 * The knowledge base's media (reference §3e.3; docs/hr-api.md, "Images and media files"): `POST /kb_articles/images`
 * (an image judged by its bytes, 200 `KbArticleImage {url}`), `GET /article_resources/{id}` (the bytes back, with
 * their type) and `GET /article_documents/{id}` (the "Media" files the seed files); what is refused, and tenancy.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { hrTenantId } from '../../src/platform/db/tenant.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { pdf } from '../support/pdf.js';

interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string }[];
}

/** A 1×1 PNG, GIF, JPEG and WebP (lossless and lossy), each a whole file. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==', 'base64');
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
const WEBP_LOSSY = Buffer.from('UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA', 'base64');

for (const dialect of dialects()) {
  describe(`knowledge-base media (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;

    const upload = (data: Buffer, filename: string, caller = hr, field = 'image') => {
      const form = new FormData();
      form.append(field, new Blob([new Uint8Array(data)]), filename);
      return fetch(`${server.url}/api/v2/client/kb_articles/images`, {
        method: 'POST',
        headers: { authorization: `Bearer ${caller.token}` },
        body: form,
      });
    };
    const get = (path: string, caller = hr) =>
      fetch(`${server.url}/api/v2/client${path}`, { headers: { authorization: `Bearer ${caller.token}` } });
    const refused = async (res: Response, status: number, code: string, field?: string) => {
      const body = (await res.json()) as ErrorBody;
      assert.equal(res.status, status, JSON.stringify(body));
      assert.equal(body.code, code);
      assert.equal(typeof body.message, 'string');
      if (field !== undefined)
        assert.deepEqual(
          body.errors?.map((e) => e.field),
          [field],
        );
      return body;
    };

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      other = await hrCaller(server);
    });
    after(() => server?.close());

    it('stores each kind of image and serves the same bytes back, with its type, at the url it answers', async () => {
      for (const [data, name, type] of [
        [PNG, 'dot.png', 'image/png'],
        [GIF, 'dot.gif', 'image/gif'],
        [JPEG, 'dot.jpg', 'image/jpeg'],
        [WEBP, 'dot.webp', 'image/webp'],
        [WEBP_LOSSY, 'lossy.webp', 'image/webp'],
      ] as const) {
        const res = await upload(data, name);
        assert.equal(res.status, 200, await res.clone().text());
        const body = (await res.json()) as { url: string };
        assert.deepEqual(Object.keys(body), ['url']);
        const match = /^http:\/\/127\.0\.0\.1:\d+\/api\/v2\/client\/article_resources\/([0-9a-f-]{36})$/.exec(body.url);
        assert.ok(match, body.url);
        const id = match[1] as string;
        const file = await fetch(body.url, { headers: { authorization: `Bearer ${hr.token}` } });
        assert.equal(file.status, 200);
        assert.equal(file.headers.get('content-type'), type);
        assert.equal(file.headers.get('content-length'), String(data.length));
        assert.match(file.headers.get('content-disposition') ?? '', new RegExp(`^inline; filename="${name}"`));
        assert.deepEqual(Buffer.from(await file.arrayBuffer()), data);

        const row = await server.app.database.db
          .selectFrom('hr_kb_article_resources')
          .selectAll()
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        assert.equal(row.client_id, hr.creds.client_id);
        assert.equal(row.content_type, type);
        assert.equal(Number(row.width), 1);
        assert.equal(Number(row.height), 1);
        const event = await server.app.database.db
          .selectFrom('hr_events')
          .select(['type', 'name'])
          .where('resource_id', '=', id)
          .executeTakeFirstOrThrow();
        assert.deepEqual(event, { type: 'kb_article_image.created', name });
      }
    });

    it('refuses what is not an image by its bytes (422 image invalid), whatever its name, and stores nothing', async () => {
      const before = await server.app.database.db.selectFrom('hr_kb_article_resources').select('id').execute();
      const truncatedPng = PNG.subarray(0, PNG.length - 12);
      const pngHeaderOnly = PNG.subarray(0, 33);
      for (const [data, name] of [
        [Buffer.from('just some text, not an image'), 'fake.png'],
        [await pdf(1), 'doc.png'],
        [truncatedPng, 'cut.png'],
        [pngHeaderOnly, 'head.png'],
        [GIF.subarray(0, 10), 'short.gif'],
        [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'icon.svg'],
      ] as const) {
        const body = await refused(await upload(data, name), 422, 'validation_error', 'image');
        assert.equal(body.errors?.[0]?.code, 'invalid', name);
      }
      const after = await server.app.database.db.selectFrom('hr_kb_article_resources').select('id').execute();
      assert.equal(after.length, before.length);
    });

    it('wants the multipart field image (422), a multipart body (415), and refuses past the limit (413)', async () => {
      const missing = await refused(await upload(PNG, 'dot.png', hr, 'file'), 422, 'validation_error', 'image');
      assert.equal(missing.errors?.[0]?.code, 'required');
      await refused(await hr.call('POST', '/kb_articles/images', { image: 'x' }), 415, 'unsupported_media_type');
      const small = await startServer(dialect, { ATRIUM_UPLOAD_LIMIT: '1024' });
      try {
        const caller = await hrCaller(small);
        const form = new FormData();
        form.append('image', new Blob([new Uint8Array(Buffer.concat([PNG, Buffer.alloc(2048)]))]), 'big.png');
        const res = await fetch(`${small.url}/api/v2/client/kb_articles/images`, {
          method: 'POST',
          headers: { authorization: `Bearer ${caller.token}` },
          body: form,
        });
        await refused(res, 413, 'payload_too_large');
      } finally {
        await small.close();
      }
    });

    it('answers 404 for an unknown resource and for another tenant’s', async () => {
      const res = await upload(PNG, 'mine.png');
      const { url } = (await res.json()) as { url: string };
      const id = url.split('/').pop() as string;
      await refused(await get(`/article_resources/${id}`, other), 404, 'not_found');
      await refused(await get(`/article_resources/${randomUUID()}`), 404, 'not_found');
      assert.equal((await get(`/article_resources/${id}`)).status, 200);
    });

    it('serves the media files filed for the tenant, by slug, with their type; 404 otherwise', async () => {
      const clientId = hrTenantId(hr.creds.client_id);
      const file = await pdf(1);
      const { created } = await server.app.services.kbMedia.putDocument(
        clientId,
        'leave-policy',
        { language_code: 'en-us', title: 'Leave policy', description: null, filename: 'leave.pdf' },
        Readable.from([file]),
      );
      assert.equal(created, true);
      const res = await get('/article_documents/leave-policy');
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/pdf');
      assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="leave\.pdf"/);
      assert.deepEqual(Buffer.from(await res.arrayBuffer()), file);

      // Filed again: the new bytes replace the old ones, whose blob goes when nothing else holds it.
      const first = await server.app.database.db
        .selectFrom('hr_kb_article_documents')
        .select('sha256')
        .where('id', '=', 'leave-policy')
        .executeTakeFirstOrThrow();
      const text = Buffer.from('version two');
      const again = await server.app.services.kbMedia.putDocument(
        clientId,
        'leave-policy',
        { language_code: 'en-us', title: 'Leave policy', description: 'v2', filename: 'leave.txt' },
        Readable.from([text]),
      );
      assert.equal(again.created, false);
      assert.deepEqual(Buffer.from(await (await get('/article_documents/leave-policy')).arrayBuffer()), text);
      assert.equal(await server.app.services.blobs.stat(first.sha256), undefined);

      await refused(await get('/article_documents/leave-policy', other), 404, 'not_found');
      await refused(await get('/article_documents/no-such-file'), 404, 'not_found');
      await assert.rejects(
        server.app.services.kbMedia.putDocument(
          clientId,
          'Not A Slug',
          { language_code: 'en', title: 'x', filename: 'x.txt' },
          Readable.from([text]),
        ),
        /slug/,
      );
    });
  });
}
