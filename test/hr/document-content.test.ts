/** A document type's `file_type_restrictions` check the bytes as well as the name (issue 16, item 10). */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'), randomBytes(2000)]);
/** A Windows executable's first bytes (the `MZ` header and the PE signature file-type looks for). */
const EXE = (() => {
  const bytes = Buffer.alloc(4096);
  bytes.write('MZ', 0, 'latin1');
  bytes.writeUInt32LE(0x80, 0x3c);
  bytes.write('PE\0\0', 0x80, 'latin1');
  return bytes;
})();
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0, 0, 0]), randomBytes(200)]);

for (const dialect of dialects()) {
  describe(`document content against file_type_restrictions (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;

    const upload = async (data: Buffer, filename: string) => {
      const form = new FormData();
      form.append('file', new Blob([data]), filename);
      const res = await fetch(`${server.url}/api/v2/client/document`, {
        method: 'POST',
        headers: { authorization: `Bearer ${hr.token}` },
        body: form,
      });
      assert.equal(res.status, 201);
      return (await res.json()) as { filename: string; file_id: string };
    };
    const create = (type: string, file: { filename: string; file_id: string }) =>
      hr.call('POST', '/company_documents', {
        document_type_id: type,
        title: 'A file',
        organization_ids: ['hq'],
        uploaded_file: file,
      });
    const errorsOf = async (res: Response) => {
      const body = (await res.json()) as { code: string; errors?: { field: string; code: string }[] };
      assert.equal(res.status, 422, JSON.stringify(body));
      return (body.errors ?? []).map((e) => [e.field, e.code]);
    };

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      assert.equal((await hr.call('PUT', '/organizations/hq', { name: 'HQ' })).status, 201);
      for (const [id, restrictions] of [
        ['pdf_only', ['pdf']],
        ['text_only', ['txt']],
        ['anything', []],
      ] as const) {
        const res = await hr.call('PUT', `/company_document_types/${id}`, {
          localized_labels: [{ language_code: 'en', value: id }],
          file_type_restrictions: restrictions,
        });
        assert.equal(res.status, 201, await res.text());
      }
    });
    after(() => server.close());

    it('an executable named x.pdf is refused, and its upload stays unconsumed', async () => {
      const file = await upload(EXE, 'x.pdf');
      assert.deepEqual(await errorsOf(await create('pdf_only', file)), [
        ['uploaded_file.file_id', 'invalid_file_type'],
      ]);
      const count = await server.app.database.db
        .selectFrom('hr_documents')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 0, 'nothing was written');
      // Not consumed: a type without restrictions takes the same upload.
      assert.equal((await create('anything', file)).status, 201);
    });

    it('a real PDF named x.pdf is accepted', async () => {
      assert.equal((await create('pdf_only', await upload(PDF, 'payslip.pdf'))).status, 201);
    });

    it('a type restricted to text takes text, not an image named x.txt', async () => {
      assert.deepEqual(await errorsOf(await create('text_only', await upload(GIF, 'x.txt'))), [
        ['uploaded_file.file_id', 'invalid_file_type'],
      ]);
      assert.equal((await create('text_only', await upload(Buffer.from('plain words\n'), 'notes.txt'))).status, 201);
    });

    it('the name is still checked first', async () => {
      assert.deepEqual(await errorsOf(await create('pdf_only', await upload(PDF, 'payslip.docx'))), [
        ['uploaded_file.filename', 'invalid_extension'],
      ]);
    });
  });
}
