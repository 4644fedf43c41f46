/**
 * Document generation (docs/hr-api.md, "Document generation"): templates and versions, sync and async generation,
 * the requests, files, previews, archive, vault and email, over real HTTP on both databases.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { unzipSync, zipSync } from 'fflate';
import { hrTenantId } from '../../src/platform/db/tenant.js';
import { buildDocx } from '../../src/platform/docgen/build-docx.js';
import { findOffice } from '../../src/platform/docgen/convert.js';
import { openDocx } from '../../src/platform/docgen/package.js';
import { pageTexts } from '../../src/platform/pdf/text.js';
import {
  createTemplate,
  enqueueSpentJob,
  fragmentTemplate,
  sampleTemplate,
  uploadTemplate,
} from '../support/docgen.js';
import { dialects, type HrCaller, hrCaller, sleep, startServer, type TestServer } from '../support/harness.js';
import { employee, json } from '../support/people-assist.js';

/** The body of a generated DOCX. */
function documentXml(bytes: Uint8Array): string {
  const opened = openDocx(bytes);
  assert.ok(opened.ok, 'a readable DOCX');
  return opened.zip.file('word/document.xml')?.asText() ?? '';
}

const DATASET = [
  { slug: 'firstname', value: 'Zoë' },
  { slug: 'lastname', value: 'Durand' },
  { slug: 'hire_date', value: '2026-01-31T23:30:00-02:00', type: 'date' },
  { slug: 'skills', value: ['Payroll', 'Audit'] },
  {
    slug: 'salaries',
    value: [
      [
        { slug: 'year', value: 2024 },
        { slug: 'amount', value: '41,000' },
      ],
      [
        { slug: 'year', value: 2025 },
        { slug: 'amount', value: '43,500' },
      ],
      [
        { slug: 'year', value: 2026 },
        { slug: 'amount', value: '45,250' },
      ],
    ],
  },
];

