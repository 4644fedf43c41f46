/**
 * CSV imports (issue 19, reference §5.3): employees, organizations and managers from an upload, applied row by row
 * in the background; `partial_success` counts, the XML reports (403 until the import ends), the source, the CSV
 * reading (quotes, BOM, CRLF, `;` or `,`, UTF-8 only) and isolation between clients.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { spendPendingJobs } from '../support/jobs.js';
import { upload } from '../support/people-assist.js';

type Body = Record<string, unknown>;

interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string; message: string }[];
}

interface Import {
  id: string;
  type: string;
  status: string;
  rows_count: number;
  created_objects_count: number;
  updated_objects_count: number;
  deleted_objects_count: number;
  errors_count: number;
  [key: string]: unknown;
}

async function json<T = Body>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return (text ? JSON.parse(text) : undefined) as T;
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The LINE elements of an XML report, as [line, entity id, result code, message]. */
function lines(xml: string): [number, string, number, string][] {
  return [...xml.matchAll(/<LINE>(.*?)<\/LINE>/g)].map((m) => {
    const field = (name: string) => {
      const found = new RegExp(`<${name}>(.*?)</${name}>|<${name}/>`).exec(m[1] as string);
      return (found?.[1] ?? '').replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)));
    };
    return [Number(field('LINE_NUMBER')), field('ENTITY_ID'), Number(field('RESULT_CODE')), field('RESULT_MESSAGE')];
  });
}

