import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { pdf } from '../support/pdf.js';
import { code, fields, json, upload } from '../support/processes.js';

interface PdfTemplate {
  id: string;
  name: string;
  file_name: string;
  document_type_id: string | null;
  process_form_id: string | null;
  signature_zones: { id: string; name: string; page: number; x: number; y: number }[];
  form_mapping: { pdf_field_name: string; form_field_id: string }[];
}

for (const dialect of dialects()) {
  describe(`process PDF templates (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    const put = (id: string, body: unknown, caller = hr) => caller.call('PUT', `/process_pdf_templates/${id}`, body);
    const stored = async (id: string) =>
      server.app.database.db.selectFrom('hr_pdf_templates').selectAll().where('id', '=', id).execute();
    const twoPages = async () => upload(server, hr, await pdf(2), 'contract.pdf');

    before(async () => {
      server = await startServer(dialect, { ATRIUM_RATE_LIMIT: '0' });
      hr = await hrCaller(server);
      other = await hrCaller(server);
      const type = await hr.call('PUT', '/employee_document_types/contract', {
        label: 'Contract',
        localized_labels: [{ language_code: 'en', value: 'Contract' }],
        folder_id: 'payroll.payslips',
      });
      assert.equal(type.status, 201, await type.text());
    });
    after(() => server?.close());

    it('PUT creates (201) then replaces (200); GET, the list and HEAD show it; another tenant sees nothing', async () => {
      const body = {
        name: 'Contract',
        upload_id: await twoPages(),
        document_type_id: 'contract',
        signature_zones: [{ id: 'employee', name: 'Employee', page: 2, x: 50, y: 80 }],
        form_mapping: [
          { pdf_field_name: 'Name', form_field_id: 'name' },
          { pdf_field_name: 'Name again', form_field_id: 'name' },
        ],
      };
      const created = await json<PdfTemplate & { created_at: string }>(await put('contract', body), 201);
      assert.deepEqual(
        { ...created, created_at: undefined, updated_at: undefined },
        {
          id: 'contract',
          name: 'Contract',
          file_name: 'contract.pdf',
          document_type_id: 'contract',
          process_form_id: null,
          signature_zones: body.signature_zones,
          form_mapping: body.form_mapping,
          created_at: undefined,
          updated_at: undefined,
        },
      );
      const [row] = await stored('contract');
      assert.equal(row?.page_count, 2);
      const sha = row?.sha256;
      // An update without upload_id keeps the file; every other attribute is replaced.
      const updated = await json<PdfTemplate>(
        await put('contract', { name: 'Contract v2', id: 'contract', file_name: 'c.pdf', process_form_id: 'x' }),
        200,
      );
      assert.equal(updated.name, 'Contract v2');
      assert.equal(updated.file_name, 'c.pdf');
      assert.equal(updated.document_type_id, null);
      assert.deepEqual(updated.signature_zones, []);
      assert.equal((await stored('contract'))[0]?.sha256, sha, 'the file is kept');
      assert.deepEqual(await json(await hr.call('GET', '/process_pdf_templates/contract'), 200), updated);
      const list = await json<unknown[]>(await hr.call('GET', '/process_pdf_templates'), 200);
      assert.deepEqual(list, [
        { id: 'contract', name: 'Contract v2', file_name: 'c.pdf', document_type_id: null, process_form_id: null },
      ]);
      const head = await hr.call('HEAD', '/process_pdf_templates');
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('x-total-count'), '1');
      // Another tenant: 404 on the item, nothing in its list, and its PUT makes its own template.
      assert.equal(await code(await other.call('GET', '/process_pdf_templates/contract'), 404), 'not_found');
      assert.deepEqual(await json(await other.call('GET', '/process_pdf_templates'), 200), []);
      assert.equal((await other.call('HEAD', '/process_pdf_templates')).headers.get('x-total-count'), '0');
      assert.deepEqual(await fields(await put('contract', { name: 'Mine' }, other)), [['upload_id', 'required']]);
    });

    it('refused writes are 422 field errors and change nothing (the upload is not used up)', async () => {
      const uploadId = await twoPages();
      const before = await stored('bad');
      assert.deepEqual(
        await fields(
          await put('bad', {
            name: 'Bad',
            upload_id: uploadId,
            document_type_id: 'ghost',
            signature_zones: [],
          }),
        ),
        [['document_type_id', 'not_found']],
      );
      assert.deepEqual(
        await fields(
          await put('bad', {
            name: 'Bad',
            upload_id: uploadId,
            signature_zones: [
              { id: 'a', name: 'A', page: 1, x: 0, y: 0 },
              { id: 'a', name: 'A again', page: 3, x: 0, y: 0 },
            ],
            form_mapping: [
              { pdf_field_name: 'F', form_field_id: 'f' },
              { pdf_field_name: 'F', form_field_id: 'g' },
            ],
          }),
        ),
        [
          ['signature_zones.1.id', 'duplicate'],
          ['signature_zones.1.page', 'out_of_range'],
          ['form_mapping.1.pdf_field_name', 'duplicate'],
        ],
      );
      assert.deepEqual(await fields(await put('Bad!', { name: 'Bad', upload_id: uploadId })), [
        ['id', 'invalid_format'],
      ]);
      assert.deepEqual(await fields(await put('bad', { name: 'Bad', upload_id: uploadId, id: 'other' })), [
        ['id', 'mismatch'],
      ]);
      assert.deepEqual(await fields(await put('bad', { name: 'Bad' })), [['upload_id', 'required']]);
      const text = await upload(server, hr, Buffer.from('not a pdf'), 'notes.txt');
      assert.deepEqual(await fields(await put('bad', { name: 'Bad', upload_id: text })), [['upload_id', 'not_a_pdf']]);
      assert.deepEqual(
        await fields(await put('bad', { name: 'Bad', upload_id: '00000000-0000-4000-8000-000000000000' })),
        [['upload_id', 'not_found']],
      );
      // Malformed zones and mappings are refused by the schema.
      const shape = await fields(
        await put('bad', {
          name: 'Bad',
          upload_id: uploadId,
          signature_zones: [{ id: 'z', name: 'Z', page: 0, x: -1, y: 0 }],
          form_mapping: [{ pdf_field_name: '', form_field_id: 'not a slug' }],
        }),
      );
      assert.ok(shape.length >= 1, JSON.stringify(shape));
      assert.deepEqual(await stored('bad'), before, 'nothing was written');
      const consumed = await server.app.database.db
        .selectFrom('hr_uploads')
        .select('consumed_at')
        .where('id', '=', uploadId)
        .executeTakeFirstOrThrow();
      assert.equal(consumed.consumed_at, null, 'the upload is still usable');
      assert.equal(
        (await json<PdfTemplate>(await put('bad', { name: 'Good', upload_id: uploadId }), 201)).name,
        'Good',
      );
    });

    it('a new upload replaces the file; another tenant’s upload is unknown', async () => {
      await json(await put('swap', { name: 'Swap', upload_id: await twoPages() }), 201);
      const first = (await stored('swap'))[0]?.sha256;
      const replacement = await upload(server, hr, await pdf(1), 'one.pdf');
      const replaced = await json<PdfTemplate>(await put('swap', { name: 'Swap', upload_id: replacement }), 200);
      assert.equal(replaced.file_name, 'one.pdf');
      const [row] = await stored('swap');
      assert.notEqual(row?.sha256, first);
      assert.equal(row?.page_count, 1);
      // Zones are checked against the new file's pages.
      assert.deepEqual(
        await fields(
          await put('swap', { name: 'Swap', signature_zones: [{ id: 'z', name: 'Z', page: 2, x: 1, y: 1 }] }),
        ),
        [['signature_zones.0.page', 'out_of_range']],
      );
      const theirs = await upload(server, other, await pdf(1), 'theirs.pdf');
      assert.deepEqual(await fields(await put('swap', { name: 'Swap', upload_id: theirs })), [
        ['upload_id', 'not_found'],
      ]);
    });
  });
}
