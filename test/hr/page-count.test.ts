/**
 * Page counts of PDFs (issue 24, item 4): `page_count` on `POST /uploads`, kept on the document made from the
 * upload, and `X-Page-Count` on `HEAD` (and `GET`) of `/{kind}_documents/{id}/file`. Anything that is not a
 * readable PDF has a null count and no header, and never fails the upload.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { CYCLIC, ENCRYPTED, pdf, sharedPageTree } from '../support/pdf.js';

/** Starts like a PDF (so it is sniffed as one), then is noise. */
const CORRUPT = Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'), randomBytes(3000)]);

interface UploadBody {
  id: string;
  filename: string;
  content_type: string;
  size: number;
  page_count: number | null;
}

for (const dialect of dialects()) {
  describe(`PDF page counts (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;

    const upload = async (data: Buffer, filename: string): Promise<UploadBody> => {
      const form = new FormData();
      form.append('file', new Blob([data]), filename);
      const res = await fetch(`${server.url}/api/v2/client/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${hr.token}` },
        body: form,
      });
      const body = (await res.json()) as UploadBody;
      assert.equal(res.status, 201, JSON.stringify(body));
      assert.equal(body.size, data.length);
      return body;
    };
    const storedUpload = async (id: string) =>
      server.app.database.db
        .selectFrom('hr_uploads')
        .select(['page_count', 'content_type'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const storedDocument = async (id: string) =>
      server.app.database.db
        .selectFrom('hr_documents')
        .select(['page_count', 'kind'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    /** Makes a document of the upload; answers its id. */
    const document = async (kind: 'employee' | 'company', up: UploadBody): Promise<string> => {
      const body =
        kind === 'employee'
          ? { employee_id: employeeId, document_type_id: 'contract' }
          : { organization_ids: ['hq'], document_type_id: 'policy' };
      const res = await hr.call('POST', `/${kind}_documents`, {
        ...body,
        uploaded_file: { filename: up.filename, file_id: up.id },
      });
      const created = (await res.json()) as { id: string };
      assert.equal(res.status, 201, JSON.stringify(created));
      return created.id;
    };
    const file = (method: 'HEAD' | 'GET', kind: string, id: string) =>
      fetch(`${server.url}/api/v2/client/${kind}_documents/${id}/file`, {
        method,
        headers: { authorization: `Bearer ${hr.token}` },
      });

    let employeeId: string;

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      assert.equal((await hr.call('PUT', '/organizations/hq', { name: 'HQ' })).status, 201);
      const employee = await hr.call('POST', '/employees', {
        firstname: 'Ada',
        lastname: 'Lovelace',
        email: 'ada@example.com',
        registration_references: [{ organization_id: 'hq', employee_number: '0001' }],
      });
      assert.equal(employee.status, 201, await employee.clone().text());
      employeeId = ((await employee.json()) as { id: string }).id;
      for (const [kind, id] of [
        ['employee', 'contract'],
        ['company', 'policy'],
      ] as const) {
        const res = await hr.call('PUT', `/${kind}_document_types/${id}`, {
          localized_labels: [{ language_code: 'en', value: id }],
        });
        assert.equal(res.status, 201, await res.text());
      }
    });
    after(() => server.close());

    it('counts the pages of a PDF upload, keeps the count and answers it', async () => {
      for (const [pages, objectStreams] of [
        [1, true],
        [3, true],
        [3, false],
      ] as const) {
        const up = await upload(await pdf(pages, { objectStreams }), `doc-${pages}.pdf`);
        assert.equal(up.content_type, 'application/pdf');
        assert.equal(up.page_count, pages, `${pages} pages, object streams ${objectStreams}`);
        assert.deepEqual(await storedUpload(up.id), { page_count: pages, content_type: 'application/pdf' });
      }
    });

    it('a raw-body upload and POST /document count the pages too', async () => {
      const res = await fetch(`${server.url}/api/v2/client/uploads`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${hr.token}`,
          'content-type': 'application/pdf',
          'content-disposition': 'attachment; filename="raw.pdf"',
        },
        body: await pdf(2),
      });
      const body = (await res.json()) as UploadBody;
      assert.equal(res.status, 201, JSON.stringify(body));
      assert.equal(body.page_count, 2);
      assert.equal((await storedUpload(body.id)).page_count, 2);

      const form = new FormData();
      form.append('file', new Blob([await pdf(4)]), 'doc.pdf');
      const doc = await fetch(`${server.url}/api/v2/client/document`, {
        method: 'POST',
        headers: { authorization: `Bearer ${hr.token}` },
        body: form,
      });
      const fileId = (await doc.json()) as { file_id: string; filename: string };
      assert.equal(doc.status, 201);
      assert.deepEqual(Object.keys(fileId).sort(), ['file_id', 'filename'], 'DocumentFileId is unchanged');
      assert.equal((await storedUpload(fileId.file_id)).page_count, 4);
    });

    for (const kind of ['employee', 'company'] as const) {
      it(`a ${kind} document keeps its upload's count: X-Page-Count on HEAD and GET of its file`, async () => {
        const bytes = await pdf(3);
        const id = await document(kind, await upload(bytes, 'three.pdf'));
        assert.deepEqual(await storedDocument(id), { page_count: 3, kind });

        const head = await file('HEAD', kind, id);
        assert.equal(head.status, 200);
        assert.equal(head.headers.get('x-page-count'), '3');
        assert.equal(head.headers.get('content-type'), 'application/pdf');
        assert.equal(head.headers.get('content-length'), String(bytes.length));
        assert.equal((await head.arrayBuffer()).byteLength, 0);

        const get = await file('GET', kind, id);
        assert.equal(get.status, 200);
        assert.equal(get.headers.get('x-page-count'), '3');
        assert.deepEqual(Buffer.from(await get.arrayBuffer()), bytes);
      });
    }

    it('a file that is not a PDF has a null count, and its document no X-Page-Count', async () => {
      const up = await upload(Buffer.from('Employment contract of Ada Lovelace\n'), 'contract.txt');
      assert.equal(up.content_type, 'application/octet-stream');
      assert.equal(up.page_count, null);
      assert.ok('page_count' in up, 'page_count is sent, as null');
      assert.equal((await storedUpload(up.id)).page_count, null);

      const id = await document('employee', up);
      assert.equal((await storedDocument(id)).page_count, null);
      const head = await file('HEAD', 'employee', id);
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('x-page-count'), null);
      assert.equal(head.headers.get('content-length'), String(36));
    });

    it('a corrupt PDF is accepted with a null count, and its document has no X-Page-Count', async () => {
      const up = await upload(CORRUPT, 'broken.pdf');
      assert.equal(up.content_type, 'application/pdf');
      assert.equal(up.page_count, null);
      assert.equal((await storedUpload(up.id)).page_count, null);

      const id = await document('company', up);
      assert.equal((await storedDocument(id)).page_count, null);
      const head = await file('HEAD', 'company', id);
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('x-page-count'), null);
      assert.equal(head.headers.get('content-type'), 'application/pdf');
    });

    it('page trees the library would walk forever or overflow on are null, and the server goes on', async () => {
      for (const [name, bytes] of [
        ['shared.pdf', sharedPageTree(40)],
        ['cyclic.pdf', CYCLIC],
      ] as const) {
        const up = await upload(bytes, name);
        assert.equal(up.content_type, 'application/pdf', name);
        assert.equal(up.page_count, null, name);
        assert.equal((await storedUpload(up.id)).page_count, null, name);
      }
      // The counter still works after them.
      assert.equal((await upload(await pdf(2), 'after.pdf')).page_count, 2);
    });

    it('an encrypted PDF is counted without its password', async () => {
      const up = await upload(ENCRYPTED, 'secret.pdf');
      assert.equal(up.content_type, 'application/pdf');
      assert.equal(up.page_count, 2);
      assert.equal((await storedUpload(up.id)).page_count, 2);
    });
  });
}
