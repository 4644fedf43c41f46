import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

interface Doc {
  id: string;
  employee_id?: string;
  employee_external_id?: string | null;
  document_type_id: string;
  title: string | null;
  name: string;
  date: string | null;
  organization_ids: string[];
  metadata: { code: string; value: string }[];
  external_reference: string | null;
  origin: string;
  trashed: boolean;
  expired: boolean;
  expiry_date: string | null;
  created_at: string;
}

interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string }[];
}

const MiB = 1024 * 1024;
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'), randomBytes(3000)]);
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text) as T;
}

async function fields(res: Response, status = 422): Promise<[string, string][]> {
  const body = await json<ErrorBody>(res, status);
  assert.equal(body.code, 'validation_error');
  return (body.errors ?? []).map((e) => [e.field, e.code]);
}

for (const dialect of dialects()) {
  describe(`Document manager: folders, types, employee and company documents (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    let employeeId: string;
    let leaverId: string;

    /** POST /document with a multipart file: answers the `uploaded_file` of a create. */
    const upload = async (caller: HrCaller, data: Buffer, filename: string) => {
      const form = new FormData();
      form.append('file', new Blob([data]), filename);
      const res = await fetch(`${server.url}/api/v2/client/document`, {
        method: 'POST',
        headers: { authorization: `Bearer ${caller.token}` },
        body: form,
      });
      return json<{ filename: string; file_id: string }>(res, 201);
    };
    const createDoc = (caller: HrCaller, body: Record<string, unknown>) =>
      caller.call('POST', '/employee_documents', body);
    const blobCount = async (hash: string) =>
      (await server.app.database.db.selectFrom('blobs').select('sha256').where('sha256', '=', hash).execute()).length;

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      other = await hrCaller(server);
      for (const [org, parent] of [
        ['group', null],
        ['paris', 'group'],
        ['lyon', 'group'],
      ] as const) {
        await json(await hr.call('PUT', `/organizations/${org}`, { name: org, parent_organization_id: parent }), 201);
      }
      await json(await other.call('PUT', '/organizations/paris', { name: 'Other Paris' }), 201);
      const emp = await json<{ id: string }>(
        await hr.call('POST', '/employees', {
          firstname: 'Ada',
          lastname: 'Lovelace',
          email: 'ada@example.com',
          external_id: 'EXT-ADA',
          registration_references: [
            { organization_id: 'paris', employee_number: 'A1' },
            { organization_id: 'lyon', employee_number: 'A2', active: false },
          ],
        }),
        201,
      );
      employeeId = emp.id;
      const leaver = await json<{ id: string }>(
        await hr.call('POST', '/employees', {
          firstname: 'Grace',
          lastname: 'Hopper',
          email: 'grace@example.com',
          registration_references: [{ organization_id: 'lyon', employee_number: 'G1', active: false }],
        }),
        201,
      );
      leaverId = leaver.id;
      await json(await hr.call('PUT', '/roles/hr_admin', { id: 'hr_admin', name: 'HR admin' }), 201);
    });
    after(() => server.close());

    it('every client has a read-only default folder tree; filters by parent, child and name', async () => {
      const all = await json<{ id: string; parent_folder_id: string | null; localized_labels: unknown[] }[]>(
        await hr.call('GET', '/employee_folders?per_page=100'),
        200,
      );
      assert.ok(
        all.some((f) => f.id === 'default'),
        'the default folder',
      );
      assert.ok(
        all.some((f) => f.id === 'payroll.payslips' && f.parent_folder_id === 'payroll'),
        'a child folder',
      );
      const children = await json<{ id: string }[]>(
        await hr.call('GET', '/employee_folders?parent_folder_id=payroll'),
        200,
      );
      assert.deepEqual(
        children.map((f) => f.id),
        ['payroll.payslips'],
      );
      const parents = await json<{ id: string }[]>(
        await hr.call('GET', '/employee_folders?child_folder_id=certificates.employment-certificates'),
        200,
      );
      assert.deepEqual(
        parents.map((f) => f.id),
        ['certificates'],
      );
      const named = await json<{ id: string }[]>(await hr.call('GET', '/employee_folders?q=payslip'), 200);
      assert.deepEqual(
        named.map((f) => f.id),
        ['payroll.payslips'],
      );
      const one = await json<{ id: string }[]>(await hr.call('GET', '/employee_folders/payroll'), 200);
      assert.deepEqual(
        one.map((f) => f.id),
        ['payroll'],
        'an array holding the folder, as in the reference',
      );
      assert.deepEqual(
        (one[0] as unknown as { localized_labels: unknown }).localized_labels,
        [
          { language_code: 'en-us', value: 'Payroll' },
          { language_code: 'fr-fr', value: 'Paie' },
        ],
        "the reference's language codes",
      );
      assert.equal((await hr.call('GET', '/employee_folders/nope')).status, 404);
      assert.deepEqual(await fields(await hr.call('GET', '/employee_folders?parent_folder_id=nope')), [
        ['parent_folder_id', 'not_found'],
      ]);
      const company = await json<{ id: string }[]>(await hr.call('GET', '/company_folders?per_page=100'), 200);
      assert.ok(
        company.some((f) => f.id === 'policies.handbooks'),
        'company folders have their own tree',
      );
      const paged = await hr.call('GET', '/employee_folders?per_page=2');
      assert.equal((await json<unknown[]>(paged, 200)).length, 2);
      assert.ok(paged.headers.get('next-cursor'), 'folders are paginated');
    });

    it('document types: PUT creates (201) then updates (200) without changing the label; PATCH; filters; field errors', async () => {
      const created = await json<Record<string, unknown>>(
        await hr.call('PUT', '/employee_document_types/payslip', {
          label: 'Payslip',
          localized_labels: [{ language_code: 'en', value: 'Payslip' }],
          folder_id: 'payroll.payslips',
          file_type_restrictions: ['pdf'],
          employee_access_permissions: ['preview', 'dl_original'],
          user_access_permissions: [{ role_id: 'hr_admin', permissions: ['preview', 'share', 'delete'] }],
          metadata: [
            { code: 'period', type: 'date', localized_labels: [], is_required: true },
            {
              code: 'kind',
              type: 'list',
              authorized_values: ['monthly', 'bonus'],
              localized_labels: [],
              is_required: false,
            },
          ],
        }),
        201,
      );
      assert.equal(created.label, 'Payslip');
      assert.equal(created.update_documents_on_employee_transfer, 'add', 'the reference default');
      const updated = await json<Record<string, unknown>>(
        await hr.call('PUT', '/employee_document_types/payslip', {
          label: 'Renamed',
          localized_labels: [{ language_code: 'en', value: 'Pay slip' }],
          folder_id: 'payroll.payslips',
          file_type_restrictions: ['pdf'],
          employee_access_permissions: ['preview', 'dl_original'],
          metadata: [
            { code: 'period', type: 'date', localized_labels: [], is_required: true },
            {
              code: 'kind',
              type: 'list',
              authorized_values: ['monthly', 'bonus'],
              localized_labels: [],
              is_required: false,
            },
          ],
        }),
        200,
      );
      assert.equal(updated.label, 'Payslip', 'PUT does not change the label');
      assert.deepEqual(updated.localized_labels, [{ language_code: 'en', value: 'Pay slip' }]);
      assert.deepEqual(updated.user_access_permissions, [], 'PUT replaces the other attributes');
      const patched = await json<Record<string, unknown>>(
        await hr.call('PATCH', '/employee_document_types/payslip', { label: 'Nope', add_templates: ['tpl-1'] }),
        200,
      );
      assert.equal(patched.label, 'Payslip');
      assert.deepEqual(patched.templates, ['tpl-1']);
      assert.deepEqual(patched.file_type_restrictions, ['pdf'], 'PATCH keeps what was not sent');
      // A type without folder goes to the default folder.
      const contract = await json<Record<string, unknown>>(
        await hr.call('PUT', '/employee_document_types/contract', {
          localized_labels: [{ language_code: 'en', value: 'Contract' }],
        }),
        201,
      );
      assert.equal(contract.folder_id, 'default');
      assert.equal(contract.label, 'Contract', 'the label defaults to the first localized label');
      assert.deepEqual(
        (
          await json<{ id: string }[]>(await hr.call('GET', '/employee_document_types?folder_id=payroll.payslips'), 200)
        ).map((t) => t.id),
        ['payslip'],
      );
      assert.deepEqual(
        (
          await json<{ id: string }[]>(
            await hr.call('GET', '/employee_document_types?with_mandatory_metadata=true'),
            200,
          )
        ).map((t) => t.id),
        ['payslip'],
      );
      assert.deepEqual(
        (
          await json<{ id: string }[]>(
            await hr.call('GET', '/employee_document_types?employee_access_permissions=preview'),
            200,
          )
        ).map((t) => t.id),
        ['payslip'],
      );
      assert.deepEqual(
        (await json<{ id: string }[]>(await hr.call('GET', '/employee_document_types?q=contr'), 200)).map((t) => t.id),
        ['contract'],
      );
      assert.deepEqual(
        (
          await json<{ id: string }[]>(await hr.call('GET', '/employee_document_types?document_template_id=tpl-1'), 200)
        ).map((t) => t.id),
        ['payslip'],
      );
      assert.equal((await hr.call('GET', '/employee_document_types/nope')).status, 404);
      assert.deepEqual(
        await fields(
          await hr.call('PUT', '/employee_document_types/bad', {
            localized_labels: [{ language_code: 'en', value: 'Bad' }],
            folder_id: 'nowhere',
            user_access_permissions: [{ role_id: 'ghost', permissions: ['preview'] }],
            metadata: [{ code: 'x', type: 'list', localized_labels: [], is_required: false }],
            synchronized_custom_fields: ['nope'],
          }),
        ),
        [
          ['folder_id', 'not_found'],
          ['user_access_permissions.0.role_id', 'not_found'],
          ['synchronized_custom_fields.0', 'not_found'],
          ['metadata.0.authorized_values', 'required'],
        ],
      );
      const shape = await fields(
        await hr.call('PUT', '/employee_document_types/bad', {
          localized_labels: [],
          employee_access_permissions: ['fly'],
        }),
      );
      assert.ok(
        shape.some(([f, c]) => f === 'localized_labels' && c === 'too_few'),
        JSON.stringify(shape),
      );
      assert.ok(
        shape.some(([f]) => f === 'employee_access_permissions.0'),
        JSON.stringify(shape),
      );
      assert.equal((await hr.call('GET', '/employee_document_types/bad')).status, 404, 'nothing was written');
    });

    it('creates an employee document from POST /document, with default organizations; GET shows it', async () => {
      const file = await upload(hr, PDF, '../../etc/Payslip 2026-01.pdf');
      assert.equal(file.filename, 'Payslip 2026-01.pdf', 'no path survives in the name');
      const doc = await json<Doc>(
        await createDoc(hr, {
          employee_id: employeeId,
          document_type_id: 'payslip',
          title: 'January payslip',
          date: '2026-01-31',
          metadata: [
            { code: 'period', value: '2026-01-01' },
            { code: 'kind', value: 'monthly' },
          ],
          external_reference: 'PAY-2026-01',
          uploaded_file: file,
        }),
        201,
      );
      assert.equal(doc.employee_id, employeeId);
      assert.equal(doc.employee_external_id, 'EXT-ADA');
      assert.equal(doc.name, 'Payslip 2026-01.pdf');
      assert.equal(doc.origin, 'api');
      assert.equal(doc.trashed, false);
      assert.equal(doc.expired, false);
      assert.deepEqual(doc.organization_ids, ['paris'], 'the employee’s active organizations');
      assert.match(doc.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
      const read = await json<Doc>(await hr.call('GET', `/employee_documents/${doc.id}`), 200);
      assert.deepEqual(read, doc);
      // By external id, attached to an inactive organization explicitly; a terminated employee gets the inactive ones.
      const byExternal = await json<Doc>(
        await createDoc(hr, {
          employee_external_id: 'EXT-ADA',
          document_type_id: 'contract',
          organization_ids: ['lyon'],
          uploaded_file: await upload(hr, Buffer.from('a contract'), 'contract.txt'),
        }),
        201,
      );
      assert.deepEqual(byExternal.organization_ids, ['lyon']);
      const leaverDoc = await json<Doc>(
        await createDoc(hr, {
          employee_id: leaverId,
          document_type_id: 'contract',
          uploaded_file: await upload(hr, Buffer.from('leaver contract'), 'leaver.txt'),
        }),
        201,
      );
      assert.deepEqual(leaverDoc.organization_ids, ['lyon']);
      // A raw upload from POST /uploads works as well.
      const raw = await fetch(`${server.url}/api/v2/client/uploads`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${hr.token}`,
          'content-type': 'application/octet-stream',
          'content-disposition': 'attachment; filename="raw.txt"',
        },
        body: Buffer.from('raw bytes'),
      });
      const rawUpload = await json<{ id: string; filename: string }>(raw, 201);
      const fromUploads = await json<Doc>(
        await createDoc(hr, {
          employee_id: employeeId,
          document_type_id: 'contract',
          uploaded_file: { filename: rawUpload.filename, file_id: rawUpload.id },
        }),
        201,
      );
      assert.equal(fromUploads.name, 'raw.txt');
    });

    it('concurrent creates of one unique reference: exactly one is made, the others are 409', async () => {
      const base = {
        employee_id: employeeId,
        document_type_id: 'payslip',
        metadata: [{ code: 'period', value: '2026-02-01' }],
        external_reference: 'RACE-1',
        external_reference_is_unique: true,
      };
      const files = [];
      for (let i = 0; i < 6; i++) files.push(await upload(hr, PDF, `race-${i}.pdf`));
      const answers = await Promise.all(files.map((file) => createDoc(hr, { ...base, uploaded_file: file })));
      const statuses = answers.map((r) => r.status).sort();
      assert.deepEqual(statuses, [201, 409, 409, 409, 409, 409], 'one made, five refused');
      for (const r of answers.filter((a) => a.status === 409)) {
        assert.equal((await json<ErrorBody>(r, 409)).code, 'conflict', 'a conflict body');
      }
      const rows = await server.app.database.db
        .selectFrom('hr_documents')
        .select('id')
        .where('external_reference', '=', 'RACE-1')
        .execute();
      assert.equal(rows.length, 1, 'one document has the reference');
    });

    it('every bad create is a 422 field error and writes nothing; a duplicate unique reference is 409', async () => {
      const count = async () => (await server.app.database.db.selectFrom('hr_documents').select('id').execute()).length;
      const before = await count();
      const file = await upload(hr, PDF, 'p.pdf');
      const base = {
        employee_id: employeeId,
        document_type_id: 'payslip',
        metadata: [{ code: 'period', value: '2026-02-01' }],
      };
      assert.deepEqual(await fields(await createDoc(hr, { ...base })), [['uploaded_file', 'required']]);
      assert.deepEqual(await fields(await createDoc(hr, { ...base, employee_id: undefined, uploaded_file: file })), [
        ['employee_id', 'required'],
      ]);
      assert.deepEqual(
        await fields(
          await createDoc(hr, {
            ...base,
            employee_id: '00000000-0000-4000-8000-000000000000',
            document_type_id: 'nope',
            uploaded_file: file,
          }),
        ),
        [
          ['document_type_id', 'not_found'],
          ['employee_id', 'not_found'],
        ],
      );
      assert.deepEqual(
        await fields(
          await createDoc(hr, {
            ...base,
            uploaded_file: { filename: 'p.pdf', file_id: '00000000-0000-4000-8000-000000000000' },
          }),
        ),
        [['uploaded_file.file_id', 'not_found']],
      );
      assert.deepEqual(await fields(await createDoc(hr, { ...base, uploaded_file: { ...file, filename: 'p.docx' } })), [
        ['uploaded_file.filename', 'invalid_extension'],
      ]);
      assert.deepEqual(
        await fields(await createDoc(hr, { ...base, organization_ids: ['group'], uploaded_file: file })),
        [['organization_ids.0', 'not_member']],
      );
      assert.deepEqual(
        await fields(
          await createDoc(hr, {
            ...base,
            metadata: [
              { code: 'kind', value: 'weekly' },
              { code: 'ghost', value: '1' },
            ],
            uploaded_file: file,
          }),
        ),
        [
          ['metadata.0.value', 'invalid_choice'],
          ['metadata.1.code', 'not_found'],
          ['metadata', 'required'],
        ],
      );
      assert.deepEqual(await fields(await createDoc(hr, { ...base, date: '2026-02-30', uploaded_file: file })), [
        ['date', 'invalid_date'],
      ]);
      assert.equal(await count(), before, 'nothing was written');
      // The upload is still usable after all those refusals, once.
      const ok = { ...base, external_reference: 'UNIQUE-1', external_reference_is_unique: true, uploaded_file: file };
      await json(await createDoc(hr, ok), 201);
      assert.deepEqual(await fields(await createDoc(hr, { ...ok, external_reference: 'UNIQUE-2' })), [
        ['uploaded_file.file_id', 'already_used'],
      ]);
      const dup = await createDoc(hr, { ...ok, uploaded_file: await upload(hr, PDF, 'p.pdf') });
      assert.equal((await json<ErrorBody>(dup, 409)).code, 'conflict');
      // Without the flag, the same reference is allowed.
      await json(
        await createDoc(hr, {
          ...ok,
          external_reference_is_unique: false,
          uploaded_file: await upload(hr, PDF, 'p.pdf'),
        }),
        201,
      );
      // Another client's employee, type and upload are unknown here.
      const foreignFile = await upload(other, PDF, 'x.pdf');
      await json(
        await other.call('PUT', '/employee_document_types/payslip', {
          localized_labels: [{ language_code: 'en', value: 'Theirs' }],
        }),
        201,
      );
      await json(
        await other.call('PUT', '/employee_document_types/theirs-only', {
          localized_labels: [{ language_code: 'en', value: 'Theirs only' }],
        }),
        201,
      );
      assert.deepEqual(await fields(await createDoc(hr, { ...base, uploaded_file: foreignFile })), [
        ['uploaded_file.file_id', 'not_found'],
      ]);
      assert.deepEqual(
        await fields(
          await createDoc(other, { employee_id: employeeId, document_type_id: 'payslip', uploaded_file: foreignFile }),
        ),
        [['employee_id', 'not_found']],
      );
      assert.deepEqual(
        await fields(
          await createDoc(hr, {
            employee_id: employeeId,
            document_type_id: 'theirs-only',
            uploaded_file: await upload(hr, PDF, 'p.pdf'),
          }),
        ),
        [['document_type_id', 'not_found']],
        'another client’s type',
      );
    });

    it('a 10 MiB file downloads byte for byte; HEAD gives the headers; a range read answers 206', async () => {
      const big = randomBytes(10 * MiB);
      const doc = await json<Doc>(
        await createDoc(hr, {
          employee_id: employeeId,
          document_type_id: 'contract',
          uploaded_file: await upload(hr, big, 'big.bin'),
        }),
        201,
      );
      const res = await hr.call('GET', `/employee_documents/${doc.id}/file`);
      assert.equal(res.status, 200);
      const bytes = Buffer.from(await res.arrayBuffer());
      assert.equal(bytes.length, big.length);
      assert.equal(sha(bytes), sha(big));
      assert.equal(res.headers.get('content-length'), String(big.length));
      assert.equal(res.headers.get('content-type'), 'application/octet-stream');
      assert.match(res.headers.get('content-disposition') ?? '', /attachment; filename="big.bin"/);
      const head = await hr.call('HEAD', `/employee_documents/${doc.id}/file`);
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('content-length'), String(big.length));
      assert.equal((await head.arrayBuffer()).byteLength, 0);
      const part = await hr.call('GET', `/employee_documents/${doc.id}/file`, undefined, { range: 'bytes=1000-1999' });
      assert.equal(part.status, 206);
      assert.equal(part.headers.get('content-range'), `bytes 1000-1999/${big.length}`);
      assert.deepEqual(Buffer.from(await part.arrayBuffer()), big.subarray(1000, 2000));
      const pdf = await json<Doc>(
        await createDoc(hr, {
          employee_id: employeeId,
          document_type_id: 'payslip',
          metadata: [{ code: 'period', value: '2026-03-01' }],
          uploaded_file: await upload(hr, PDF, 'march.pdf'),
        }),
        201,
      );
      const pdfRes = await hr.call('HEAD', `/employee_documents/${pdf.id}/file`);
      assert.equal(pdfRes.headers.get('content-type'), 'application/pdf', 'sniffed from the bytes');
      assert.equal(
        (await hr.call('GET', `/employee_documents/${pdf.id}/file`, undefined, { range: 'bytes=999999-' })).status,
        416,
      );
    });

    it('PUT replaces, PATCH merges; expire and expiration drive expired and the filters', async () => {
      const doc = await json<Doc>(
        await createDoc(hr, {
          employee_id: employeeId,
          document_type_id: 'contract',
          title: 'Old title',
          external_reference: 'REF-UPD',
          uploaded_file: await upload(hr, Buffer.from('update me'), 'u.txt'),
        }),
        201,
      );
      const patched = await json<Doc>(
        await hr.call('PATCH', `/employee_documents/${doc.id}`, { title: 'New title' }),
        200,
      );
      assert.equal(patched.title, 'New title');
      assert.equal(patched.external_reference, 'REF-UPD', 'PATCH keeps what was not sent');
      const put = await json<Doc>(
        await hr.call('PUT', `/employee_documents/${doc.id}`, { document_type_id: 'contract', date: '2025-12-01' }),
        200,
      );
      assert.equal(put.title, null, 'PUT clears what was not sent');
      assert.equal(put.external_reference, null);
      assert.equal(put.date, '2025-12-01');
      assert.equal(put.employee_id, employeeId, 'the owner is kept');
      assert.deepEqual(
        await fields(await hr.call('PATCH', `/employee_documents/${doc.id}`, { document_type_id: 'nope' })),
        [['document_type_id', 'not_found']],
      );
      const search = async (body: Record<string, unknown>) =>
        (await json<Doc[]>(await hr.call('POST', '/employee_documents/search', { per_page: 100, ...body }), 200)).map(
          (d) => d.id,
        );
      assert.ok((await search({ date_until: '2025-12-31' })).includes(doc.id), 'date filter uses the document date');
      assert.ok(!(await search({ date_since: '2026-01-01' })).includes(doc.id));
      let res = await hr.call('PUT', `/employee_documents/${doc.id}/expire`, { expiry_date: '2020-01-01' });
      assert.equal(res.status, 204);
      assert.equal((await json<Doc>(await hr.call('GET', `/employee_documents/${doc.id}`), 200)).expired, true);
      assert.ok(!(await search({})).includes(doc.id), 'expired documents are left out by default');
      assert.deepEqual(await search({ expired: true }), [doc.id]);
      assert.deepEqual(
        await search({ expired: true, expiry_date_until: '2020-01-01', expiry_date_since: '2020-01-01' }),
        [doc.id],
      );
      res = await hr.call('PUT', `/employee_documents/${doc.id}/expire`, { expiry_date: null });
      assert.equal(res.status, 204);
      assert.ok((await search({})).includes(doc.id));
      res = await hr.call('PUT', `/employee_documents/${doc.id}/expiration/update`, { expiration_date: '2026-06-30' });
      assert.equal(res.status, 204);
      assert.deepEqual(await search({ expiration_date_until: '2026-07-01' }), [doc.id]);
      assert.deepEqual(await search({ expiration_date_until: '2026-06-01' }), []);
      assert.deepEqual(
        await fields(await hr.call('PUT', `/employee_documents/${doc.id}/expire`, { expiry_date: 'soon' })),
        [['expiry_date', 'invalid_date']],
      );
    });

    it('the trash cycle: trash hides, untrash restores, emptying the trash deletes for good with the bytes', async () => {
      const data = randomBytes(5000);
      const doc = await json<Doc>(
        await createDoc(hr, {
          employee_id: employeeId,
          document_type_id: 'contract',
          uploaded_file: await upload(hr, data, 'trash.bin'),
        }),
        201,
      );
      const search = async (body: Record<string, unknown>) =>
        (await json<Doc[]>(await hr.call('POST', '/employee_documents/search', { per_page: 100, ...body }), 200)).map(
          (d) => d.id,
        );
      // An empty JSON body is no body.
      let res = await hr.call('PUT', `/employee_documents/${doc.id}/trash`, '');
      assert.equal(res.status, 200);
      assert.equal(await res.text(), '');
      assert.equal((await json<Doc>(await hr.call('GET', `/employee_documents/${doc.id}`), 200)).trashed, true);
      assert.ok(!(await search({})).includes(doc.id));
      assert.ok((await search({ trashed: true })).includes(doc.id));
      res = await hr.call('PUT', `/employee_documents/${doc.id}/untrash`);
      assert.equal(res.status, 200);
      assert.ok((await search({})).includes(doc.id));
      await hr.call('PUT', `/employee_documents/${doc.id}/trash`);
      assert.equal(await blobCount(sha(data)), 1);
      res = await hr.call('DELETE', '/employee_documents/trash', '');
      assert.equal(res.status, 204);
      assert.equal((await hr.call('GET', `/employee_documents/${doc.id}`)).status, 404);
      assert.equal(await blobCount(sha(data)), 0, 'the bytes went with the last document');
      assert.deepEqual(await search({ trashed: true }), []);
    });

    it('hard delete removes the document, and its bytes once no other document holds them', async () => {
      const data = randomBytes(4000);
      const make = async () =>
        json<Doc>(
          await createDoc(hr, {
            employee_id: employeeId,
            document_type_id: 'contract',
            uploaded_file: await upload(hr, data, 'shared.bin'),
          }),
          201,
        );
      const a = await make();
      const b = await make();
      assert.equal((await hr.call('DELETE', `/employee_documents/${a.id}`)).status, 204);
      assert.equal((await hr.call('GET', `/employee_documents/${a.id}`)).status, 404);
      assert.equal(await blobCount(sha(data)), 1, 'the other document still holds the bytes');
      const still = await hr.call('GET', `/employee_documents/${b.id}/file`);
      assert.equal(sha(Buffer.from(await still.arrayBuffer())), sha(data));
      assert.equal((await hr.call('DELETE', `/employee_documents/${b.id}`)).status, 204);
      assert.equal(await blobCount(sha(data)), 0);
      assert.equal((await hr.call('DELETE', `/employee_documents/${b.id}`)).status, 404);
    });

    it('search: every filter, compact answers, page/per_page as in the reference and cursors', async () => {
      const search = async (body: Record<string, unknown>) =>
        json<Doc[]>(await hr.call('POST', '/employee_documents/search', { per_page: 100, ...body }), 200);
      const all = await search({});
      assert.ok(all.length >= 6, `documents created above: ${all.length}`);
      const payslips = await search({ document_type_id: 'payslip' });
      assert.ok(payslips.length >= 2 && payslips.every((d) => d.document_type_id === 'payslip'), 'by type');
      assert.ok((await search({ employee_id: leaverId })).every((d) => d.employee_id === leaverId));
      assert.equal((await search({ employee_id: leaverId })).length, 1);
      assert.deepEqual(
        (await search({ external_reference: 'PAY-2026-01' })).map((d) => d.title),
        ['January payslip'],
      );
      assert.ok((await search({ q: 'lovelace' })).length >= 5, 'q matches employee names');
      assert.deepEqual(
        (await search({ q: 'January' })).map((d) => d.external_reference),
        ['PAY-2026-01'],
      );
      assert.equal((await search({ q: 'G1' })).length, 1, 'q matches registration numbers');
      assert.equal((await search({ employee_numbers: ['G1'] })).length, 1);
      assert.ok(
        (await search({ organization_ids: ['lyon'] })).every((d) => d.organization_ids.includes('lyon')),
        'by organization',
      );
      assert.equal((await search({ organization_id_below: 'group' })).length, all.length, 'every org is below group');
      assert.equal((await search({ origin: 'api' })).length, all.length);
      assert.equal((await search({ origin: 'web' })).length, 0);
      const today = new Date().toISOString().slice(0, 10);
      assert.equal((await search({ created_at_since: today })).length, all.length);
      assert.equal((await search({ created_at_until: '2001-01-01' })).length, 0);
      // An unknown member is ignored (issue 24; test/hr/fidelity.test.ts covers it).
      assert.equal((await hr.call('POST', '/employee_documents/search', { colour: 'red' })).status, 200);
      const compact = await json<Record<string, unknown>[]>(
        await hr.call('POST', '/employee_documents/search', { compact_response: true, per_page: 1 }),
        200,
      );
      assert.deepEqual(Object.keys(compact[0] ?? {}).sort(), [
        'employee_external_id',
        'employee_id',
        'external_reference',
        'id',
      ]);
      // page/per_page: page 2 of 2 is the third and fourth documents.
      const page2 = await json<Doc[]>(
        await hr.call('POST', '/employee_documents/search', { per_page: 2, page: 2 }),
        200,
      );
      assert.deepEqual(
        page2.map((d) => d.id),
        all.slice(2, 4).map((d) => d.id),
      );
      const beyond = await json<Doc[]>(
        await hr.call('POST', '/employee_documents/search', { per_page: 2, page: 999 }),
        200,
      );
      assert.deepEqual(beyond, []);
      // Cursors: follow next_cursor to the end, seeing every document once.
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 50; i++) {
        const res = await hr.call('POST', '/employee_documents/search', {
          per_page: 2,
          ...(cursor ? { next_cursor: cursor } : {}),
        });
        seen.push(...(await json<Doc[]>(res, 200)).map((d) => d.id));
        cursor = res.headers.get('next-cursor');
        if (i > 0) assert.ok(res.headers.get('previous-cursor'), 'a previous page exists');
        if (!cursor) break;
      }
      assert.deepEqual(
        seen,
        all.map((d) => d.id),
      );
      // The deprecated GET takes the same filters as query parameters, paginated with Link.
      const legacy = await hr.call('GET', '/employee_documents?per_page=2&organization_ids=paris,lyon');
      assert.equal((await json<Doc[]>(legacy, 200)).length, 2);
      assert.match(legacy.headers.get('link') ?? '', /rel="next"/);
      assert.equal((await hr.call('GET', '/employee_documents?date_since=yesterday')).status, 400);
    });

    it('company documents: create with organizations, list, update, trash and delete', async () => {
      await json(
        await hr.call('PUT', '/company_document_types/handbook', {
          localized_labels: [{ language_code: 'en', value: 'Handbook' }],
          folder_id: 'policies.handbooks',
          expiry_date_policy_type: 'no_limit',
        }),
        201,
      );
      assert.deepEqual(
        await fields(
          await hr.call('PUT', '/company_document_types/bad', {
            localized_labels: [{ language_code: 'en', value: 'Bad' }],
            expiry_date_policy_type: 'specific_date',
          }),
        ),
        [['expiry_date_policy_options.date', 'required']],
      );
      const file = await upload(hr, PDF, 'handbook.pdf');
      assert.deepEqual(
        await fields(
          await hr.call('POST', '/company_documents', {
            document_type_id: 'handbook',
            organization_ids: ['paris', 'nowhere'],
            uploaded_file: file,
          }),
        ),
        [['organization_ids.1', 'not_found']],
      );
      const doc = await json<Doc>(
        await hr.call('POST', '/company_documents', {
          document_type_id: 'handbook',
          title: 'Employee handbook',
          organization_ids: ['paris', 'lyon'],
          uploaded_file: file,
        }),
        201,
      );
      assert.deepEqual(doc.organization_ids, ['lyon', 'paris']);
      assert.equal('employee_id' in doc, false, 'company documents have no owner');
      const listed = await json<Doc[]>(
        await hr.call('GET', '/company_documents?organization_ids=lyon&q=handbook'),
        200,
      );
      assert.deepEqual(
        listed.map((d) => d.id),
        [doc.id],
      );
      assert.equal(
        (await json<Doc[]>(await hr.call('GET', '/employee_documents?per_page=100'), 200)).some((d) => d.id === doc.id),
        false,
        'the two kinds are apart',
      );
      assert.equal((await hr.call('GET', `/employee_documents/${doc.id}`)).status, 404);
      const updated = await json<Doc>(
        await hr.call('PATCH', `/company_documents/${doc.id}`, { organization_ids: ['group'] }),
        200,
      );
      assert.deepEqual(updated.organization_ids, ['group']);
      const file2 = await hr.call('GET', `/company_documents/${doc.id}/file`);
      assert.equal(sha(Buffer.from(await file2.arrayBuffer())), sha(PDF));
      assert.equal((await hr.call('PUT', `/company_documents/${doc.id}/trash`)).status, 200);
      assert.equal((await json<Doc[]>(await hr.call('GET', '/company_documents?trashed=true'), 200)).length, 1);
      assert.equal((await hr.call('DELETE', '/company_documents/trash')).status, 204);
      assert.equal((await hr.call('GET', `/company_documents/${doc.id}`)).status, 404);
    });

    it('another client’s documents are 404 for every operation; a read-only application may search but not write', async () => {
      const doc = await json<Doc>(
        await createDoc(hr, {
          employee_id: employeeId,
          document_type_id: 'contract',
          uploaded_file: await upload(hr, Buffer.from('private'), 'private.txt'),
        }),
        201,
      );
      for (const [method, p, body] of [
        ['GET', `/employee_documents/${doc.id}`, undefined],
        ['GET', `/employee_documents/${doc.id}/file`, undefined],
        ['HEAD', `/employee_documents/${doc.id}/file`, undefined],
        ['PUT', `/employee_documents/${doc.id}`, { document_type_id: 'payslip' }],
        ['PATCH', `/employee_documents/${doc.id}`, { title: 'x' }],
        ['PUT', `/employee_documents/${doc.id}/trash`, undefined],
        ['PUT', `/employee_documents/${doc.id}/untrash`, undefined],
        ['PUT', `/employee_documents/${doc.id}/expire`, { expiry_date: null }],
        ['PUT', `/employee_documents/${doc.id}/expiration/update`, { expiration_date: null }],
        ['DELETE', `/employee_documents/${doc.id}`, undefined],
      ] as const) {
        assert.equal((await other.call(method, p, body)).status, 404, `${method} ${p}`);
      }
      await other.call('DELETE', '/employee_documents/trash');
      assert.equal(
        (await json<Doc[]>(await other.call('POST', '/employee_documents/search', { per_page: 100 }), 200)).length,
        0,
      );
      const still = await json<Doc>(await hr.call('GET', `/employee_documents/${doc.id}`), 200);
      assert.equal(still.title, null, 'untouched by the other client');
      assert.equal(still.trashed, false);
      const reader = await hrCaller(server, { readOnly: true });
      assert.equal((await reader.call('POST', '/employee_documents/search', {})).status, 200);
      const refused = await reader.call('POST', '/employee_documents', { document_type_id: 'x' });
      assert.equal((await json<ErrorBody>(refused, 403)).code, 'insufficient_scope');
      assert.equal((await reader.call('PUT', '/employee_document_types/x', { localized_labels: [] })).status, 403);
    });

    it('X-Atrium-User-Id: the user’s roles and perimeters decide what the call may see and do', async () => {
      for (const role of ['viewer', 'manager']) {
        await json(await hr.call('PUT', `/roles/${role}`, { id: role, name: role }), 201);
      }
      await json(
        await hr.call('PUT', '/employee_document_types/policy-doc', {
          localized_labels: [{ language_code: 'en', value: 'Policy acknowledgement' }],
          user_access_permissions: [
            { role_id: 'viewer', permissions: ['preview'] },
            { role_id: 'manager', permissions: ['preview', 'upload_and_update', 'delete', 'view_expired'] },
          ],
        }),
        201,
      );
      const user = async (email: string, role: string, operator: string, organization_id: string) =>
        (
          await json<{ id: string }>(
            await hr.call('POST', '/users', {
              firstname: email,
              lastname: 'User',
              email: `${email}@example.com`,
              profiles: [
                { role_id: role, employees_perimeter: { operator, organization_id, custom_field_filters: [] } },
              ],
            }),
            201,
          )
        ).id;
      const parisViewer = await user('viewer', 'viewer', '=', 'paris');
      const groupManager = await user('manager', 'manager', '<=', 'group');
      const as = (userId: string) => ({ 'x-atrium-user-id': userId });
      const make = async (employee: string, headers: Record<string, string> = {}) =>
        hr.call(
          'POST',
          '/employee_documents',
          {
            employee_id: employee,
            document_type_id: 'policy-doc',
            uploaded_file: await upload(hr, randomBytes(100), 'policy.bin'),
          },
          headers,
        );
      const inParis = await json<Doc>(await make(employeeId), 201);
      const inLyon = await json<Doc>(await make(leaverId), 201);
      assert.deepEqual(inLyon.organization_ids, ['lyon']);

      // The viewer sees the Paris document only, and may not change anything.
      assert.equal((await hr.call('GET', `/employee_documents/${inParis.id}`, undefined, as(parisViewer))).status, 200);
      assert.equal(
        (await hr.call('GET', `/employee_documents/${inParis.id}/file`, undefined, as(parisViewer))).status,
        200,
      );
      const hidden = await hr.call('GET', `/employee_documents/${inLyon.id}`, undefined, as(parisViewer));
      assert.equal((await json<ErrorBody>(hidden, 403)).code, 'forbidden');
      assert.equal(
        (await hr.call('PATCH', `/employee_documents/${inParis.id}`, { title: 'x' }, as(parisViewer))).status,
        403,
      );
      assert.equal(
        (await hr.call('DELETE', `/employee_documents/${inParis.id}`, undefined, as(parisViewer))).status,
        403,
      );
      assert.equal(
        (await hr.call('PUT', `/employee_documents/${inParis.id}/trash`, undefined, as(parisViewer))).status,
        403,
      );
      const count = async () => (await server.app.database.db.selectFrom('hr_documents').select('id').execute()).length;
      const before = await count();
      assert.equal((await make(employeeId, as(parisViewer))).status, 403, 'no upload permission');
      assert.equal(await count(), before, 'nothing was written');
      const seenBy = async (userId: string, perPage: number) => {
        const ids: string[] = [];
        let cursor: string | null = null;
        for (let i = 0; i < 50; i++) {
          const res = await hr.call(
            'POST',
            '/employee_documents/search',
            { per_page: perPage, ...(cursor ? { next_cursor: cursor } : {}) },
            as(userId),
          );
          const page = await json<Doc[]>(res, 200);
          assert.ok(page.length > 0 || i === 0, 'no empty page is announced');
          ids.push(...page.map((d) => d.id));
          cursor = res.headers.get('next-cursor');
          if (!cursor) break;
        }
        return ids;
      };
      assert.deepEqual(await seenBy(parisViewer, 1), [inParis.id], 'documents of other types and places are left out');

      // The manager, on the whole group, may upload, update and delete documents of this type anywhere below it.
      const byManager = await json<Doc>(await make(leaverId, as(groupManager)), 201);
      assert.deepEqual(await seenBy(groupManager, 1), [inParis.id, inLyon.id, byManager.id]);
      // Backwards from the last page, through Previous-Cursor, skipping what the manager may not view.
      const search = (body: Record<string, unknown>) =>
        hr.call('POST', '/employee_documents/search', { per_page: 1, ...body }, as(groupManager));
      let res = await search({});
      res = await search({ next_cursor: res.headers.get('next-cursor') });
      res = await search({ next_cursor: res.headers.get('next-cursor') });
      assert.deepEqual(
        (await json<Doc[]>(res, 200)).map((d) => d.id),
        [byManager.id],
      );
      assert.equal(res.headers.get('next-cursor'), null, 'the last page');
      const back: string[] = [];
      for (let cursor = res.headers.get('previous-cursor'); cursor; ) {
        const page = await search({ next_cursor: cursor });
        back.push(...(await json<Doc[]>(page, 200)).map((d) => d.id));
        cursor = page.headers.get('previous-cursor');
      }
      assert.deepEqual(back, [inLyon.id, inParis.id]);
      assert.equal(
        (await hr.call('PATCH', `/employee_documents/${inLyon.id}`, { title: 'Signed' }, as(groupManager))).status,
        200,
      );
      // An expired document needs view_expired: the manager has it, the viewer does not.
      await hr.call('PUT', `/employee_documents/${inParis.id}/expire`, { expiry_date: '2020-01-01' });
      assert.equal((await hr.call('GET', `/employee_documents/${inParis.id}`, undefined, as(parisViewer))).status, 403);
      assert.equal(
        (await hr.call('GET', `/employee_documents/${inParis.id}`, undefined, as(groupManager))).status,
        200,
      );
      // Emptying the trash as a user deletes only what that user may delete.
      await hr.call('PUT', `/employee_documents/${byManager.id}/trash`, undefined, as(groupManager));
      const contract = await json<Doc>(
        await createDoc(hr, {
          employee_id: employeeId,
          document_type_id: 'contract',
          uploaded_file: await upload(hr, Buffer.from('kept'), 'kept.txt'),
        }),
        201,
      );
      await hr.call('PUT', `/employee_documents/${contract.id}/trash`);
      assert.equal((await hr.call('DELETE', '/employee_documents/trash', undefined, as(groupManager))).status, 204);
      assert.equal((await hr.call('GET', `/employee_documents/${byManager.id}`)).status, 404);
      assert.equal((await json<Doc>(await hr.call('GET', `/employee_documents/${contract.id}`), 200)).trashed, true);
      await hr.call('PUT', `/employee_documents/${contract.id}/untrash`);

      // An unknown user, or one of another client, is a 400 naming the header.
      const ghost = await hr.call(
        'GET',
        `/employee_documents/${inParis.id}`,
        undefined,
        as('00000000-0000-4000-8000-000000000000'),
      );
      assert.match((await json<ErrorBody>(ghost, 400)).message, /X-Atrium-User-Id/);
      assert.equal(
        (await other.call('POST', '/employee_documents/search', {}, as(parisViewer))).status,
        400,
        'another client’s user',
      );
    });
  });
}
