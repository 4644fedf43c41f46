/**
 * Document generation campaigns and the V1 → V2 syntax migration (docs/hr-api.md, "Document generation"), over real
 * HTTP on both databases: a 100-row campaign of each output action (zip, pdf, archive) run by the job runner, a
 * failing row, cancel, a job run again after a "crash" (each row generated once), the CSV call's 501, tenancy; the
 * migration's status transitions, its list, a conversion that generates the same document, and restart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildDocx } from '../../src/platform/docgen/build-docx.js';
import { enqueue } from '../../src/platform/jobs/index.js';
import { PdfWorker } from '../../src/platform/pdf/runner.js';
import { until } from '../support/distributions.js';
import {
  createTemplate,
  enqueueSpentJob,
  fragmentTemplate,
  readZip,
  sampleTemplate,
  uploadTemplate,
} from '../support/docgen.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { json } from '../support/people-assist.js';

interface Campaign {
  id: string;
  status: string;
  title: string;
  output_action: string;
  document_generation_template_version: number;
  document_type_id: string | null;
  started_at: string | null;
  ended_at: string | null;
}
interface Details extends Campaign {
  rows_total: number;
  rows_generated: number;
  rows_failed: number;
  rows: {
    index: number;
    employee_id: string | null;
    ref: string | null;
    status: string;
    error: string | null;
    document_id: string | null;
  }[];
}

/** A row's dataset: its number in the text, so each document says which row it is. */
const rowOf = (n: number, employeeId?: string) => ({
  ...(employeeId ? { employee_id: employeeId } : {}),
  ref: `ref-${n}`,
  fields: [
    { slug: 'name', value: `Person ${n}` },
    { slug: 'n', value: n },
  ],
});

/** The text of a DOCX's body, its tags removed. */
const bodyText = (docx: Uint8Array) =>
  (readZip(docx).file('word/document.xml')?.asText() ?? '').replace(/<[^>]+>/g, '');

const DATASET = [
  { slug: 'firstname', value: 'Zoë' },
  { slug: 'lastname', value: 'Durand' },
  { slug: 'hire_date', value: '2026-01-31T23:30:00-02:00' },
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
    ],
  },
];

