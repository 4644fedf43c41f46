/**
 * Document generation across SIGKILL (issue 47): the built server is killed while it generates 200 async
 * documents, and while it runs a 100-row campaign of each `output_action`, then restarted; every request ends
 * `PROCESSED`, each generation records one document and one `generated` event, and each campaign completes with
 * every row generated once (the zip's 100 entries, the PDF's 100 pages, 100 employee documents, none twice).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { unzipSync } from 'fflate';
import { certificateFields } from '../../bench/docgen.js';
import { certificateTemplate } from '../../src/hr/document-generation/samples.js';
import { loadConfig } from '../../src/platform/config.js';
import { openDatabase } from '../../src/platform/db/database.js';
import type { Served } from '../support/cli.js';
import { dialects, freshDatabase, type TestDatabase } from '../support/harness.js';
import { FAST, serve, tenants, until } from '../support/sync.js';

const ASYNC = 200;
const ROWS = 100;

for (const dialect of dialects()) {
  describe(`document generation across SIGKILL (${dialect})`, () => {
    let db: TestDatabase;
    let server: Served | undefined;
    const env: Record<string, string> = {};
    let hr: Awaited<ReturnType<typeof tenants>>[number];
    let url = '';
    let templateId = '';

    const ok = async <T>(method: string, path: string, body?: unknown, status = 200): Promise<T> => {
      const res = await hr.call<T>(url, method, path, body);
      assert.equal(res.status, status, `${method} ${path}: ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const restart = async () => {
      (server as Served).child.kill('SIGKILL');
      await (server as Served).exited;
      server = await serve(env);
      url = server.url;
    };
    const count = async (query: (database: ReturnType<typeof openDatabase>) => Promise<number>) => {
      const database = openDatabase(loadConfig(env));
      try {
        return await query(database);
      } finally {
        await database.close();
      }
    };

    before(async () => {
      db = await freshDatabase(dialect);
      Object.assign(env, db.env, FAST);
      [hr] = (await tenants(env, 1)) as [typeof hr];
      server = await serve(env);
      url = server.url;
      await hr.login(url);
      await ok('PUT', '/organizations/paris', { name: 'Paris' }, 201);
      await ok(
        'PUT',
        '/employee_document_types/certificate',
        {
          label: 'Certificate',
          localized_labels: [{ language_code: 'en', value: 'Certificate' }],
          folder_id: 'payroll',
        },
        201,
      );
      templateId = (
        await ok<{ id: string }>(
          'POST',
          '/document_generation_templates',
          { title: 'Certificate', description: '', locale: 'en-us', enabled: true },
          201,
        )
      ).id;
      const form = new FormData();
      form.append('template', new Blob([Buffer.from(certificateTemplate('V2'))]), 'certificate.docx');
      const uploaded = await hr.form(url, `/document_generation_templates/${templateId}/file`, form);
      assert.equal(uploaded.status, 201);
    });
    after(async () => {
      if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
      await server?.exited;
      await db.drop();
    });

    it('generates 200 async documents across a SIGKILL, each once', async () => {
      const requests: string[] = [];
      for (let n = 0; n < ASYNC; n++) {
        const accepted = await ok<{ id: string }>(
          'POST',
          '/document_generations/async',
          { document_generation_template_id: templateId, output_format: 'PDF', fields: certificateFields(n) },
          202,
        );
        requests.push(accepted.id);
      }
      const generated = () =>
        count(async (database) =>
          Number(
            (
              await database.db
                .selectFrom('hr_docgen_generations')
                .select((eb) => eb.fn.countAll().as('n'))
                .where('client_id', '=', hr.clientId)
                .where('status', '=', 'GENERATED')
                .executeTakeFirstOrThrow()
            ).n,
          ),
        );
      await until(async () => (await generated()) >= 10, 'some documents generated', 300_000);
      const before = await generated();
      await restart();
      await hr.login(url);
      console.log(`killed after ${before} of ${ASYNC} async documents`);
      assert.ok(before < ASYNC, 'the kill came while generating');
      await until(async () => (await generated()) === ASYNC, 'every document', 300_000);
      for (const id of requests) {
        const status = await ok<{ status: string }>('GET', `/document_generation_requests/${id}/status`);
        assert.equal(status.status, 'PROCESSED', id);
      }
      const events = await count(async (database) =>
        Number(
          (
            await database.db
              .selectFrom('hr_events')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('client_id', '=', hr.clientId)
              .where('type', '=', 'document_generation.generated')
              .executeTakeFirstOrThrow()
          ).n,
        ),
      );
      assert.equal(events, ASYNC, 'one generated event per document');
    });

    for (const action of ['zip', 'pdf', 'archive'] as const) {
      it(`runs a 100-row campaign (${action}) across a SIGKILL, each row once`, async () => {
        const employees: string[] = [];
        for (let n = 0; n < ROWS; n++) {
          const e = await ok<{ id: string }>(
            'POST',
            '/employees',
            {
              firstname: 'F',
              lastname: `${action}-${n}`,
              email: `${action}-${n}@example.com`,
              registration_references: [{ organization_id: 'paris', employee_number: `${action}-${n}` }],
            },
            201,
          );
          employees.push(e.id);
        }
        const campaign = await ok<{ id: string }>(
          'POST',
          '/document_generation_campaigns',
          {
            title: `Campaign ${action}`,
            document_generation_template_id: templateId,
            output_action: action,
            ...(action === 'archive' ? { document_type_id: 'certificate' } : {}),
            data: employees.map((employee_id, n) => ({ employee_id, ref: `row-${n}`, fields: certificateFields(n) })),
          },
          201,
        );
        const done = () =>
          count(async (database) =>
            Number(
              (
                await database.db
                  .selectFrom('hr_docgen_campaign_rows')
                  .select((eb) => eb.fn.countAll().as('n'))
                  .where('client_id', '=', hr.clientId)
                  .where('campaign_id', '=', campaign.id)
                  .where('status', '!=', 'pending')
                  .executeTakeFirstOrThrow()
              ).n,
            ),
          );
        await until(async () => (await done()) >= 5, 'some rows generated', 300_000);
        const killedAt = await done();
        await restart();
        await hr.login(url);
        console.log(`campaign ${action}: killed after ${killedAt} of ${ROWS} rows`);
        await until(
          async () =>
            (await ok<{ status: string }>('GET', `/document_generation_campaigns/${campaign.id}`)).status ===
            'completed',
          'the campaign to complete',
          300_000,
        );
        if (action === 'zip') {
          const file = await hr.bytes(url, `/document_generation_campaigns/${campaign.id}/file`);
          assert.equal(file.status, 200);
          assert.equal(Object.keys(unzipSync(file.body)).length, ROWS, 'one entry per row');
        } else if (action === 'pdf') {
          const file = await hr.bytes(url, `/document_generation_campaigns/${campaign.id}/file`);
          assert.equal(file.status, 200);
          const { countPdfPages } = await import('../../src/platform/pdf/pages.js');
          assert.equal(await countPdfPages(file.body), ROWS, 'one page per row (a one-page template)');
        } else {
          const documents = await count(async (database) => {
            const rows = await database.db
              .selectFrom('hr_documents')
              .select('employee_id')
              .where('client_id', '=', hr.clientId)
              .where('employee_id', 'in', employees)
              .execute();
            assert.deepEqual(
              rows.map((r) => r.employee_id).sort(),
              [...employees].sort(),
              'one document per employee, none twice',
            );
            return rows.length;
          });
          assert.equal(documents, ROWS);
        }
      });
    }
  });
}
