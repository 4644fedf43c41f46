/**
 * A distribution to 1,000 employees across SIGKILL (issue 20): the built server is killed while it splits the
 * file, and again as it starts filing the employees' documents (a step of about a second: the second kill may
 * land after it), restarted each time; the distribution completes, its report has one `delivered` row per
 * employee (checked row by row), and each employee has exactly one document of it, with one audit event each.
 * In `test:heavy`: about a minute per database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/platform/config.js';
import { openDatabase } from '../../src/platform/db/database.js';
import type { Served } from '../support/cli.js';
import { parseReport, textPdf } from '../support/distributions.js';
import { dialects, freshDatabase, type TestDatabase } from '../support/harness.js';
import { FAST, serve, tenants, until } from '../support/sync.js';

const N = 1_000;

for (const dialect of dialects()) {
  describe(`a distribution to 1,000 employees across SIGKILL (${dialect})`, () => {
    let db: TestDatabase;
    let server: Served | undefined;
    const env: Record<string, string> = {};

    before(async () => {
      db = await freshDatabase(dialect);
      Object.assign(env, db.env, FAST);
    });
    after(async () => {
      if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
      await server?.exited;
      await db.drop();
    });

    it('killed while filing documents, it completes after a restart with one document per employee', async () => {
      const [hr] = await tenants(env, 1);
      assert.ok(hr);
      server = await serve(env);
      let url = server.url;
      await hr.login(url);
      const ok = async <T>(method: string, path: string, body?: unknown, status = 200): Promise<T> => {
        const res = await hr.call<T>(url, method, path, body);
        assert.equal(res.status, status, `${method} ${path}: ${JSON.stringify(res.body)}`);
        return res.body;
      };
      await ok('PUT', '/organizations/paris', { name: 'Paris' }, 201);
      await ok(
        'PUT',
        '/employee_document_types/payslip',
        { label: 'Payslip', localized_labels: [{ language_code: 'en', value: 'Payslip' }], folder_id: 'payroll' },
        201,
      );
      const ids = Array.from({ length: N }, (_, i) => `D${String(i + 1).padStart(4, '0')}`);
      for (let at = 0; at < N; at += 500) {
        const items = ids.slice(at, at + 500).map((id) => ({
          external_id: id,
          firstname: 'F',
          lastname: id,
          email: `${id.toLowerCase()}@example.com`,
          registration_references: [{ organization_id: 'paris', employee_number: id }],
        }));
        const { request_id } = await ok<{ request_id: string }>('POST', '/employees/bulk', items);
        await until(
          async () =>
            (await ok<{ summary: { status: string } }>('GET', `/employees/bulk/${request_id}`)).summary.status ===
            'completed',
          'the employees',
        );
      }

      // One page per employee; every tenth has a second page.
      const pages = ids.flatMap((id, i) =>
        i % 10 === 0 ? [[`Employee ID: ${id}`], ['page 2']] : [[`Employee ID: ${id}`]],
      );
      const fileId = await hr.upload(url, await textPdf(pages), 'payslips.pdf');
      const project = await ok<{ id: number }>('POST', '/distribution_projects', {
        name: 'November',
        paper_configuration: 'standard',
        automatic_validation: true,
      });
      const distribution = await ok<{ id: number }>('POST', '/distributions', {
        name: 'Payslips',
        distribution_type_id: 'payslip',
        distribution_project_id: project.id,
        file_id: fileId,
      });
      // The rows, watched in the database: split (a PDF each) and delivered (a document each).
      const watch = openDatabase(loadConfig(env));
      const progress = async () => {
        const rows = await watch.db
          .selectFrom('hr_distribution_items')
          .select(['sha256', 'document_id'])
          .where('client_id', '=', hr.clientId)
          .execute();
        return {
          split: rows.filter((r) => r.sha256 !== null).length,
          delivered: rows.filter((r) => r.document_id !== null).length,
        };
      };
      const status = async () => (await ok<{ status: string }>('GET', `/distributions/${distribution.id}`)).status;
      const restart = async () => {
        (server as Served).child.kill('SIGKILL');
        await (server as Served).exited;
        server = await serve(env);
        url = server.url;
      };
      try {
        // First kill: while splitting (seconds long), once some rows are split.
        await until(
          async () => {
            const p = await progress();
            return p.split >= 50 && p.split < N;
          },
          'some rows split',
          300_000,
        );
        await restart();
        assert.equal(await status(), 'integrating_documents', 'the first kill came while splitting');
        // Second kill: as soon as the documents are being filed (a short step: it may be over already).
        await until(
          async () => {
            const s = await status();
            return s === 'sending_to_mypeopledoc' || s === 'completed';
          },
          'the filing to start',
          300_000,
        );
        const filing = await progress();
        await restart();
        console.log(`second kill after ${filing.delivered} documents filed`);
      } finally {
        await watch.close();
      }
      await until(
        async () => (await ok<{ status: string }>('GET', `/distributions/${distribution.id}`)).status === 'completed',
        'the distribution to complete',
        300_000,
      );
      assert.equal((await ok<{ status: string }>('GET', `/distribution_projects/${project.id}`)).status, 'completed');

      const res = await hr.text(url, `/distributions/${distribution.id}/report`);
      assert.equal(res.status, 200);
      const [header, ...rows] = parseReport(res.body);
      assert.deepEqual(header, [
        'external_id',
        'pages',
        'status',
        'error_code',
        'error_message',
        'employee_document_id',
      ]);
      assert.equal(rows.length, N);

      const database = openDatabase(loadConfig(env));
      try {
        const documents = await database.db
          .selectFrom('hr_documents as d')
          .innerJoin('hr_employees as e', (j) => j.onRef('e.id', '=', 'd.employee_id'))
          .select(['d.id', 'd.page_count', 'e.external_id'])
          .where('d.client_id', '=', hr.clientId)
          .where('d.origin', '=', 'distribution')
          .execute();
        assert.equal(documents.length, N, 'one document per employee, none twice');
        const byEmployee = new Map(documents.map((d) => [d.external_id, d]));
        let page = 1;
        ids.forEach((id, i) => {
          const two = i % 10 === 0;
          const document = byEmployee.get(id);
          assert.ok(document, `a document for ${id}`);
          assert.equal(Number(document.page_count), two ? 2 : 1);
          assert.deepEqual(rows[i], [id, two ? `${page}-${page + 1}` : String(page), 'delivered', '', '', document.id]);
          page += two ? 2 : 1;
        });
        const created = await database.db
          .selectFrom('hr_events')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('client_id', '=', hr.clientId)
          .where('type', '=', 'employee_document.created')
          .executeTakeFirstOrThrow();
        assert.equal(Number(created.n), N, 'one audit event per document');
      } finally {
        await database.close();
      }
    });
  });
}