for (const dialect of dialects()) {
  describe(`document generation campaigns and syntax migration (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    let templateId: string;
    let employees: string[];
    const pdf = new PdfWorker();
    const db = () => server.app.database.db;

    const create = (body: Record<string, unknown>, caller = hr) =>
      caller.call('POST', '/document_generation_campaigns', {
        title: 'Certificates',
        document_generation_template_id: templateId,
        ...body,
      });
    const details = (id: string, caller = hr) =>
      caller.call('GET', `/document_generation_campaigns/${id}`).then((r) => json<Details>(r, 200));
    const ended = (id: string) =>
      until(
        async () => {
          const d = await details(id);
          return ['completed', 'failed', 'canceled'].includes(d.status) ? d : undefined;
        },
        `campaign ${id}`,
        240_000,
      );
    const file = async (id: string) => {
      const res = await hr.call('GET', `/document_generation_campaigns/${id}/file`);
      assert.equal(res.status, 200, await res.clone().text());
      assert.match(res.headers.get('crc-32') ?? '', /^[0-9a-f]{8}$/);
      return { type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) };
    };
    const heldBlobs = async (id: string) =>
      (
        await db()
          .selectFrom('hr_docgen_campaign_rows')
          .select('sha256')
          .where('campaign_id', '=', id)
          .where('sha256', 'is not', null)
          .execute()
      ).length;

    const campaignJobsIdle = async () =>
      (
        await db()
          .selectFrom('jobs')
          .select('status')
          .where('queue', '=', 'document-generation-campaign')
          .where('status', 'in', ['pending', 'running'])
          .execute()
      ).length === 0;

    before(async () => {
      server = await startServer(dialect, { ATRIUM_JOB_POLL_MS: '20', ATRIUM_RATE_LIMIT: '0' });
      hr = await hrCaller(server);
      other = await hrCaller(server);
      templateId = (await createTemplate(hr)).id;
      const template = buildDocx([{ paragraph: 'Certificate for {$name}' }, { paragraph: 'Row number {$n}.' }]);
      await json(await uploadTemplate(server, hr, templateId, template), 201);
      await json(await hr.call('PUT', '/organizations/paris', { name: 'Paris' }), 201);
      const type = await hr.call('PUT', '/employee_document_types/certificate', {
        localized_labels: [{ language_code: 'en', value: 'Certificate' }],
        folder_id: 'payroll.payslips',
        expiry_date_policy_type: 'no_limit',
      });
      assert.ok(type.status === 201 || type.status === 200, await type.text());
      employees = [];
      for (let at = 0; at < 100; at += 10) {
        const batch = range(10).map((n) =>
          hr
            .call('POST', '/employees', {
              firstname: 'Ada',
              lastname: `C${at + n}`,
              email: `c${at + n}@example.com`,
              registration_references: [{ organization_id: 'paris', employee_number: `C${at + n}` }],
            })
            .then((r) => json<{ id: string }>(r, 201)),
        );
        employees.push(...(await Promise.all(batch)).map((e) => e.id));
      }
    });
    after(async () => {
      await pdf.stop();
      await server.close();
    });

    it('zip: 100 DOCX files, one per row, named by row; the rows let go of their documents', async () => {
      const res = await create({ output_action: 'zip', creator_ref: 'hr-42', data: range(100).map((n) => rowOf(n)) });
      const created = await json<Campaign>(res, 201);
      assert.equal(created.status, 'created');
      assert.equal(created.document_generation_template_version, 1);
      assert.equal(created.document_type_id, null);
      const done = await ended(created.id);
      assert.equal(done.status, 'completed', JSON.stringify(done.rows.find((r) => r.status !== 'generated')));
      assert.deepEqual([done.rows_total, done.rows_generated, done.rows_failed], [100, 100, 0]);
      assert.ok(done.started_at && done.ended_at);
      const zip = await file(created.id);
      assert.equal(zip.type, 'application/zip');
      const entries = readZip(zip.bytes);
      const names = Object.keys(entries.files);
      assert.equal(names.length, 100);
      assert.ok(names.includes('57-ref-57.docx'), names.slice(0, 5).join());
      const row57 = entries.file('57-ref-57.docx')?.asUint8Array() as Uint8Array;
      assert.match(bodyText(row57), /Certificate for Person 57.*Row number 57\./);
      assert.equal(await heldBlobs(created.id), 0, 'the zip holds the documents now');
      const listed = await json<Campaign[]>(
        await hr.call(
          'GET',
          `/document_generation_campaigns?status=completed&document_generation_template_id=${templateId}`,
        ),
        200,
      );
      assert.ok(listed.some((c) => c.id === created.id));
      assert.deepEqual(
        await json<Campaign[]>(await hr.call('GET', '/document_generation_campaigns?status=canceled'), 200),
        [],
      );
    });

    it('pdf: one PDF of the 100 documents, in row order', async () => {
      const created = await json<Campaign>(
        await create({ output_action: 'pdf', data: range(100).map((n) => rowOf(n)) }),
        201,
      );
      const done = await ended(created.id);
      assert.equal(done.status, 'completed');
      const out = await file(created.id);
      assert.equal(out.type, 'application/pdf');
      assert.equal(await pdf.count(out.bytes), 100);
      const texts = await pdf.texts(out.bytes);
      assert.ok(Array.isArray(texts));
      assert.match(texts[56] ?? '', /Person 57/);
      assert.match(texts[99] ?? '', /Person 100/);
      assert.equal(await heldBlobs(created.id), 0);
    });

    it('archive: 100 employee documents of the type, each its employee’s; an unknown employee’s row fails alone', async () => {
      const data = [...employees.map((e, i) => rowOf(i + 1, e)), rowOf(101, 'no-such-employee')];
      const created = await json<Campaign>(
        await create({ output_action: 'archive', document_type_id: 'certificate', data }),
        201,
      );
      assert.equal(created.document_type_id, 'certificate');
      const done = await ended(created.id);
      assert.equal(done.status, 'completed');
      assert.deepEqual([done.rows_total, done.rows_generated, done.rows_failed], [101, 100, 1]);
      const failed = done.rows[100];
      assert.equal(failed?.status, 'failed');
      assert.match(failed?.error ?? '', /employee/i);
      const documents = await db()
        .selectFrom('hr_documents')
        .select(['id', 'employee_id', 'content_type'])
        .where('client_id', '=', hr.creds.client_id)
        .where('document_type_id', '=', 'certificate')
        .execute();
      assert.equal(documents.length, 100);
      const byId = new Map(documents.map((d) => [d.id, d]));
      for (const [i, row] of done.rows.slice(0, 100).entries()) {
        assert.equal(row.status, 'generated');
        assert.equal(byId.get(row.document_id as string)?.employee_id, employees[i], `row ${i}`);
      }
      assert.ok(documents.every((d) => d.content_type === 'application/pdf'));
      const res = await hr.call('GET', `/document_generation_campaigns/${created.id}/file`);
      assert.equal(res.status, 404, 'an archive campaign has no file');
    });

    it('refuses what cannot run: 422 for archive without a type or an employee, an unknown template, no rows', async () => {
      const codes = async (res: Response) =>
        (await json<{ errors: { field: string; code: string }[] }>(res, 422)).errors.map((e) => [e.field, e.code]);
      assert.deepEqual(await codes(await create({ output_action: 'archive', data: [rowOf(1, employees[0])] })), [
        ['document_type_id', 'required'],
      ]);
      assert.deepEqual(
        await codes(await create({ output_action: 'archive', document_type_id: 'certificate', data: [rowOf(1)] })),
        [['data.0.employee_id', 'required']],
      );
      assert.deepEqual(
        await codes(await create({ output_action: 'archive', document_type_id: 'nope', data: [rowOf(1, 'x')] })),
        [['document_type_id', 'not_found']],
      );
      assert.deepEqual(
        await codes(
          await create({
            output_action: 'zip',
            document_generation_template_id: '6f1c1d0e-0000-4000-8000-000000000000',
            data: [rowOf(1)],
          }),
        ),
        [['document_generation_template_id', 'not_found']],
      );
      assert.deepEqual(
        await codes(
          await create({ output_action: 'zip', data: [rowOf(1), { ...rowOf(2), fragment_fields: { nope: [] } }] }),
        ),
        [['data.1.fragment_fields.nope', 'not_found']],
        'a fragment the version does not map',
      );
      assert.equal((await create({ output_action: 'zip', data: [] })).status, 422);
      assert.equal((await create({ output_action: 'email', data: [rowOf(1)] })).status, 422);
    });

    it('cancel (an Atrium extension): only created or in progress; its job then generates nothing', async () => {
      await server.app.services.jobs.stop();
      let id: string;
      try {
        id = (await json<Campaign>(await create({ output_action: 'zip', data: range(5).map((n) => rowOf(n)) }), 201))
          .id;
        const canceled = await json<Campaign>(
          await hr.call('POST', `/document_generation_campaigns/${id}/cancel`),
          200,
        );
        assert.equal(canceled.status, 'canceled');
        assert.ok(canceled.ended_at);
        const again = await json<{ code: string }>(
          await hr.call('POST', `/document_generation_campaigns/${id}/cancel`),
          422,
        );
        assert.equal(again.code, 'not_cancelable');
      } finally {
        server.app.services.jobs.start();
      }
      await until(async () => (await campaignJobsIdle()) || undefined, 'the campaign jobs');
      const d = await details(id);
      assert.equal(d.status, 'canceled');
      assert.deepEqual(
        d.rows.map((r) => r.status),
        ['pending', 'pending', 'pending', 'pending', 'pending'],
      );
      assert.equal((await hr.call('GET', `/document_generation_campaigns/${id}/file`)).status, 404);

      // Canceled while it runs: the job stops before its next row and lets go of the documents it made.
      const running = await json<Campaign>(
        await create({ output_action: 'pdf', data: range(100).map((n) => rowOf(n)) }),
        201,
      );
      await until(async () => ((await details(running.id)).rows_generated > 0 ? true : undefined), 'a first row');
      await json(await hr.call('POST', `/document_generation_campaigns/${running.id}/cancel`), 200);
      await until(async () => (await campaignJobsIdle()) || undefined, 'the campaign job');
      const stopped = await details(running.id);
      assert.equal(stopped.status, 'canceled');
      assert.ok(stopped.rows_generated < 100, `${stopped.rows_generated} rows generated`);
      assert.ok(stopped.rows.some((r) => r.status === 'pending'));
      assert.equal(await heldBlobs(running.id), 0, 'the generated rows let go of their documents');
    });

    it('run again after a crash: goes on with the pending rows only, each generated once', async () => {
      const data = employees.slice(0, 10).map((e, i) => rowOf(i + 1, e));
      const created = await json<Campaign>(
        await create({ output_action: 'archive', document_type_id: 'certificate', data }),
        201,
      );
      const first = await ended(created.id);
      assert.equal(first.rows_generated, 10);
      const kept = first.rows.slice(0, 5).map((r) => r.document_id);
      // As if the process died after row 5: in progress, rows 6 to 10 pending; and two attempts take it up at once.
      await db()
        .updateTable('hr_docgen_campaigns')
        .set({ status: 'in_progress' })
        .where('id', '=', created.id)
        .execute();
      await db()
        .updateTable('hr_docgen_campaign_rows')
        .set({ status: 'pending', document_id: null })
        .where('campaign_id', '=', created.id)
        .where('row_index', '>=', 5)
        .execute();
      const count = async () =>
        (
          await db()
            .selectFrom('hr_documents')
            .select('id')
            .where('client_id', '=', hr.creds.client_id)
            .where('document_type_id', '=', 'certificate')
            .execute()
        ).length;
      const before = await count();
      for (let i = 0; i < 2; i++) {
        await enqueue(db(), {
          queue: 'document-generation-campaign',
          tenant: hr.creds.client_id,
          payload: { clientId: hr.creds.client_id, campaignId: created.id },
        });
      }
      server.app.services.jobs.wake();
      const second = await ended(created.id);
      assert.equal(second.status, 'completed');
      assert.equal(second.rows_generated, 10);
      assert.deepEqual(
        second.rows.slice(0, 5).map((r) => r.document_id),
        kept,
        'the rows generated before are left alone',
      );
      assert.equal((await count()) - before, 5, 'each pending row filed once');
    });

    it('a campaign whose job runs out of attempts ends failed, audited, and no longer counts as running', async () => {
      const data = employees.slice(0, 3).map((e, i) => rowOf(i + 1, e));
      const created = await json<Campaign>(
        await create({ output_action: 'archive', document_type_id: 'certificate', data }),
        201,
      );
      await ended(created.id);
      // As if its last attempt's process died mid-way: in progress, its job running under an expired lease with no
      // attempt left.
      await db()
        .updateTable('hr_docgen_campaigns')
        .set({ status: 'in_progress' })
        .where('id', '=', created.id)
        .execute();
      await enqueueSpentJob(db(), {
        queue: 'document-generation-campaign',
        tenant: hr.creds.client_id,
        payload: { clientId: hr.creds.client_id, campaignId: created.id },
      });
      server.app.services.jobs.wake();
      const gaveUp = await until(
        async () => {
          const d = await details(created.id);
          return d.status === 'failed' ? d : undefined;
        },
        `campaign ${created.id} failed`,
        60_000,
      );
      assert.equal(gaveUp.status, 'failed');
      const events = await db()
        .selectFrom('hr_events')
        .select(['action', 'resource_id'])
        .where('client_id', '=', hr.creds.client_id)
        .where('resource_id', '=', created.id)
        .where('action', '=', 'failed')
        .execute();
      assert.equal(events.length, 1, 'one campaign.failed event');
    });

    it('POST …/csv is not available: 501 not_implemented, whatever the body', async () => {
      const bodies: [string | undefined, Record<string, string>][] = [
        [JSON.stringify({ file: 'x' }), { 'content-type': 'application/json' }],
        ['name,ref\nAda,1\n', { 'content-type': 'text/csv' }],
        ['not json', { 'content-type': 'application/json' }],
        [undefined, {}],
      ];
      for (const [body, headers] of bodies) {
        const res = await fetch(`${server.url}/api/v2/client/document_generation_campaigns/csv`, {
          method: 'POST',
          headers: { authorization: `Bearer ${hr.token}`, ...headers },
          ...(body === undefined ? {} : { body }),
        });
        const error = await json<{ code: string; message: string }>(res, 501);
        assert.equal(error.code, 'not_implemented');
        assert.match(error.message, /NOT AVAILABLE FOR NOW/);
      }
    });

    it('another client’s campaign is not found', async () => {
      const [mine] = await json<Campaign[]>(await hr.call('GET', '/document_generation_campaigns?per_page=1'), 200);
      assert.ok(mine);
      for (const [method, path] of [
        ['GET', `/document_generation_campaigns/${mine.id}`],
        ['GET', `/document_generation_campaigns/${mine.id}/file`],
        ['POST', `/document_generation_campaigns/${mine.id}/cancel`],
        ['POST', `/document_generations/syntax_migration/${templateId}`],
      ] as const) {
        assert.equal((await other.call(method, path)).status, 404, `${method} ${path}`);
      }
      assert.deepEqual(await json<Campaign[]>(await other.call('GET', '/document_generation_campaigns'), 200), []);
      const res = await create({ output_action: 'zip', data: [rowOf(1)] }, other);
      assert.equal(res.status, 422, 'another client’s template is unknown');
    });

    it('syntax migration: converts a V1 template into a V2 version that generates the same document', async () => {
      const status = () =>
        hr.call('GET', '/document_generations/syntax_migration/status').then((r) => json<MigrationStatus>(r, 200));
      assert.deepEqual(await status(), {
        status: 'not_started',
        auto_start: false,
        new_migration_available: false,
        started_at: null,
        ended_at: null,
      });
      const fragmentId = (await createTemplate(hr, { title: 'Signature block', is_injectable: true })).id;
      await json(await uploadTemplate(server, hr, fragmentId, fragmentTemplate()), 201);
      const v1 = (await createTemplate(hr, { title: 'Legacy certificate' })).id;
      await json(await uploadTemplate(server, hr, v1, sampleTemplate('V1'), { syntax: 'V1' }), 201);
      await json(
        await hr.call('PATCH', `/document_generation_templates/${v1}/versions/1`, {
          fragment_mapping: [{ slug: 'signature', fragment_id: fragmentId }],
          output_format: { DOC: false },
        }),
        200,
      );
      await json(
        await hr.call('PUT', `/document_generation_templates/${v1}/versions/1/doc_fields`, {
          fields: [{ slug: 'hire_date', type_id: 'date' }],
        }),
        200,
      );
      assert.equal((await status()).new_migration_available, true);
      const listed = await json<{ id: string }[]>(
        await hr.call('GET', '/document_generations/syntax_migration/list?q=legacy'),
        200,
      );
      assert.deepEqual(
        listed.map((t) => t.id),
        [v1],
      );
      assert.equal((await hr.call('GET', '/document_generations/syntax_migration/list?q=le')).status, 400);

      const generate = async (version: number) => {
        const g = await json<{ id: string; errors: unknown[] }>(
          await hr.call('POST', '/document_generations', {
            document_generation_template_id: v1,
            document_generation_template_version: version,
            output_format: 'DOCX',
            fields: DATASET,
            fragment_fields: { signature: [{ slug: 'signatory', value: 'Ada Martin' }] },
          }),
          201,
        );
        const res = await hr.call('GET', `/document_generations/${g.id}/file`);
        return bodyText(new Uint8Array(await res.arrayBuffer()));
      };
      const before = await generate(1);
      assert.match(before, /Zoë Durand.*02\/01\/2026.*Ada Martin/);
      const converted = await json<Version>(await hr.call('POST', `/document_generations/syntax_migration/${v1}`), 201);
      assert.equal(converted.version, 2);
      assert.equal(converted.syntax_version, 'V2');
      assert.deepEqual(converted.fragment_mapping, [{ slug: 'signature', fragment_id: fragmentId }]);
      assert.deepEqual(converted.output_format, { DOC: false, DOCX: true, ODT: true, PDF: true });
      assert.deepEqual(converted.template_information, []);
      assert.equal(await generate(2), before, 'the V2 version generates the same text');
      const again = await json<{ code: string }>(
        await hr.call('POST', `/document_generations/syntax_migration/${v1}`),
        422,
      );
      assert.equal(again.code, 'not_v1');
      assert.equal((await status()).new_migration_available, false);
      const events = await db()
        .selectFrom('hr_events')
        .select('type')
        .where('client_id', '=', hr.creds.client_id)
        .where('resource_id', '=', `${v1}:2`)
        .execute();
      assert.deepEqual(
        events.map((e) => e.type),
        ['document_generation_template_version.created'],
      );
    });

    it('syntax migration: start (not_started → in_progress only), the job converts every V1 template, restart', async () => {
      const ids: string[] = [];
      for (const title of ['Old one', 'Old two']) {
        const id = (await createTemplate(hr, { title })).id;
        await json(await uploadTemplate(server, hr, id, sampleTemplate('V1'), { syntax: 'V1' }), 201);
        ids.push(id);
      }
      const started = await json<MigrationStatus>(
        await hr.call('PUT', '/document_generations/syntax_migration/status', {
          status: 'in_progress',
          auto_start: true,
        }),
        200,
      );
      assert.equal(started.status, 'in_progress');
      assert.equal(started.auto_start, true);
      assert.ok(started.started_at);
      const twice = await json<{ code: string }>(
        await hr.call('PUT', '/document_generations/syntax_migration/status', { status: 'in_progress' }),
        422,
      );
      assert.equal(twice.code, 'invalid_transition');
      assert.equal(
        (await hr.call('PUT', '/document_generations/syntax_migration/status', { status: 'completed' })).status,
        422,
      );
      const settled = () =>
        until(async () => {
          const s = await json<MigrationStatus>(
            await hr.call('GET', '/document_generations/syntax_migration/status'),
            200,
          );
          return s.status === 'in_progress' ? undefined : s;
        }, 'the migration');
      const done = await settled();
      assert.equal(done.status, 'completed');
      assert.equal(done.new_migration_available, false);
      for (const id of ids) {
        const t = await json<{ latest_version: number; active_version_syntax: string }>(
          await hr.call('GET', `/document_generation_templates/${id}`),
          200,
        );
        assert.deepEqual([t.latest_version, t.active_version_syntax], [2, 'V2']);
      }
      // Restart: again from completed; not while in progress.
      await server.app.services.jobs.stop();
      try {
        const restarted = await json<{ status: string; new_migration_available: boolean }>(
          await hr.call('POST', '/document_generations/syntax_migration/restart'),
          200,
        );
        assert.deepEqual(restarted, { status: 'created', new_migration_available: false });
        const busy = await json<{ code: string }>(
          await hr.call('POST', '/document_generations/syntax_migration/restart'),
          422,
        );
        assert.equal(busy.code, 'invalid_transition');
      } finally {
        server.app.services.jobs.start();
      }
      assert.equal((await settled()).status, 'completed');
      // A run whose job's last attempt died with its process ends failed (it would stay in progress for ever).
      const { runs } = await db()
        .selectFrom('hr_docgen_migrations')
        .select('runs')
        .where('client_id', '=', hr.creds.client_id)
        .executeTakeFirstOrThrow();
      await db()
        .updateTable('hr_docgen_migrations')
        .set({ status: 'in_progress' })
        .where('client_id', '=', hr.creds.client_id)
        .execute();
      await enqueueSpentJob(db(), {
        queue: 'document-generation-syntax-migration',
        tenant: hr.creds.client_id,
        payload: { clientId: hr.creds.client_id, run: Number(runs) },
      });
      server.app.services.jobs.wake();
      assert.equal((await settled()).status, 'failed');
      // The other client never started one.
      const theirs = await json<MigrationStatus>(
        await other.call('GET', '/document_generations/syntax_migration/status'),
        200,
      );
      assert.equal(theirs.status, 'not_started');
    });
  });
}

interface MigrationStatus {
  status: string;
  auto_start: boolean;
  new_migration_available: boolean;
  started_at: string | null;
  ended_at: string | null;
}
interface Version {
  version: number;
  syntax_version: string;
  fragment_mapping: { slug: string; fragment_id: string }[];
  output_format: Record<string, boolean>;
  template_information: unknown[];
}

/** 1 … n. */
function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}
