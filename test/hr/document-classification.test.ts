/**
 * Document classification (reference §3c.8; docs/hr-api.md, "Document classification"):
 * `POST /document_type_prediction_run` answers 202 `SCHEDULED` and queues its job in the same transaction; the job
 * reads the document's text and guesses its type by the keywords of the types' labels, then `DONE` (or `FAILED`
 * with `prediction-error` for a file without text). Unknown ids and another tenant's runs.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { call, textPdf, until } from '../support/distributions.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { uploadFile } from '../support/tenants.js';

interface Run {
  id: string;
  document_id: string;
  status: string;
  error_code: string | null;
  started_at: string | null;
  completed_at: string | null;
  guessed_document_types: { document_type_id: string; probability: number }[];
  created_at: string;
  updated_at: string;
}

interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string }[];
}

const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==', 'base64');

for (const dialect of dialects()) {
  describe(`document classification (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;

    const db = () => server.app.database.db;
    const document = async (kind: 'company' | 'employee', type: string, data: Buffer, filename: string) => {
      const file_id = await uploadFile(server, hr, data, filename);
      const body =
        kind === 'company'
          ? { document_type_id: type, title: filename, organization_ids: ['hq'], uploaded_file: { file_id, filename } }
          : { document_type_id: type, employee_id: employeeId, uploaded_file: { file_id, filename } };
      return (await call<{ id: string }>(hr, 'POST', `/${kind}_documents`, body, 201)).id;
    };
    const settled = (id: string, caller = hr) =>
      until(async () => {
        const run = await call<Run>(caller, 'GET', `/document_type_prediction_run/${id}`, undefined, 200);
        return run.status === 'DONE' || run.status === 'FAILED' ? run : undefined;
      }, `run ${id}`);
    let employeeId = '';

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      other = await hrCaller(server);
      await call(hr, 'PUT', '/organizations/hq', { name: 'HQ' }, 201);
      const types: [string, string, string[]][] = [
        ['company', 'payslip', ['Monthly payslip', 'Bulletin de paie mensuel']],
        ['company', 'bonus', ['Payslip bonus']],
        ['company', 'contract', ['Employment contract']],
        ['employee', 'medical', ['Médical certificate']],
      ];
      for (const [kind, id, [label, ...others]] of types) {
        await call(
          hr,
          'PUT',
          `/${kind}_document_types/${id}`,
          {
            localized_labels: [
              { language_code: 'en', value: label },
              ...others.map((value) => ({ language_code: 'fr', value })),
            ],
          },
          201,
        );
      }
      const res = await hr.call('POST', '/employees', {
        firstname: 'Ada',
        lastname: 'Lovelace',
        email: 'ada@example.com',
        external_id: 'E1',
        registration_references: [{ organization_id: 'hq', employee_number: 'A1' }],
      });
      assert.ok(res.status === 200 || res.status === 201, `employee: ${res.status} ${await res.clone().text()}`);
      const employee = (await res.json()) as { id: string } | { id: string }[];
      employeeId = Array.isArray(employee) ? (employee[0] as { id: string }).id : employee.id;
    });
    after(() => server?.close());

    it('answers 202 SCHEDULED, queues its job with it, then DONE with the keyword guesses, best first', async () => {
      const pdf = await textPdf([['PAYSLIP for March'], ['Monthly net pay: 2,000 EUR']]);
      const documentId = await document('company', 'contract', pdf, 'march.pdf');
      const res = await hr.call('POST', '/document_type_prediction_run', { document_id: documentId });
      assert.equal(res.status, 202);
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
      const created = (await res.json()) as Run;
      assert.equal(created.status, 'SCHEDULED');
      assert.equal(created.document_id, documentId);
      assert.deepEqual(created.guessed_document_types, []);
      assert.equal(created.started_at, null);
      assert.equal(created.completed_at, null);
      assert.equal(created.error_code, null);
      assert.match(created.id, /^[0-9a-f-]{36}$/);

      // The run's job was committed with it: a row of the durable queue naming the run.
      const jobs = await db()
        .selectFrom('jobs')
        .select(['payload', 'tenant'])
        .where('queue', '=', 'document_type_prediction')
        .execute();
      const job = jobs.find((j) => (JSON.parse(j.payload) as { runId: string }).runId === created.id);
      assert.ok(job, 'the run has its job');
      assert.equal(job.tenant, hr.creds.client_id);

      const done = await settled(created.id);
      assert.equal(done.status, 'DONE', JSON.stringify(done));
      // payslip: "monthly" and "payslip" of 5 keywords (monthly, payslip, bulletin, paie, mensuel); bonus: 1 of 2.
      assert.deepEqual(done.guessed_document_types, [
        { document_type_id: 'bonus', probability: 0.5 },
        { document_type_id: 'payslip', probability: 0.4 },
      ]);
      assert.equal(done.error_code, null);
      assert.ok(done.started_at !== null && done.completed_at !== null, 'started and completed');
      assert.ok(Date.parse(done.completed_at) >= Date.parse(done.started_at), 'completed after it started');
      assert.equal(done.created_at, created.created_at);

      const row = await db()
        .selectFrom('hr_document_type_prediction_runs')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.status, 'DONE');
      assert.equal(row.client_id, hr.creds.client_id);
      const events = await db()
        .selectFrom('hr_events')
        .select(['type'])
        .where('resource_id', '=', created.id)
        .orderBy('pk')
        .execute();
      assert.deepEqual(
        events.map((e) => e.type),
        [
          'document_type_prediction_run.created',
          'document_type_prediction_run.status_changed',
          'document_type_prediction_run.status_changed',
        ],
      );
    });

    it('reads a text file, folds accents and case, and guesses among the types of the document’s kind', async () => {
      const text = Buffer.from('CERTIFICAT MEDICAL — medical certificate of fitness, monthly review\n');
      const documentId = await document('employee', 'medical', text, 'note.txt');
      const run = await call<Run>(hr, 'POST', '/document_type_prediction_run', { document_id: documentId }, 202);
      const done = await settled(run.id);
      // Only employee types: "monthly" of the company type `payslip` counts for nothing here.
      assert.deepEqual(done.guessed_document_types, [{ document_type_id: 'medical', probability: 1 }]);
    });

    it('FAILED with prediction-error when the file has no text to read', async () => {
      const documentId = await document('company', 'contract', GIF, 'logo.gif');
      const run = await call<Run>(hr, 'POST', '/document_type_prediction_run', { document_id: documentId }, 202);
      const done = await settled(run.id);
      assert.equal(done.status, 'FAILED');
      assert.equal(done.error_code, 'prediction-error');
      assert.deepEqual(done.guessed_document_types, []);
      assert.ok(done.completed_at !== null);
    });

    it('refuses an unknown document (422 not_found), with no run and no job left behind', async () => {
      const runsBefore = await db().selectFrom('hr_document_type_prediction_runs').select('id').execute();
      const jobsBefore = await db()
        .selectFrom('jobs')
        .select('id')
        .where('queue', '=', 'document_type_prediction')
        .execute();
      for (const document_id of [randomUUID(), 'nope']) {
        const res = await hr.call('POST', '/document_type_prediction_run', { document_id });
        assert.equal(res.status, 422);
        const body = (await res.json()) as ErrorBody;
        assert.equal(body.code, 'validation_error');
        assert.equal(typeof body.message, 'string');
        assert.deepEqual(
          body.errors?.map((e) => [e.field, e.code]),
          [['document_id', 'not_found']],
        );
      }
      const missing = await hr.call('POST', '/document_type_prediction_run', {});
      assert.equal(missing.status, 422);
      assert.equal(((await missing.json()) as ErrorBody).code, 'validation_error');
      assert.equal(
        (await db().selectFrom('hr_document_type_prediction_runs').select('id').execute()).length,
        runsBefore.length,
      );
      const jobsAfter = await db()
        .selectFrom('jobs')
        .select('id')
        .where('queue', '=', 'document_type_prediction')
        .execute();
      assert.equal(jobsAfter.length, jobsBefore.length);
    });

    it('answers 404 for an unknown run, and for another tenant’s run and document', async () => {
      const res = await hr.call('GET', `/document_type_prediction_run/${randomUUID()}`);
      assert.equal(res.status, 404);
      const body = (await res.json()) as ErrorBody;
      assert.equal(body.code, 'not_found');
      assert.equal(typeof body.message, 'string');

      const documentId = await document('company', 'payslip', Buffer.from('monthly payslip'), 'p.txt');
      const run = await call<Run>(hr, 'POST', '/document_type_prediction_run', { document_id: documentId }, 202);
      const foreign = await other.call('GET', `/document_type_prediction_run/${run.id}`);
      assert.equal(foreign.status, 404);
      assert.equal(((await foreign.json()) as ErrorBody).code, 'not_found');
      const foreignDoc = await other.call('POST', '/document_type_prediction_run', { document_id: documentId });
      assert.equal(foreignDoc.status, 422);
      assert.deepEqual(
        ((await foreignDoc.json()) as ErrorBody).errors?.map((e) => [e.field, e.code]),
        [['document_id', 'not_found']],
      );
      assert.equal((await settled(run.id)).status, 'DONE');
    });
  });
}
