import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  type AtriumApiError,
  type HrApiError,
  HrAuthenticationError,
  type HrClient,
  HrConflictError,
  HrInvalidRequestError,
  HrMethodNotAllowedError,
  HrNotFoundError,
  HrPayloadError,
  HrPermissionError,
  HrValidationError,
} from '@atrium/client';
import { type Recorder, sdkHr } from '../support/client.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';

/** Asserts the promise rejects with an error of this class, status and code; answers it. */
async function expectApiError<E extends AtriumApiError>(
  promise: Promise<unknown>,
  Class: abstract new (...args: never[]) => E,
  status: number,
  code: string,
): Promise<E> {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof Class, `expected ${Class.name}, got ${String(e)}`);
    assert.equal(e.status, status, `status of ${e.message}`);
    assert.equal(e.code, code, `code of ${e.message}`);
    assert.match(e.requestId ?? '', /./, 'requestId from X-Request-Id');
    return e;
  }
  assert.fail(`expected ${Class.name} ${status} ${code}, but the call succeeded`);
}

for (const dialect of dialects()) {
  describe(`SDK: HR resources, pagination and errors (${dialect})`, () => {
    let server: TestServer;
    let hr: HrClient;
    let rec: Recorder;
    before(async () => {
      server = await startServer(dialect, { ATRIUM_UPLOAD_LIMIT: '4096' });
      ({ hr, rec } = await sdkHr(server));
    });
    after(() => server.close());

    it('auto-pagination follows Next-Cursor across many pages; pages() iterates by page', async () => {
      const codes = Array.from({ length: 45 }, (_, i) => `org-${String(i).padStart(2, '0')}`);
      for (let i = 0; i < codes.length; i += 9) {
        await Promise.all(codes.slice(i, i + 9).map((id) => hr.organizations.upsert(id, { name: `Org ${id}` })));
      }
      assert.equal(await hr.organizations.count(), 45);
      const before = rec.calls.length;
      const seen: string[] = [];
      for await (const org of hr.organizations.list({ per_page: 4 })) seen.push(org.id);
      assert.deepEqual([...seen].sort(), codes, 'every organization once, none repeated or skipped, across the pages');
      assert.equal(rec.calls.length - before, 12, 'twelve pages of four (the last of one)');
      assert.ok(
        rec.calls.slice(before + 1).every((c) => /cursor=[0-9]+/.test(c)),
        'each next page is asked with the previous page’s cursor',
      );

      const sizes: number[] = [];
      let last: { nextCursor?: string; previousCursor?: string } = {};
      for await (const page of hr.organizations.list({ per_page: 10 }).pages()) {
        sizes.push(page.items.length);
        last = page;
      }
      assert.deepEqual(sizes, [10, 10, 10, 10, 5]);
      assert.equal(last.nextCursor, undefined, 'the last page has no next cursor');
      assert.match(last.previousCursor ?? '', /^[0-9]+$/, 'but a previous one');

      assert.equal((await hr.organizations.list({ per_page: 7 }).toArray(10)).length, 10, 'toArray(max) stops early');
      const first = await hr.organizations.list({ per_page: 20 }).firstPage();
      const rest = await hr.organizations.list({ per_page: 20, cursor: first.nextCursor }).toArray();
      assert.equal(first.items.length + rest.length, 45, 'a list can start from a known cursor');
      assert.equal(await hr.organizations.count({ q: 'org-4' }), 5, 'org-40 to org-44');
    });

    it('typed CRUD on employees, uploads and documents; downloads; search pages through next_cursor', async () => {
      await hr.organizations.upsert('acme', { name: 'Acme' });
      const people = await Promise.all(
        ['Ada', 'Alan', 'Grace', 'Edsger', 'Barbara'].map((firstname, i) =>
          hr.employees.create({
            firstname,
            lastname: 'Test',
            email: `${firstname.toLowerCase()}@example.com`,
            registration_references: [{ organization_id: 'acme', employee_number: `E${i}` }],
          }),
        ),
      );
      const ada = people[0] as (typeof people)[number];
      assert.equal((await hr.employees.retrieve(ada.id)).firstname, 'Ada');
      assert.equal((await hr.employees.update(ada.id, { lastname: 'Lovelace' })).lastname, 'Lovelace');
      const found = await hr.employees.search({ per_page: 2 }).toArray();
      assert.equal(found.length, 5, 'search pages through next_cursor in the body');

      await hr.employeeDocumentTypes.upsert('contract', {
        localized_labels: [{ language_code: 'en', value: 'Contract' }],
      });
      const text = 'Employment contract of Ada Lovelace\n';
      const file = await hr.uploads.createDocumentFile({ file: text, filename: 'contract.txt' });
      assert.equal(file.filename, 'contract.txt');
      const doc = await hr.employeeDocuments.create({
        employee_id: ada.id,
        document_type_id: 'contract',
        uploaded_file: file,
        external_reference: 'CONTRACT-1',
        external_reference_is_unique: true,
      });
      const download = await hr.employeeDocuments.download(doc.id);
      assert.equal(download.status, 200);
      assert.equal(await download.text(), text);
      const info = await hr.employeeDocuments.fileInfo(doc.id);
      assert.equal(info.headers.get('content-length'), String(Buffer.byteLength(text)));
      const part = await hr.employeeDocuments.download(doc.id, { headers: { range: 'bytes=0-9' } });
      assert.equal(part.status, 206);
      assert.equal(await part.text(), text.slice(0, 10));

      // 409: another document with the same unique reference.
      const again = await hr.uploads.create({ file: new Blob([text]), filename: 'again.txt' });
      await expectApiError(
        hr.employeeDocuments.create({
          employee_id: ada.id,
          document_type_id: 'contract',
          uploaded_file: { file_id: again.id, filename: again.filename },
          external_reference: 'CONTRACT-1',
          external_reference_is_unique: true,
        }),
        HrConflictError,
        409,
        'conflict',
      );
      // 416: a range outside the file.
      await expectApiError(
        hr.employeeDocuments.download(doc.id, { headers: { range: 'bytes=9999-' } }),
        HrPayloadError,
        416,
        'range_not_satisfiable',
      );
      await hr.employeeDocuments.trash(doc.id);
      await hr.employeeDocuments.untrash(doc.id);
      await hr.employeeDocuments.del(doc.id);
      await expectApiError(hr.employeeDocuments.retrieve(doc.id), HrNotFoundError, 404, 'not_found');
    });

    it('bulk calls: create, upsert and update answer a request_id; waitFor polls until completed', async () => {
      await hr.organizations.upsert('bulk-org', { name: 'Bulk org' });
      const item = (n: number) => ({
        external_id: `BULK-${n}`,
        firstname: `Bulk${n}`,
        lastname: 'Sdk',
        email: `bulk${n}@example.com`,
        registration_references: [{ organization_id: 'bulk-org', employee_number: `B${n}` }],
      });
      const { request_id } = await hr.employees.bulk.create([item(1), item(2), { ...item(3), email: 'nope' }]);
      const done = await hr.employees.bulk.waitFor(request_id, { intervalMs: 20 });
      assert.deepEqual(done.summary, { total: 3, processed: 3, success: 2, failed: 1, status: 'completed' });
      assert.equal(done.results[2]?.error?.errors?.[0]?.field, 'email');
      const first = done.results[0]?.Result;
      assert.ok(first);
      const patched = await hr.employees.bulk.waitFor(
        (await hr.employees.bulk.update([{ employee_id: first.id, data: { lastname: 'Patched' } }])).request_id,
        { intervalMs: 20 },
      );
      assert.equal(patched.results[0]?.Result?.lastname, 'Patched');
      assert.equal((await hr.employees.retrieve(first.id)).lastname, 'Patched');
      const upserted = await hr.employees.bulk.waitFor(
        (await hr.employees.bulk.upsert([{ external_id: 'BULK-9', data: item(9) }])).request_id,
        { intervalMs: 20 },
      );
      assert.equal(upserted.results[0]?.outcome, 'created');
      const users = await hr.users.bulk.waitFor(
        (await hr.users.bulk.create([{ firstname: 'A', lastname: 'B', email: 'ab.bulk@example.com' }])).request_id,
        { intervalMs: 20 },
      );
      assert.equal(users.results[0]?.Result?.email, 'ab.bulk@example.com');
      await expectApiError(hr.users.bulk.retrieve(request_id), HrNotFoundError, 404, 'not_found');
    });

    it('datasets: upsert, values (upsert, list by page, exists, retrieve, del)', async () => {
      const names = (value: string) => [{ language_code: 'en-us', value }];
      const dataset = await hr.datasets.upsert('sdk-geo', {
        localized_names: names('Geo'),
        dimensions: [
          { id: 'countries', localized_names: [] },
          { id: 'cities', localized_names: [] },
        ],
      });
      assert.equal(dataset.values_count, 0);
      await hr.datasets.values.upsert('sdk-geo', 'uk', { localized_names: names('United Kingdom') });
      for (const city of ['london', 'leeds', 'york']) {
        await hr.datasets.values.upsert('sdk-geo', `uk.${city}`, { localized_names: names(city) });
      }
      const cities = await hr.datasets.values.list('sdk-geo', { parent_code: 'uk', per_page: 2 }).toArray();
      assert.deepEqual(
        cities.map((v) => v.id),
        ['uk.leeds', 'uk.london', 'uk.york'],
      );
      assert.equal(await hr.datasets.values.exists('sdk-geo', 'uk.york'), true);
      assert.equal(await hr.datasets.values.exists('sdk-geo', 'uk.paris'), false);
      assert.equal((await hr.datasets.values.retrieve('sdk-geo', 'uk.york')).dimension_id, 'cities');
      await hr.datasets.values.del('sdk-geo', 'uk.york');
      assert.equal((await hr.datasets.retrieve('sdk-geo')).values_count, 3);
      assert.deepEqual(
        (await hr.datasets.list().toArray()).map((d) => d.id),
        ['sdk-geo'],
      );
    });

    it('dataset imports: create from an upload, retrieve until finished, source and report', async () => {
      await hr.datasets.upsert('sdk-import', {
        localized_names: [{ language_code: 'en-us', value: 'Import' }],
        dimensions: [{ id: 'shops', localized_names: [] }],
      });
      const csv = 'shops;shops:en-us\nnorth;North\nsouth;South\n';
      const upload = await hr.uploads.create({ file: csv, filename: 'shops.csv', contentType: 'text/csv' });
      const created = await hr.datasetImports.create({ dataset_id: 'sdk-import', upload_id: upload.id });
      let found = created;
      for (let i = 0; i < 500 && found.status !== 'finished'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        found = await hr.datasetImports.retrieve(created.id);
      }
      assert.equal(found.result, 'success');
      assert.equal(found.total_values_count, 2);
      assert.equal(await (await hr.datasetImports.source(created.id)).text(), csv);
      assert.equal((await (await hr.datasetImports.report(created.id)).text()).trim(), 'type,line,field,code,message');
      assert.deepEqual(
        (await hr.datasetImports.list({ dataset_id: 'sdk-import' }).toArray()).map((i) => i.id),
        [created.id],
      );
    });

    it('imports: create from an upload, retrieve until it ends, the XML reports and the source', async () => {
      const csv = 'id;name\nsdk-imp-1;One\nsdk-imp-2;Two\n';
      const upload = await hr.uploads.create({ file: csv, filename: 'orgs.csv', contentType: 'text/csv' });
      const created = await hr.imports.create({ type: 'organization', uploaded_file: { file_id: upload.id } });
      let found = created;
      for (let i = 0; i < 500 && ['created', 'in_progress'].includes(found.status); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        found = await hr.imports.retrieve(created.id);
      }
      assert.equal(found.status, 'success');
      assert.equal(found.created_objects_count, 2);
      assert.match(await (await hr.imports.report(created.id)).text(), /<RESULT_CODE>0<\/RESULT_CODE>/);
      assert.doesNotMatch(await (await hr.imports.errorsReport(created.id)).text(), /<LINE>/);
      assert.equal(await (await hr.imports.source(created.id)).text(), csv);
      assert.ok((await hr.imports.list({ type: 'organization' }).toArray()).some((i) => i.id === created.id));
    });

    it('requests: list({status: [...]}) sends a comma-separated filter and follows the pages', async () => {
      const category = randomUUID();
      const [created] = await hr.kbCategories.upsert(category, {
        localized_name: [{ language_code: 'en-us', value: 'Payroll' }],
      });
      assert.equal(created?.id, category);
      await hr.requestForms.upsert('payslip', {
        name: 'Payslip question',
        category_id: category,
        formidable: {
          fields: [
            {
              slug: 'question',
              label: 'Your question',
              type_id: 'paragraph',
              required: true,
              description: '',
              accesses: [],
            },
          ],
        },
      });
      const employee = await hr.employees.create({
        firstname: 'Req',
        lastname: 'Uester',
        email: 'req@example.com',
        registration_references: [{ organization_id: 'acme', employee_number: 'R1' }],
      });
      const made = [];
      for (let i = 0; i < 5; i++) {
        made.push(
          await hr.requests.create({
            form_id: 'payslip',
            employee_id: employee.id,
            form_data: [{ field_id: 'question', values: [`Question ${i}`] }],
          }),
        );
      }
      const [r0, r1, r2] = made as [(typeof made)[0], (typeof made)[0], (typeof made)[0]];
      await hr.requests.update(r0.id, { status: 'opened' });
      await hr.requests.update(r1.id, { status: 'opened' });
      await hr.requests.update(r2.id, { status: 'pending' });
      const calls = rec.calls.length;
      const open = await hr.requests.list({ status: ['opened', 'pending'], per_page: 1 }).toArray();
      assert.deepEqual(open.map((r) => r.id).sort(), [r0.id, r1.id, r2.id].sort());
      assert.match(rec.calls[calls] ?? '', /status=opened%2Cpending/, 'the array went comma-separated');
      assert.equal(rec.calls.length - calls, 3, 'one page per request');

      const comment = await hr.requests.comments.create(r0.id, { content: 'Paid in March.', creator_id: employee.id });
      assert.equal(comment.content, 'Paid in March.');
      assert.equal((await hr.requests.comments.list(r0.id).toArray()).length, 1);
      await hr.requests.linked.create(r0.id, { uuid: [r1.id] });
      assert.deepEqual(
        (await hr.requests.linked.list(r0.id).toArray()).map((r) => r.id),
        [r1.id],
      );
      assert.deepEqual(await hr.requests.assignees.list(r0.id).toArray(), []);
      await hr.requests.del(r2.id);
      await expectApiError(hr.requests.retrieve(r2.id), HrNotFoundError, 404, 'not_found');
    });

    it('maps every error status and code of the API to its class', async () => {
      // 400 invalid_request: a per_page out of range.
      await expectApiError(
        hr.organizations.list({ per_page: 0 }).toArray(),
        HrInvalidRequestError,
        400,
        'invalid_request',
      );
      // 400 invalid_request: a cursor that is not this list's.
      await expectApiError(
        hr.organizations.list({ cursor: '1234567890123' }).toArray(),
        HrInvalidRequestError,
        400,
        'invalid_request',
      );
      // 404 not_found, and a HEAD-less 404 on an unknown path.
      await expectApiError(hr.organizations.retrieve('no-such-org'), HrNotFoundError, 404, 'not_found');
      await expectApiError(hr.request('GET', '/no_such_things'), HrNotFoundError, 404, 'not_found');
      // 405 method_not_allowed, with the Allow header kept on the error.
      const notAllowed = await expectApiError(
        hr.request('DELETE', '/organizations'),
        HrMethodNotAllowedError,
        405,
        'method_not_allowed',
      );
      assert.match(notAllowed.headers.allow ?? '', /GET/);
      // 415 unsupported_media_type: a body that is neither JSON nor a form.
      await expectApiError(
        hr.request(
          'PUT',
          '/organizations/x',
          { body: { name: 'x' } },
          { headers: { 'content-type': 'application/xml' } },
        ),
        HrPayloadError,
        415,
        'unsupported_media_type',
      );
      // 413 payload_too_large: an upload over ATRIUM_UPLOAD_LIMIT (4 KiB here).
      await expectApiError(
        hr.uploads.create({ file: new Uint8Array(10_000), filename: 'big.bin' }),
        HrPayloadError,
        413,
        'payload_too_large',
      );
      // 422 validation_error, with dotted field paths and zero-based indices.
      const invalid = await expectApiError(
        hr.employees.create({
          firstname: '',
          lastname: 'X',
          registration_references: [{ organization_id: 'nope', employee_number: 'E1' }],
        }),
        HrValidationError,
        422,
        'validation_error',
      );
      assert.ok(invalid.errors.length > 0, 'field errors');
      assert.ok(
        invalid.errors.every((e) => typeof e.field === 'string' && e.code && e.message),
        'each error has a field, a code and a message',
      );
      assert.ok(
        invalid.errors.some((e) => e.field === 'firstname' || e.field.startsWith('registration_references.0')),
        `paths such as registration_references.0.organization_id: ${JSON.stringify(invalid.errors)}`,
      );
      // 403 insufficient_scope: a read-only application writing.
      const { hr: reader } = await sdkHr(server, { readOnly: true });
      assert.ok((await reader.organizations.count()) >= 0, 'a reader may read');
      await expectApiError(
        reader.organizations.upsert('ro', { name: 'RO' }),
        HrPermissionError,
        403,
        'insufficient_scope',
      );
      // 401 invalid_credentials / invalid_token and 400 invalid_client_id: see hr-auth.test.ts.
      const wrong = await sdkHr(server, { applicationSecret: 'nope' });
      const e = await expectApiError<HrApiError>(
        wrong.hr.organizations.count(),
        HrAuthenticationError,
        401,
        'invalid_credentials',
      );
      assert.match(e.request?.url ?? '', /\/tokens$/, 'the error names the failed request');
    });
  });
}
