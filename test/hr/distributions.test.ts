/**
 * Distributions (reference §5.6; docs/hr-api.md, "Distributions"): projects and their fields' rules, distributions
 * of a PDF split between the employees its pages name, the status flow driven by the job runner (with and without
 * automatic validation, the validate and cancel extensions, errors), the CSV report, the employee documents filed,
 * resuming without duplicates, and tenancy.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enqueue } from '../../src/platform/jobs/index.js';
import { bulkEmployees, call, parseReport, settled, textPdf, until } from '../support/distributions.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { uploadFile } from '../support/tenants.js';

interface Project {
  id: number;
  status: string;
  [key: string]: unknown;
}
interface Dist {
  id: number;
  status: string;
  distribution_project_id: number;
  distribution_error: { id: string; code: string; error_type: string; message: string; created_at: string } | null;
  [key: string]: unknown;
}
interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string }[];
}

const PROJECT = { name: 'November payslips', paper_configuration: 'standard' };

for (const dialect of dialects()) {
  describe(`distributions (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    const db = () => server.app.database.db;

    const upload = async (pages: string[][], caller = hr, name = 'payslips.pdf') =>
      uploadFile(server, caller, await textPdf(pages), name);
    const project = (body: Record<string, unknown> = {}, caller = hr) =>
      call<Project>(caller, 'POST', '/distribution_projects', { ...PROJECT, ...body }, 200);
    const distribute = async (projectId: number, fileId: string, caller = hr) =>
      call<Dist>(
        caller,
        'POST',
        '/distributions',
        { name: 'Payslips', distribution_type_id: 'payslip', distribution_project_id: projectId, file_id: fileId },
        200,
      );
    const report = async (id: number, caller = hr) => {
      const res = await caller.call('GET', `/distributions/${id}/report`);
      const text = await res.text();
      assert.equal(res.status, 200, text);
      assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
      return { text, rows: parseReport(text) };
    };
    const documentsOf = (externalId: string) =>
      db()
        .selectFrom('hr_documents as d')
        .innerJoin('hr_employees as e', (j) =>
          j.onRef('e.id', '=', 'd.employee_id').onRef('e.client_id', '=', 'd.client_id'),
        )
        .select(['d.id', 'd.origin', 'd.page_count', 'd.document_type_id', 'd.title'])
        .where('e.external_id', '=', externalId)
        .where('d.client_id', '=', hr.creds.client_id)
        .execute();
    const distributionDocuments = async (clientId = hr.creds.client_id) =>
      Number(
        (
          await db()
            .selectFrom('hr_documents')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('client_id', '=', clientId)
            .where('origin', '=', 'distribution')
            .executeTakeFirstOrThrow()
        ).n,
      );

    before(async () => {
      server = await startServer(dialect, { ATRIUM_JOB_POLL_MS: '20', ATRIUM_RATE_LIMIT: '0' });
      hr = await hrCaller(server);
      other = await hrCaller(server);
      for (const caller of [hr, other]) {
        await call(caller, 'PUT', '/organizations/paris', { name: 'Paris' }, 201).catch(() => undefined);
        await caller.call('PUT', '/employee_document_types/payslip', {
          label: 'Payslip',
          localized_labels: [{ language_code: 'en', value: 'Payslip' }],
          folder_id: 'payroll.payslips',
        });
      }
      for (const externalId of ['E1', 'E2', 'E3']) {
        await call(
          hr,
          'POST',
          '/employees',
          {
            firstname: 'Ada',
            lastname: externalId,
            email: `${externalId.toLowerCase()}@example.com`,
            external_id: externalId,
            registration_references: [{ organization_id: 'paris', employee_number: externalId }],
          },
          201,
        );
      }
    });
    after(async () => {
      await server.close();
    });

    it('POST /distribution_projects: 200 with every field and its default; GET and the list read it back', async () => {
      const created = await project();
      assert.ok(Number.isSafeInteger(created.id) && created.id > 0, 'an integer id');
      assert.deepEqual(created, {
        id: created.id,
        name: 'November payslips',
        paper_configuration: 'standard',
        notifications_delivery: 0,
        group_paper_mailing: true,
        restrict_access_to_group: false,
        send_package_to_specific_organization: false,
        user_id: null,
        automatic_validation: false,
        package_first_name: null,
        package_last_name: null,
        package_address: null,
        package_address_2: null,
        package_address_3: null,
        package_postcode: null,
        package_city: null,
        package_country: null,
        package_contact: null,
        has_paper_configuration_recipient_contact_been_used: false,
        status: 'new',
      });
      assert.deepEqual(await call(hr, 'GET', `/distribution_projects/${created.id}`, undefined, 200), created);
      const full = await project({
        notifications_delivery: 10,
        group_paper_mailing: false,
        restrict_access_to_group: true,
        send_package_to_specific_organization: true,
        automatic_validation: true,
        package_first_name: 'Grace',
        package_last_name: 'Hopper',
        package_address: '1 rue de Rivoli',
        package_address_2: 'Bâtiment B',
        package_address_3: null,
        package_postcode: '75001',
        package_city: 'Paris',
        package_country: 'FR',
        package_contact: '+33 1 00 00 00 00',
        has_paper_configuration_recipient_contact_been_used: true,
      });
      assert.equal(full.notifications_delivery, 10);
      assert.equal(full.package_country, 'FR');
      assert.equal(full.automatic_validation, true);
      assert.ok(full.id > created.id, 'ids follow one another');
      const row = await db()
        .selectFrom('hr_distribution_projects')
        .selectAll()
        .where('pk', '=', full.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.client_id, hr.creds.client_id);
      assert.equal(Number(row.group_paper_mailing), 0);

      const listed = await call<Project[]>(hr, 'GET', '/distribution_projects?status=new&per_page=1', undefined, 200);
      assert.deepEqual(
        listed.map((p) => p.id),
        [full.id],
        'newest first, one per page',
      );
      const res = await hr.call('GET', '/distribution_projects?status=new&per_page=1');
      const cursor = res.headers.get('next-cursor');
      assert.ok(cursor, 'a next page');
      const next = await call<Project[]>(
        hr,
        'GET',
        `/distribution_projects?status=new&per_page=1&cursor=${cursor}`,
        undefined,
        200,
      );
      assert.deepEqual(
        next.map((p) => p.id),
        [created.id],
      );
      assert.deepEqual(await call(hr, 'GET', '/distribution_projects?status=completed', undefined, 200), []);
    });

    it('POST /distribution_projects: 422 for each rule, 400 for a bad filter', async () => {
      const refused = async (body: Record<string, unknown>, field: string, code?: string) => {
        const res = await hr.call('POST', '/distribution_projects', body);
        const error = (await res.json()) as ErrorBody;
        assert.equal(res.status, 422, JSON.stringify(error));
        assert.ok(
          error.errors?.some((e) => e.field.includes(field) && (code === undefined || e.code === code)) ||
            error.message.includes(field),
          `${field}: ${JSON.stringify(error)}`,
        );
      };
      await refused({ paper_configuration: 'standard' }, 'name');
      await refused({ name: 'x' }, 'paper_configuration');
      await refused({ ...PROJECT, name: '' }, 'name');
      await refused({ ...PROJECT, notifications_delivery: 11 }, 'notifications_delivery');
      await refused({ ...PROJECT, notifications_delivery: -1 }, 'notifications_delivery');
      await refused({ ...PROJECT, notifications_delivery: 1.5 }, 'notifications_delivery');
      await refused({ ...PROJECT, notifications_delivery: 2 ** 40 }, 'notifications_delivery');
      await refused({ ...PROJECT, package_country: 'fr' }, 'package_country');
      await refused({ ...PROJECT, package_country: 'FRA' }, 'package_country');
      await refused({ ...PROJECT, package_country: 'ZZ' }, 'package_country', 'invalid');
      await refused({ ...PROJECT, user_id: 'nobody' }, 'user_id', 'not_found');
      await refused({ ...PROJECT, automatic_validation: 'yes' }, 'automatic_validation');
      const bad = await hr.call('GET', '/distribution_projects?status=done');
      assert.equal(bad.status, 400);
      const badFilter = await hr.call('GET', '/distributions?distribution_project_id=abc');
      assert.equal(badFilter.status, 400);
      const huge = await hr.call('GET', '/distributions?distribution_project_id=99999999999999999999');
      assert.equal(huge.status, 400);
    });

    it('ids that are not integers, or too large, are 404', async () => {
      for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999', '9007199254740993', '%20']) {
        for (const path of [`/distribution_projects/${id}`, `/distributions/${id}`, `/distributions/${id}/report`]) {
          const res = await hr.call('GET', path);
          assert.equal(res.status, 404, `${path}: ${res.status}`);
        }
        const res = await hr.call('POST', `/distribution_projects/${id}/validate`);
        assert.equal(res.status, 404, `validate ${id}`);
      }
    });

    it('POST /distributions: 422 for an unknown project, type or file, and a file that is no PDF', async () => {
      const p = await project();
      const fileId = await upload([['Employee ID: E1']]);
      const refused = async (body: Record<string, unknown>, field: string, code: string) => {
        const res = await hr.call('POST', '/distributions', {
          name: 'Payslips',
          distribution_type_id: 'payslip',
          distribution_project_id: p.id,
          file_id: fileId,
          ...body,
        });
        const error = (await res.json()) as ErrorBody;
        assert.equal(res.status, 422, JSON.stringify(error));
        assert.ok(
          error.errors?.some((e) => e.field === field && e.code === code),
          `${field} ${code}: ${JSON.stringify(error)}`,
        );
      };
      await refused({ distribution_project_id: 2 ** 31 }, 'distribution_project_id', 'not_found');
      await refused({ distribution_type_id: 'nope' }, 'distribution_type_id', 'not_found');
      await refused({ file_id: 'nope' }, 'file_id', 'not_found');
      const text = await uploadFile(server, hr, Buffer.from('plain text'), 'notes.txt');
      await refused({ file_id: text }, 'file_id', 'invalid_file_type');
      // Refused inside the unit of work: the text upload is still unused.
      const used = await db().selectFrom('hr_uploads').select('consumed_at').where('id', '=', text).executeTakeFirst();
      assert.equal(used?.consumed_at, null);
      for (const body of [
        { name: '' },
        { distribution_project_id: 0 },
        { distribution_project_id: 2 ** 60 },
        { file_id: '' },
      ]) {
        const res = await hr.call('POST', '/distributions', {
          name: 'x',
          distribution_type_id: 'payslip',
          distribution_project_id: p.id,
          file_id: fileId,
          ...body,
        });
        assert.equal(res.status, 422, JSON.stringify(body));
      }
      // The file, once used, cannot be used again.
      await distribute(p.id, fileId);
      await refused({}, 'file_id', 'already_used');
    });

    it('the flow: new → … → waiting_for_validation, validate → completed; the report and the documents', async () => {
      const p = await project();
      const fileId = await upload([
        ['Cover letter'],
        ['Payslip', 'Employee ID: E1'],
        ['Page 2 of the payslip'],
        ['Payslip for E2, November'],
        ['Employee ID: =1+2'],
        ['continued'],
        ['Employee ID: E1', 'Annex'],
      ]);
      const created = await distribute(p.id, fileId);
      assert.ok(Number.isSafeInteger(created.id), 'an integer id');
      assert.deepEqual(created, {
        id: created.id,
        name: 'Payslips',
        distribution_type_id: 'payslip',
        distribution_project_id: p.id,
        file_id: fileId,
        distribution_error: null,
        status: 'new',
      });
      const waiting = await settled(hr, created.id, ['waiting_for_validation', 'completed', 'error']);
      assert.equal(waiting.status, 'waiting_for_validation');
      const waitingProject = await call<Project>(hr, 'GET', `/distribution_projects/${p.id}`, undefined, 200);
      assert.equal(waitingProject.status, 'waiting_for_validation');
      assert.equal(await distributionDocuments(), 0, 'nothing is filed before validation');
      // Its status went through every step so far, each an event.
      const steps = await db()
        .selectFrom('hr_events')
        .select(['data'])
        .where('client_id', '=', hr.creds.client_id)
        .where('type', '=', 'distribution.status_changed')
        .where('resource_id', '=', String(created.id))
        .orderBy('pk')
        .execute();
      assert.deepEqual(
        steps.map((s) => (JSON.parse(s.data) as { status: string }).status),
        ['preparing_documents', 'integrating_documents', 'waiting_for_validation'],
      );

      const validated = await call<Project>(hr, 'POST', `/distribution_projects/${p.id}/validate`, undefined, 200);
      assert.equal(validated.status, 'validated');
      const again = await hr.call('POST', `/distribution_projects/${p.id}/validate`);
      assert.equal(again.status, 400);
      const done = await settled(hr, created.id, ['completed', 'error']);
      assert.equal(done.status, 'completed');
      assert.equal(done.distribution_error, null);
      assert.equal(
        (await call<Project>(hr, 'GET', `/distribution_projects/${p.id}`, undefined, 200)).status,
        'completed',
      );

      const { text, rows } = await report(created.id);
      assert.ok(text.includes('\r\n'), 'CRLF');
      const [header, ...body] = rows;
      assert.deepEqual(header, [
        'external_id',
        'pages',
        'status',
        'error_code',
        'error_message',
        'employee_document_id',
      ]);
      const e1 = await documentsOf('E1');
      const e2 = await documentsOf('E2');
      assert.equal(e1.length, 1, 'one document for all of E1’s pages');
      assert.equal(e2.length, 1);
      assert.deepEqual(body, [
        ['', '1', 'error', 'MISSING_IDENTIFIER', 'No employee identifier before these pages.', ''],
        ['E1', '2-3,7', 'delivered', '', '', e1[0]?.id],
        ['E2', '4', 'delivered', '', '', e2[0]?.id],
        ["'=1+2", '5-6', 'error', 'MISSING_USER', 'No employee has this identifier (external_id).', ''],
      ]);
      assert.equal(e1[0]?.origin, 'distribution');
      assert.equal(Number(e1[0]?.page_count), 3);
      assert.equal(e1[0]?.document_type_id, 'payslip');
      const document = await call<{ origin: string; origin_details: unknown; employee_id: string }>(
        hr,
        'GET',
        `/employee_documents/${e1[0]?.id}`,
        undefined,
        200,
      );
      assert.equal(document.origin, 'distribution');
      assert.equal(document.origin_details, null);
      // The file of E1 is a PDF of their three pages.
      const file = await hr.call('GET', `/employee_documents/${e1[0]?.id}/file`);
      assert.equal(file.status, 200);
      const bytes = Buffer.from(await file.arrayBuffer());
      assert.equal(bytes.subarray(0, 5).toString(), '%PDF-');

      // A completed project takes no more distributions.
      const late = await hr.call('POST', '/distributions', {
        name: 'Late',
        distribution_type_id: 'payslip',
        distribution_project_id: p.id,
        file_id: await upload([['Employee ID: E3']]),
      });
      const error = (await late.json()) as ErrorBody;
      assert.equal(late.status, 422);
      assert.deepEqual(
        error.errors?.map((e) => [e.field, e.code]),
        [['distribution_project_id', 'closed']],
      );

      // Listed, and filtered by project.
      const listed = await call<Dist[]>(hr, 'GET', `/distributions?distribution_project_id=${p.id}`, undefined, 200);
      assert.deepEqual(
        listed.map((d) => d.id),
        [created.id],
      );
      assert.deepEqual(await call(hr, 'GET', '/distributions?distribution_project_id=999999999', undefined, 200), []);

      // Run again from any step (a job killed half-way resumes): nothing is filed twice.
      for (const status of ['integrating_documents', 'sending_to_mypeopledoc']) {
        await db().updateTable('hr_distributions').set({ status }).where('pk', '=', created.id).execute();
        await enqueue(db(), {
          queue: 'distribution',
          tenant: hr.creds.client_id,
          payload: { clientId: hr.creds.client_id, distributionId: created.id },
        });
        server.app.services.jobs.wake();
        await until(async () => {
          const d = await call<Dist>(hr, 'GET', `/distributions/${created.id}`, undefined, 200);
          // From integrating_documents it waits for validation again (the project is not automatic).
          if (d.status === 'waiting_for_validation') {
            await db()
              .updateTable('hr_distributions')
              .set({ status: 'validated' })
              .where('pk', '=', created.id)
              .execute();
            await enqueue(db(), {
              queue: 'distribution',
              tenant: hr.creds.client_id,
              payload: { clientId: hr.creds.client_id, distributionId: created.id },
            });
            server.app.services.jobs.wake();
          }
          return d.status === 'completed' ? d : undefined;
        }, `a second run from ${status}`);
        assert.equal((await documentsOf('E1')).length, 1, `E1 after a run from ${status}`);
        assert.equal((await documentsOf('E2')).length, 1, `E2 after a run from ${status}`);
      }
      assert.deepEqual((await report(created.id)).rows.slice(1), body);
    });

    it('automatic_validation: straight to completed; several distributions, one project', async () => {
      const p = await project({ automatic_validation: true });
      // Once the first distribution is done, the project completes and takes no more: the job runner is held while
      // both are added (adding the second after an upload, and later right after the first, lost that race in CI).
      const one = await upload([['Employee ID: E3']]);
      const two = await upload([['E2 annual review'], ['E1 annual review']]);
      await server.app.services.jobs.stop();
      let first: Dist;
      let second: Dist;
      try {
        first = await distribute(p.id, one);
        second = await distribute(p.id, two);
      } finally {
        server.app.services.jobs.start();
      }
      for (const d of [first, second]) {
        const done = await settled(hr, d.id, ['completed', 'error', 'waiting_for_validation']);
        assert.equal(done.status, 'completed');
      }
      assert.equal(
        (await call<Project>(hr, 'GET', `/distribution_projects/${p.id}`, undefined, 200)).status,
        'completed',
      );
      const res = await hr.call('POST', `/distribution_projects/${p.id}/validate`);
      assert.equal(res.status, 400, 'an automatic project never waits');
      const { rows } = await report(second.id);
      assert.deepEqual(
        rows.slice(1).map((r) => [r[0], r[1], r[2]]),
        [
          ['E2', '1', 'delivered'],
          ['E1', '2', 'delivered'],
        ],
      );
      assert.equal((await documentsOf('E3')).length, 1);
    });

    it('errors: no page names an employee, an unreadable file; the project is error', async () => {
      const p = await project({ automatic_validation: true });
      const nobody = await distribute(p.id, await upload([['Employee ID: X404'], ['Hello']]));
      const failed = await settled(hr, nobody.id, ['completed', 'error']);
      assert.equal(failed.status, 'error');
      assert.equal(failed.distribution_error?.code, 'NO_EMPLOYEE_FOUND');
      assert.equal(failed.distribution_error?.error_type, 'external');
      assert.match(failed.distribution_error?.created_at ?? '', /^\d{4}-\d\d-\d\dT/);
      assert.deepEqual((await report(nobody.id)).rows.slice(1), [
        ['X404', '1-2', 'error', 'MISSING_USER', 'No employee has this identifier (external_id).', ''],
      ]);
      assert.equal((await call<Project>(hr, 'GET', `/distribution_projects/${p.id}`, undefined, 200)).status, 'error');

      const q = await project({ automatic_validation: true });
      const broken = Buffer.from('%PDF-1.4\nnot really a PDF at all\n%%EOF\n');
      const unreadable = await distribute(q.id, await uploadFile(server, hr, broken, 'broken.pdf'));
      const out = await settled(hr, unreadable.id, ['completed', 'error']);
      assert.equal(out.status, 'error');
      assert.equal(out.distribution_error?.code, 'UNREADABLE_FILE');
      assert.deepEqual((await report(unreadable.id)).rows, [
        ['external_id', 'pages', 'status', 'error_code', 'error_message', 'employee_document_id'],
      ]);
    });

    it('cancel: the waiting distributions and the project are canceled; an ended project cannot be', async () => {
      const p = await project();
      const d = await distribute(p.id, await upload([['Employee ID: E1']]));
      await settled(hr, d.id, ['waiting_for_validation']);
      const canceled = await call<Project>(hr, 'POST', `/distribution_projects/${p.id}/cancel`, undefined, 200);
      assert.equal(canceled.status, 'canceled');
      assert.equal((await call<Dist>(hr, 'GET', `/distributions/${d.id}`, undefined, 200)).status, 'canceled');
      assert.equal((await hr.call('POST', `/distribution_projects/${p.id}/cancel`)).status, 400);
      assert.equal((await hr.call('POST', `/distribution_projects/${p.id}/validate`)).status, 400);
      assert.deepEqual(await call(hr, 'GET', '/distribution_projects?status=canceled', undefined, 200), [canceled]);
    });

    it('a distribution to 100 employees completes: the report row by row, the documents counted', async () => {
      const ids = await bulkEmployees(hr, 'H', 100);
      const p = await project({ automatic_validation: true });
      const before = await distributionDocuments();
      const pages = ids.flatMap((id, i) =>
        i % 10 === 0 ? [[`Employee ID: ${id}`], ['page 2']] : [[`Employee ID: ${id}`]],
      );
      const d = await distribute(p.id, await upload(pages));
      const done = await settled(hr, d.id, ['completed', 'error']);
      assert.equal(done.status, 'completed');
      const { rows } = await report(d.id);
      assert.equal(rows.length, 101);
      const documents = await db()
        .selectFrom('hr_distribution_items')
        .select(['position', 'document_id'])
        .where('distribution_pk', '=', d.id)
        .orderBy('position')
        .execute();
      let page = 1;
      ids.forEach((id, i) => {
        const span = i % 10 === 0 ? `${page}-${page + 1}` : String(page);
        page += i % 10 === 0 ? 2 : 1;
        assert.deepEqual(rows[i + 1], [id, span, 'delivered', '', '', documents[i]?.document_id]);
      });
      assert.equal((await distributionDocuments()) - before, 100);
    });

    it('tenancy: another client’s projects and distributions are 404 and never listed', async () => {
      const p = await project({ automatic_validation: true });
      const d = await distribute(p.id, await upload([['Employee ID: E1']]));
      await settled(hr, d.id, ['completed', 'error']);
      for (const path of [
        `/distribution_projects/${p.id}`,
        `/distributions/${d.id}`,
        `/distributions/${d.id}/report`,
      ]) {
        assert.equal((await other.call('GET', path)).status, 404, path);
      }
      for (const action of ['validate', 'cancel']) {
        assert.equal((await other.call('POST', `/distribution_projects/${p.id}/${action}`)).status, 404, action);
      }
      assert.deepEqual(await call(other, 'GET', '/distribution_projects', undefined, 200), []);
      assert.deepEqual(await call(other, 'GET', '/distributions', undefined, 200), []);
      assert.deepEqual(await call(other, 'GET', `/distributions?distribution_project_id=${p.id}`, undefined, 200), []);
      const res = await other.call('POST', '/distributions', {
        name: 'x',
        distribution_type_id: 'payslip',
        distribution_project_id: p.id,
        file_id: await upload([['Employee ID: E1']], other),
      });
      const error = (await res.json()) as ErrorBody;
      assert.equal(res.status, 422);
      assert.deepEqual(
        error.errors?.map((e) => [e.field, e.code]),
        [['distribution_project_id', 'not_found']],
      );
      // Another client's employee of the same external id is not theirs: the other client's own distribution
      // finds no employee.
      const q = await project({ automatic_validation: true }, other);
      const theirs = await distribute(q.id, await upload([['Employee ID: E1']], other), other);
      const out = await settled(other, theirs.id, ['completed', 'error']);
      assert.equal(out.status, 'error');
      assert.equal(await distributionDocuments(other.creds.client_id), 0);
    });
  });
}