for (const dialect of dialects()) {
  describe(`CSV imports (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    const db = () => server.app.database.db;

    async function start(type: string, csv: Buffer | string, filename = 'import.csv', caller = hr): Promise<Import> {
      const bytes = typeof csv === 'string' ? Buffer.from(csv) : csv;
      const fileId = await upload(server, caller, bytes, filename);
      return json<Import>(
        await caller.call('POST', '/imports', { type, uploaded_file: { file_id: fileId, filename } }),
        201,
      );
    }

    async function run(type: string, csv: Buffer | string, filename = 'import.csv'): Promise<Import> {
      const created = await start(type, csv, filename);
      let found = created;
      await until(async () => {
        found = await json<Import>(await hr.call('GET', `/imports/${created.id}`), 200);
        return ['success', 'partial_success', 'failed'].includes(found.status);
      }, 'the import to end');
      return found;
    }

    const xml = async (id: string, name: 'report' | 'errors_report') => {
      const res = await hr.call('GET', `/imports/${id}/${name}`);
      const text = await res.text();
      assert.equal(res.status, 200, text);
      assert.match(res.headers.get('content-type') ?? '', /^text\/xml/);
      return text;
    };

    before(async () => {
      server = await startServer(dialect, { ATRIUM_JOB_POLL_MS: '50' });
      hr = await hrCaller(server);
      other = await hrCaller(server);
      await json(await hr.call('PUT', '/organizations/hq', { name: 'HQ' }), 201);
      await json(await hr.call('PUT', '/organizations/lyon', { name: 'Lyon' }), 201);
      await json(
        await hr.call('PUT', '/custom_fields/department', {
          label: 'Department',
          type: 'list',
          authorized_values: [
            { value: 'it', label: 'IT' },
            { value: 'hr', label: 'HR' },
          ],
          default_value: 'hr',
        }),
        201,
      );
    });
    after(() => server.close());

    it('employees: good rows land, bad ones fail alone; counts, reports and the rows agree', async () => {
      const csv =
        '\uFEFFexternal_id;firstname;lastname;email;organization_id;employee_number;organization_id_2;employee_number_2;active_2;custom_field:department;notes\r\n' +
        'E1;Ada;"Lovelace; Countess";ada@example.com;hq;1;;;;it;x\r\n' +
        'E2;Bob;Stone;bob@example.com;hq;2;lyon;9;no;;\r\n' +
        'E3;Cy;Bad;cy@example.com;nowhere;3;;;;;\r\n' +
        ';No;Key;nokey@example.com;hq;4;;;;;\r\n' +
        'E5;Too;Short\r\n' +
        'E6;Dee;Dept;dee@example.com;hq;6;;;;sales;\r\n';
      const done = await run('employee', csv, 'people.csv');
      assert.deepEqual(
        {
          status: done.status,
          rows: done.rows_count,
          created: done.created_objects_count,
          updated: done.updated_objects_count,
          deleted: done.deleted_objects_count,
          errors: done.errors_count,
        },
        { status: 'partial_success', rows: 6, created: 2, updated: 0, deleted: 0, errors: 4 },
      );
      const ada = await json<{ id: string; lastname: string; custom_fields: { code: string; value: string }[] }[]>(
        await hr.call('GET', '/employees?external_id=E1'),
        200,
      );
      assert.equal(ada[0]?.lastname, 'Lovelace; Countess');
      assert.deepEqual(
        ada[0]?.custom_fields.map((c) => [c.code, c.value]),
        [['department', 'it']],
      );
      // E2 has the registration "active_2: no" as written: one registration inactive.
      const bob = await json<{ registration_references: { employee_number: string; active: boolean }[] }[]>(
        await hr.call('GET', '/employees?external_id=E2'),
        200,
      );
      assert.deepEqual(
        bob[0]?.registration_references.map((r) => [r.employee_number, r.active]),
        [
          ['2', true],
          ['9', false],
        ],
      );
      const stored = await db()
        .selectFrom('hr_employees')
        .select('external_id')
        .where('client_id', '=', hr.creds.client_id)
        .execute();
      assert.deepEqual(stored.map((e) => e.external_id).sort(), ['E1', 'E2']);

      const report = await xml(done.id, 'report');
      assert.match(report, /<JOB_REFERENCE>[0-9a-f-]{36}<\/JOB_REFERENCE>/);
      assert.match(report, /<JOB_TYPE>sal<\/JOB_TYPE>/);
      assert.match(report, /<COUNT_ROWS>6<\/COUNT_ROWS>/);
      assert.match(report, /<MESSAGE>Columns ignored: notes\. 2 created, 0 updated, 4 errors\.<\/MESSAGE>/);
      const all = lines(report);
      assert.deepEqual(
        all.map(([line, , code]) => [line, code]),
        [
          [1, 0],
          [2, 0],
          [3, 2],
          [4, 2],
          [5, 2],
          [6, 2],
        ],
      );
      assert.equal(all[0]?.[1], ada[0]?.id);
      assert.equal(all[0]?.[3], 'Employee record created successfully.');
      assert.deepEqual(all[2]?.slice(1), [
        'E3',
        2,
        'Line 3: Validation failed. registration_references.0.organization_id: No organization has this code.',
      ]);
      assert.equal(all[3]?.[3], 'Line 4: Validation failed. external_id: This field is required.');
      assert.equal(all[4]?.[3], 'Line 5: Expected 11 cells, as the header, found 3.');
      assert.match(all[5]?.[3] ?? '', /^Line 6: Validation failed\. custom_fields\.0\.value: /);
      assert.deepEqual(
        lines(await xml(done.id, 'errors_report')).map(([line]) => line),
        [3, 4, 5, 6],
      );
      const source = await hr.call('GET', `/imports/${done.id}/source`);
      assert.deepEqual(Buffer.from(await source.arrayBuffer()), Buffer.from(csv));

      // The same file again: the good rows update.
      const again = await run('employee', csv, 'people.csv');
      assert.equal(again.status, 'partial_success');
      assert.equal(again.created_objects_count, 0);
      assert.equal(again.updated_objects_count, 2);
    });

    it('organizations in file order with `,`; managers created, then updated by email', async () => {
      const orgs = await run(
        'organization',
        'id,name,parent_organization_id\nemea,EMEA,hq\nparis,"Paris, France",emea\nlost,Lost,nowhere\n',
      );
      assert.equal(orgs.status, 'partial_success');
      assert.equal(orgs.created_objects_count, 2);
      assert.equal(orgs.errors_count, 1);
      assert.equal((await json<Body>(await hr.call('GET', '/organizations/paris'), 200)).name, 'Paris, France');
      assert.match(await xml(orgs.id, 'report'), /<JOB_TYPE>sir<\/JOB_TYPE>/);

      const first = await run('manager', 'email;firstname;lastname\nmia@example.com;Mia;One\n');
      assert.equal(first.status, 'success');
      assert.equal(first.created_objects_count, 1);
      const second = await run('manager', 'email;firstname;lastname\nMIA@example.com;Mia;Two\n');
      assert.equal(second.status, 'success');
      assert.equal(second.updated_objects_count, 1);
      const users = await json<{ lastname: string }[]>(await hr.call('GET', '/users?email=mia@example.com'), 200);
      assert.deepEqual(
        users.map((u) => u.lastname),
        ['Two'],
      );
    });

    it('a file that cannot be read fails as a whole, applying no row', async () => {
      const latin1 = await run(
        'employee',
        Buffer.concat([Buffer.from('external_id;firstname\nZ1;Jos'), Buffer.from([0xe9]), Buffer.from('\n')]),
      );
      assert.equal(latin1.status, 'failed');
      assert.equal(latin1.created_objects_count, 0);
      assert.match(await xml(latin1.id, 'report'), /<MESSAGE>The file is not UTF-8 text/);
      const noKey = await run('organization', 'name\nNo id\n');
      assert.equal(noKey.status, 'failed');
      assert.match(await xml(noKey.id, 'report'), /The header has no &#34;id&#34; column\./);
      const unclosed = await run('organization', 'id;name\nok;"Fine\nbad;x\n');
      assert.equal(unclosed.status, 'failed');
      await json(await hr.call('GET', '/organizations/ok'), 404);
      // More columns than any layout has (MAX_COLUMNS): refused before a row is read (docs/imports.md, "Limits").
      const columns = ['external_id', ...Array.from({ length: 1000 }, (_, i) => `custom_field:c${i}`)];
      const wide = await run('employee', `${columns.join(';')}\nW1${';'.repeat(1000)}\n`);
      assert.equal(wide.status, 'failed');
      assert.match(await xml(wide.id, 'report'), /The header has 1001 columns: a file may have at most 1000\./);
      assert.deepEqual(await json(await hr.call('GET', '/employees?external_id=W1'), 200), []);
    });

    it('the reports are 403 until the import ends', async () => {
      await server.app.services.jobs.stop();
      let id = '';
      try {
        const created = await start('organization', 'id;name\nlate;Late\n');
        id = created.id;
        assert.equal(created.status, 'created');
        const report = await json<ErrorBody>(await hr.call('GET', `/imports/${id}/report`), 403);
        assert.equal(report.code, 'report_file_not_ready');
        const errors = await json<ErrorBody>(await hr.call('GET', `/imports/${id}/errors_report`), 403);
        assert.equal(errors.code, 'source_errors_file_not_ready');
      } finally {
        server.app.services.jobs.start();
      }
      await until(
        async () => (await json<Import>(await hr.call('GET', `/imports/${id}`), 200)).status === 'success',
        'the import to run',
      );
      assert.equal(lines(await xml(id, 'errors_report')).length, 0);
    });

    it('refuses a bad type, an unknown or used upload and an unknown creator; another client sees nothing', async () => {
      const fileId = await upload(server, hr, Buffer.from('id;name\nx;X\n'), 'x.csv');
      const badType = await json<ErrorBody>(
        await hr.call('POST', '/imports', { type: 'payslip', uploaded_file: { file_id: fileId } }),
        422,
      );
      assert.equal(badType.errors?.[0]?.field, 'type');
      const creator = await json<ErrorBody>(
        await hr.call('POST', '/imports', {
          type: 'organization',
          creator: '00000000-0000-4000-8000-000000000000',
          uploaded_file: { file_id: fileId },
        }),
        422,
      );
      assert.deepEqual(
        creator.errors?.map((e) => [e.field, e.code]),
        [['creator', 'not_found']],
      );
      const theirs = await json<ErrorBody>(
        await other.call('POST', '/imports', { type: 'organization', uploaded_file: { file_id: fileId } }),
        422,
      );
      assert.deepEqual(
        theirs.errors?.map((e) => [e.field, e.code]),
        [['uploaded_file.file_id', 'not_found']],
      );
      await json(await hr.call('POST', '/imports', { type: 'organization', uploaded_file: { file_id: fileId } }), 201);
      const used = await json<ErrorBody>(
        await hr.call('POST', '/imports', { type: 'organization', uploaded_file: { file_id: fileId } }),
        422,
      );
      assert.deepEqual(
        used.errors?.map((e) => [e.field, e.code]),
        [['uploaded_file.file_id', 'already_used']],
      );

      const mine = await json<Import[]>(await hr.call('GET', '/imports?type=organization&per_page=100'), 200);
      assert.ok(mine.length >= 4);
      assert.ok(mine.every((i) => i.type === 'organization'));
      assert.deepEqual(await json(await other.call('GET', '/imports'), 200), []);
      for (const path of ['', '/source', '/report', '/errors_report']) {
        await json(await other.call('GET', `/imports/${mine[0]?.id}${path}`), 404);
      }
      assert.deepEqual(await json(await other.call('GET', '/organizations'), 200), []);
    });

    it('rows are deleted ATRIUM_BULK_RETENTION_DAYS after the end: the import keeps its counts, its reports are 404', async () => {
      const done = await run('organization', 'id;name\r\nret-1;Kept one\r\nret-2;Kept two\r\n');
      assert.equal(done.status, 'success');
      // Another client's bulk call, swept by the same (platform-wide) sweep.
      const { request_id } = await json<{ request_id: string }>(
        await other.call('POST', '/users/bulk', [{ firstname: 'Ret', lastname: 'Ention', email: 'ret@example.com' }]),
        200,
      );
      await until(
        async () =>
          (await json<{ summary: { status: string } }>(await other.call('GET', `/users/bulk/${request_id}`), 200))
            .summary.status === 'completed',
        'the bulk call to complete',
      );
      const operationId = (
        await db().selectFrom('hr_imports').select('operation_id').where('id', '=', done.id).executeTakeFirstOrThrow()
      ).operation_id;
      const rowsOf = async (id: string) =>
        Number(
          (
            await db()
              .selectFrom('hr_bulk_items')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('operation_id', '=', id)
              .executeTakeFirstOrThrow()
          ).n,
        );
      assert.equal(await rowsOf(operationId), 2);
      const bulk = server.app.services.bulk;
      const day = 86_400_000;
      // 29 days on: kept.
      await bulk.sweep(Date.now() + 29 * day, 30);
      assert.equal(await rowsOf(operationId), 2);
      await xml(done.id, 'report');
      await json(await other.call('GET', `/users/bulk/${request_id}`), 200);
      // 31 days on: the rows and the operations are gone.
      assert.ok((await bulk.sweep(Date.now() + 31 * day, 30)) >= 2);
      assert.equal(await rowsOf(operationId), 0);
      assert.equal(await rowsOf(request_id), 0);
      const kept = await json<Import>(await hr.call('GET', `/imports/${done.id}`), 200);
      assert.deepEqual(
        [kept.status, kept.rows_count, kept.created_objects_count, kept.errors_count],
        ['success', 2, 2, 0],
        'the import keeps its counts',
      );
      for (const name of ['report', 'errors_report']) {
        const gone = await json<ErrorBody>(await hr.call('GET', `/imports/${done.id}/${name}`), 404);
        assert.equal(gone.code, 'not_found');
        assert.match(gone.message, /deleted after the retention period \(ATRIUM_BULK_RETENTION_DAYS\)/);
      }
      await json(await other.call('GET', `/users/bulk/${request_id}`), 404);
      // What the rows made stays.
      await json(await hr.call('GET', '/organizations/ret-1'), 200);
    });
    it('an import whose job runs out of attempts ends failed, its report saying so, and applies nothing', async () => {
      await server.app.services.jobs.stop();
      let id = '';
      try {
        id = (await start('organization', 'id;name\nspent;Spent\n')).id;
        assert.equal(await spendPendingJobs(db(), 'hr.import'), 1);
      } finally {
        server.app.services.jobs.start();
      }
      let ended: Import | undefined;
      await until(async () => {
        ended = await json<Import>(await hr.call('GET', `/imports/${id}`), 200);
        return ended.status !== 'created' && ended.status !== 'in_progress';
      }, 'the import to end');
      assert.equal(ended?.status, 'failed');
      assert.equal(ended?.created_objects_count, 0);
      assert.match(await xml(id, 'report'), /background job failed on every attempt/);
      await json(await hr.call('GET', '/organizations/spent'), 404);
    });
  });
}