for (const dialect of dialects()) {
  describe(`document generation (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let templateId: string;
    let fragmentId: string;
    const uploaded = sampleTemplate();

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      fragmentId = (await createTemplate(hr, { title: 'Signature block', is_injectable: true })).id;
      await json(await uploadTemplate(server, hr, fragmentId, fragmentTemplate()), 201);
      templateId = (await createTemplate(hr)).id;
      const version = await json<{ version: number; template_information: unknown[] }>(
        await uploadTemplate(server, hr, templateId, uploaded),
        201,
      );
      assert.equal(version.version, 1);
      assert.deepEqual(version.template_information, []);
      await json(
        await hr.call('PATCH', `/document_generation_templates/${templateId}/versions/1`, {
          fragment_mapping: [{ slug: 'signature', fragment_id: fragmentId }],
        }),
        200,
      );
    });
    after(() => server.close());

    it('reads the placeholders of the document (doc_fields, and the deprecated fields)', async () => {
      const fields = await json<{ fields: { slug: string; type_id: string; fields?: { slug: string }[] }[] }>(
        await hr.call(
          'GET',
          `/document_generation_templates/${templateId}/versions/1/doc_fields?includeFragments=true`,
        ),
        200,
      );
      assert.deepEqual(
        fields.fields.map((f) => [f.slug, f.type_id]),
        [
          ['firstname', 'text'],
          ['lastname', 'text'],
          ['hire_date', 'text'],
          ['skills', 'checkboxes'],
          ['salaries', 'fieldsetTable'],
          ['signature', 'fieldset'],
        ],
      );
      assert.deepEqual(
        fields.fields[4]?.fields?.map((f) => f.slug),
        ['year', 'amount'],
      );
      assert.deepEqual(
        fields.fields[5]?.fields?.map((f) => f.slug),
        ['signatory'],
      );
      const res = await hr.call('GET', `/document_generation_templates/${templateId}/versions/active/fields`);
      assert.equal(res.headers.get('deprecation'), 'true');
      const set = await json<{ fields: { name: string; type: string }[] }>(res, 200);
      assert.equal(set.fields.length, 6);
    });

    it('generates a DOCX with every value in place', async () => {
      const g = await json<{ id: string; status: string; errors: unknown[] }>(
        await hr.call('POST', '/document_generations', {
          document_generation_template_id: templateId,
          output_format: 'DOCX',
          fields: DATASET,
          fragment_fields: { signature: [{ slug: 'signatory', value: 'Ada Martin' }] },
        }),
        201,
      );
      assert.equal(g.status, 'GENERATED');
      assert.deepEqual(g.errors, []);
      const file = await hr.call('GET', `/document_generations/${g.id}/file`);
      assert.equal(file.status, 200);
      assert.match(file.headers.get('crc-32') ?? '', /^[0-9a-f]{8}$/);
      assert.ok(Number(file.headers.get('page-count')) >= 1);
      const xml = documentXml(new Uint8Array(await file.arrayBuffer()));
      const text = xml.replace(/<[^>]+>/g, '');
      for (const value of [
        'Zoë',
        'Durand',
        '02/01/2026',
        'Payroll',
        'Audit',
        '2024',
        '43,500',
        '45,250',
        'Ada Martin',
      ]) {
        assert.ok(text.includes(value), `${value} is missing from ${text}`);
      }
      assert.ok(!text.includes('{$'), text);
    });

    it('refuses an unknown template and a fragment the version does not map with 422, writing nothing', async () => {
      const before = await json<unknown[]>(await hr.call('GET', '/document_generation_requests?per_page=100'), 200);
      const errors = async (res: Response) =>
        (await json<{ errors: { field: string; code: string }[] }>(res, 422)).errors.map((e) => [e.field, e.code]);
      assert.deepEqual(
        await errors(
          await hr.call('POST', '/document_generations', {
            document_generation_template_id: '6f1c1d0e-0000-4000-8000-000000000000',
            output_format: 'DOCX',
            fields: DATASET,
          }),
        ),
        [['document_generation_template_id', 'not_found']],
      );
      for (const path of ['/document_generations', '/document_generations/async']) {
        assert.deepEqual(
          await errors(
            await hr.call('POST', path, {
              document_generation_template_id: templateId,
              output_format: 'DOCX',
              fields: DATASET,
              fragment_fields: {
                signature: [{ slug: 'signatory', value: 'Ada Martin' }],
                footer: [{ slug: 'x', value: 'y' }],
              },
            }),
          ),
          [['fragment_fields.footer', 'not_found']],
          path,
        );
      }
      assert.deepEqual(
        await json<unknown[]>(await hr.call('GET', '/document_generation_requests?per_page=100'), 200),
        before,
      );
    });

    it('generates a PDF whose text holds every value, the table’s three rows included', async () => {
      const g = await json<{ id: string; page_count: number }>(
        await hr.call('POST', '/document_generations', {
          document_generation_template_id: templateId,
          output_format: 'PDF',
          fields: DATASET,
          fragment_fields: { signature: [{ slug: 'signatory', value: 'Ada Martin' }] },
        }),
        201,
      );
      const file = await hr.call('GET', `/document_generations/${g.id}/file`);
      assert.equal(file.headers.get('content-type'), 'application/pdf');
      const texts = (await pageTexts(new Uint8Array(await file.arrayBuffer()))) ?? [];
      const text = texts.join('\n');
      for (const value of ['Durand', '02/01/2026', 'Payroll', '41,000', '43,500', '45,250', 'Ada Martin']) {
        assert.ok(text.includes(value), `${value} is missing from the PDF's text: ${text}`);
      }
      assert.equal(Number(file.headers.get('page-count')), texts.length);
      const png = await hr.call('GET', `/document_generations/${g.id}/preview?size=small`);
      assert.equal(png.status, 200);
      assert.equal(png.headers.get('content-type'), 'image/png');
      assert.equal((await hr.call('GET', `/document_generations/${g.id}/preview/9`)).status, 404);
    });

    it('is permissive by default and exact with strict=true', async () => {
      const body = {
        document_generation_template_id: templateId,
        output_format: 'DOCX',
        fields: [
          { slug: 'firstname', value: 'Ada' },
          { slug: 'nickname', value: 'A' },
        ],
      };
      const loose = await json<{ id: string; errors: { field: string; code: string }[] }>(
        await hr.call('POST', '/document_generations', body),
        201,
      );
      const codes = new Set(loose.errors.map((e) => `${e.field}:${e.code}`));
      assert.ok(codes.has('lastname:missing'), JSON.stringify(loose.errors));
      assert.ok(codes.has('nickname:unknown'), JSON.stringify(loose.errors));
      const file = await hr.call('GET', `/document_generations/${loose.id}/file`);
      const xml = documentXml(new Uint8Array(await file.arrayBuffer()));
      assert.ok(xml.replace(/<[^>]+>/g, '').includes('{$lastname}'), 'a missing placeholder stays as written');
      const before = (await json<unknown[]>(await hr.call('GET', '/document_generation_requests?per_page=100'), 200))
        .length;
      const strict = await json<{ code: string; errors: { field: string; code: string }[] }>(
        await hr.call('POST', '/document_generations?strict=true', body),
        422,
      );
      assert.equal(strict.code, 'validation_error');
      assert.ok(
        strict.errors.some((e) => e.field === 'fields.lastname' && e.code === 'missing'),
        JSON.stringify(strict),
      );
      const after = (await json<unknown[]>(await hr.call('GET', '/document_generation_requests?per_page=100'), 200))
        .length;
      assert.equal(after, before, 'a strict refusal records nothing');
    });

    it('generates in the background: 202, Location, the request, then archive, vault and email', async () => {
      await json(await hr.call('PUT', '/organizations/paris', { name: 'Paris' }), 201);
      const emp = await employee(hr, {
        firstname: 'Zoe',
        lastname: 'Durand',
        registration_references: [{ organization_id: 'paris', employee_number: 'E1' }],
      });
      const type = await hr.call('PUT', '/employee_document_types/contract', {
        localized_labels: [{ language_code: 'en', value: 'Contract' }],
        folder_id: 'payroll.payslips',
        expiry_date_policy_type: 'no_limit',
      });
      assert.ok(type.status === 201 || type.status === 200, await type.text());
      const res = await hr.call('POST', '/document_generations/async', {
        document_generation_template_id: templateId,
        output_format: 'PDF',
        fields: DATASET,
        employee_id: emp,
        document_type_id: 'contract',
      });
      const accepted = await json<{ id: string; status: string; document_generation_id: string }>(res, 202);
      assert.equal(accepted.status, 'RECEIVED_ASYNC');
      assert.equal(res.headers.get('location'), `/api/v2/client/document_generation_requests/${accepted.id}/status`);
      let status = accepted.status;
      for (let i = 0; i < 200 && status !== 'PROCESSED' && status !== 'FAILED'; i++) {
        await sleep(50);
        status = (
          await json<{ status: string }>(
            await hr.call('GET', `/document_generation_requests/${accepted.id}/status`),
            200,
          )
        ).status;
      }
      assert.equal(status, 'PROCESSED');
      const listed = await json<{ id: string }[]>(
        await hr.call('GET', '/document_generation_requests?status=processed'),
        200,
      );
      assert.ok(listed.some((r) => r.id === accepted.id));
      const id = accepted.document_generation_id;
      const archived = await json<{ archived_document_id: string }>(
        await hr.call('POST', `/document_generations/${id}/archive`),
        200,
      );
      const doc = await json<{ employee_id: string; document_type_id: string }>(
        await hr.call('GET', `/employee_documents/${archived.archived_document_id}`),
        200,
      );
      assert.equal(doc.employee_id, emp);
      const again = await json<{ archived_document_id: string }>(
        await hr.call('POST', `/document_generations/${id}/archive`),
        200,
      );
      assert.equal(again.archived_document_id, archived.archived_document_id, 'archived once');
      // The vault is not activated: the vault's own rule answers.
      assert.equal((await hr.call('POST', `/document_generations/${id}/vault`)).status, 400);
      await json(
        await hr.call('POST', `/document_generations/${id}/email`, {
          email_recipients: [{ firstname: 'Ada', lastname: 'Martin', email: 'ada@example.com' }],
        }),
        200,
      );
      const mails = await json<{ to_address: string; related_id: string }[]>(
        await hr.call('GET', `/outbox?related_id=${id}`),
        200,
      );
      assert.deepEqual(
        mails.map((m) => m.to_address),
        ['ada@example.com'],
      );
      const six = Array.from({ length: 6 }, (_, i) => ({ firstname: 'A', lastname: 'B', email: `a${i}@example.com` }));
      assert.equal((await hr.call('POST', `/document_generations/${id}/email`, { email_recipients: six })).status, 422);
    });

    it('runs an async generation’s job again (after a crash) without a second document', async () => {
      const accepted = await json<{ id: string; document_generation_id: string }>(
        await hr.call('POST', '/document_generations/async', {
          document_generation_template_id: templateId,
          output_format: 'DOCX',
          fields: DATASET,
        }),
        202,
      );
      const id = accepted.document_generation_id;
      let status = '';
      for (let i = 0; i < 200 && status !== 'PROCESSED'; i++) {
        await sleep(50);
        status = (
          await json<{ status: string }>(
            await hr.call('GET', `/document_generation_requests/${accepted.id}/status`),
            200,
          )
        ).status;
      }
      assert.equal(status, 'PROCESSED');
      const first = await json<{ upload_id: string; generation_finished_at: string }>(
        await hr.call('GET', `/document_generations/${id}`),
        200,
      );
      // The runner's job, delivered again (a process killed after the commit, before the job was marked done).
      await server.app.services.documentGenerations.runJob({
        clientId: hrTenantId(hr.creds.client_id),
        generationId: id,
      });
      const again = await json<{ generation_finished_at: string }>(
        await hr.call('GET', `/document_generations/${id}`),
        200,
      );
      assert.equal(again.generation_finished_at, first.generation_finished_at, 'not generated again');
      const events = await json<{ type: string }[]>(
        await hr.call('GET', `/events?resource_id=${id}&per_page=100`),
        200,
      );
      assert.equal(events.filter((e) => e.type === 'document_generation.generated').length, 1);
    });

    it('an async generation whose job runs out of attempts ends FAILED, with its event', async () => {
      const accepted = await json<{ id: string; document_generation_id: string }>(
        await hr.call('POST', '/document_generations/async', {
          document_generation_template_id: templateId,
          output_format: 'DOCX',
          fields: DATASET,
        }),
        202,
      );
      const id = accepted.document_generation_id;
      const db = server.app.database.db;
      const statusOf = async () =>
        (
          await json<{ status: string }>(
            await hr.call('GET', `/document_generation_requests/${accepted.id}/status`),
            200,
          )
        ).status;
      for (let i = 0; i < 200 && (await statusOf()) !== 'PROCESSED'; i++) await sleep(50);
      // As if its last attempt's process died while generating: its job running under an expired lease, spent.
      await db.updateTable('hr_docgen_generations').set({ status: 'GENERATING' }).where('id', '=', id).execute();
      await enqueueSpentJob(db, {
        queue: 'document-generation',
        tenant: hr.creds.client_id,
        payload: { clientId: hr.creds.client_id, generationId: id },
      });
      server.app.services.jobs.wake();
      let generation = { status: '', failure: '' as string | null };
      for (let i = 0; i < 200 && generation.status !== 'FAILED'; i++) {
        await sleep(50);
        generation = await json<{ status: string; failure: string | null }>(
          await hr.call('GET', `/document_generations/${id}`),
          200,
        );
      }
      assert.equal(generation.status, 'FAILED');
      const events = await json<{ type: string }[]>(
        await hr.call('GET', `/events?resource_id=${id}&per_page=100`),
        200,
      );
      assert.equal(events.filter((e) => e.type === 'document_generation.failed').length, 1);
    });

    it('refuses archive for a sync generation, and hides another tenant’s objects', async () => {
      const g = await json<{ id: string }>(
        await hr.call('POST', '/document_generations', {
          document_generation_template_id: templateId,
          output_format: 'PDF',
          fields: DATASET,
        }),
        201,
      );
      const refused = await json<{ code: string }>(await hr.call('POST', `/document_generations/${g.id}/archive`), 422);
      assert.equal(refused.code, 'not_archivable');
      const other = await hrCaller(server);
      for (const path of [
        `/document_generations/${g.id}`,
        `/document_generations/${g.id}/file`,
        `/document_generation_templates/${templateId}`,
        `/document_generation_templates/${templateId}/versions/1`,
        `/document_generation_templates/${templateId}/versions/active/file`,
      ]) {
        assert.equal((await other.call('GET', path)).status, 404, path);
      }
      assert.equal(
        (
          await other.call('POST', '/document_generations', {
            document_generation_template_id: templateId,
            output_format: 'PDF',
            fields: [],
          })
        ).status,
        422,
      );
    });

    it('previews a template version and serves its file by number and by alias', async () => {
      const png = await hr.call('GET', `/document_generation_templates/${templateId}/versions/latest/preview`);
      assert.equal(png.status, 200);
      assert.equal(png.headers.get('content-type'), 'image/png');
      const head = await hr.call('HEAD', `/document_generation_templates/${templateId}/versions/active/file`);
      assert.equal(head.status, 200);
      assert.match(head.headers.get('crc-32') ?? '', /^[0-9a-f]{8}$/);
      const file = await hr.call('GET', `/document_generation_templates/${templateId}/versions/1/file`);
      assert.equal(Buffer.compare(Buffer.from(await file.arrayBuffer()), Buffer.from(uploaded)), 0);
    });

    it('writes ODT and DOC with the office converter', {
      skip:
        findOffice() === undefined &&
        process.env.ATRIUM_REQUIRE_SOFFICE !== '1' &&
        'no soffice (ATRIUM_REQUIRE_SOFFICE=1 makes this fail)',
    }, async () => {
      for (const [format, check] of [
        [
          'ODT',
          (b: Buffer) =>
            new TextDecoder().decode(
              unzipSync(new Uint8Array(b), { filter: (f) => f.name === 'content.xml' })['content.xml'],
            ),
        ],
        ['DOC', (b: Buffer) => b.toString('latin1') + b.toString('utf16le')],
      ] as const) {
        const g = await json<{ id: string }>(
          await hr.call('POST', '/document_generations', {
            document_generation_template_id: templateId,
            output_format: format,
            fields: DATASET,
          }),
          201,
        );
        const file = await hr.call('GET', `/document_generations/${g.id}/file`);
        const bytes = Buffer.from(await file.arrayBuffer());
        assert.ok(check(bytes).includes('Durand'), `${format} holds the name`);
      }
    });

    it('turns every bad template into a 4xx, never a 500', async () => {
      const id = (await createTemplate(hr, { title: 'Bad inputs' })).id;
      const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n%%EOF\n');
      const bomb = zipSync({
        '[Content_Types].xml': new TextEncoder().encode('<Types/>'),
        'word/document.xml': new Uint8Array(100 * 1024 * 1024).fill(32),
      });
      const broken = zipSync({
        ...unzipSync(sampleTemplate()),
        'word/document.xml': new TextEncoder().encode('<w:document><w:body><w:p>'),
      });
      for (const [what, bytes] of [
        ['a PDF named .docx', pdf],
        ['a zip bomb', bomb],
        ['broken XML', broken],
      ] as const) {
        const res = await uploadTemplate(server, hr, id, bytes);
        const body = await json<{ code: string; errors: { field: string; code: string }[] }>(res, 422);
        assert.equal(body.errors[0]?.field, 'template', what);
      }
      const unclosed = await json<{ version: number; template_information: { code: string; severity: string }[] }>(
        await uploadTemplate(server, hr, id, buildDocx([{ paragraph: 'Dear {$firstname,' }])),
        201,
      );
      assert.ok(
        unclosed.template_information.some((i) => i.severity === 'ERROR'),
        JSON.stringify(unclosed),
      );
      const template = await json<{ active_version: number }>(
        await hr.call('GET', `/document_generation_templates/${id}`),
        200,
      );
      assert.equal(template.active_version, 0, 'a version with an ERROR is not active');
      const refused = await json<{ code: string }>(
        await hr.call('POST', '/document_generations', {
          document_generation_template_id: id,
          output_format: 'DOCX',
          fields: [],
        }),
        422,
      );
      assert.equal(refused.code, 'template_has_errors');
    });

    it('refuses a dataset past the limits with a 4xx', async () => {
      const rows = Array.from({ length: 10_001 }, (_, i) => [{ slug: 'year', value: i }]);
      const many = await hr.call('POST', '/document_generations', {
        document_generation_template_id: templateId,
        output_format: 'DOCX',
        fields: [{ slug: 'salaries', value: rows }],
      });
      assert.equal(many.status, 422, await many.clone().text());
      let deep: unknown = 'bottom';
      for (let i = 0; i < 1000; i++) deep = { label: 'x', value: [deep] };
      const nested = await hr.call('POST', '/document_generations', {
        document_generation_template_id: templateId,
        output_format: 'DOCX',
        fields: [{ slug: 'firstname', value: deep }],
      });
      assert.ok(nested.status === 422 || nested.status === 400, `${nested.status} ${await nested.text()}`);
      const million = JSON.stringify({
        document_generation_template_id: templateId,
        output_format: 'DOCX',
        fields: [{ slug: 'salaries', value: Array.from({ length: 1_000_000 }, () => [{ slug: 'y', value: 1 }]) }],
      });
      const huge = await hr.call('POST', '/document_generations', million);
      assert.equal(huge.status, 413, 'past the body limit');
    });
  });
}

describe('document generation without an office converter', () => {
  let server: TestServer;
  let hr: HrCaller;
  before(async () => {
    server = await startServer(dialects()[0] ?? 'sqlite', { ATRIUM_SOFFICE: 'off' });
    hr = await hrCaller(server);
  });
  after(() => server.close());

  it('answers 424 for ODT and DOC, naming the setting, and still writes DOCX and PDF', async () => {
    const id = (await createTemplate(hr)).id;
    await json(await uploadTemplate(server, hr, id, buildDocx([{ paragraph: 'Hello {$name}' }])), 201);
    for (const format of ['ODT', 'DOC']) {
      const body = await json<{ code: string; message: string }>(
        await hr.call('POST', '/document_generations', {
          document_generation_template_id: id,
          output_format: format,
          fields: [{ slug: 'name', value: 'Ada' }],
        }),
        424,
      );
      assert.equal(body.code, 'failed_dependency');
      assert.match(body.message, /ATRIUM_SOFFICE/);
    }
    for (const format of ['DOCX', 'PDF']) {
      await json(
        await hr.call('POST', '/document_generations', {
          document_generation_template_id: id,
          output_format: format,
          fields: [{ slug: 'name', value: 'Ada' }],
        }),
        201,
      );
    }
  });
});
