/**
 * Bulk calls (issue 19): `POST|PUT|PATCH /employees/bulk` and `/users/bulk` answer a `request_id` at once, and a
 * background job applies each item as the single endpoint would, in order. One bad item fails only itself, with the
 * single endpoint's exact error body; each write records its audit event; a settled item is never applied twice.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { hrTenantId } from '../../src/platform/db/tenant.js';
import { enqueueSpentJob } from '../support/docgen.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

type Body = Record<string, unknown>;

interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string; message: string }[];
}

interface BulkResult {
  index: number;
  status: 'success' | 'failed';
  outcome: 'created' | 'updated' | 'failed';
  message: string;
  Result?: Body & { id: string };
  error?: ErrorBody;
}

interface BulkStatus {
  summary: { total: number; processed: number; success: number; failed: number; status: string };
  results: BulkResult[];
}

async function json<T = Body>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text) as T;
}

/** Polls until `check` holds (bounded; no timing is asserted). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

for (const dialect of dialects()) {
  describe(`bulk calls (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    let seq = 0;
    const db = () => server.app.database.db;

    const person = (extra: Body = {}) => {
      const n = ++seq;
      return {
        external_id: `EXT-${n}`,
        firstname: `First${n}`,
        lastname: `Last${n}`,
        email: `p${n}@example.com`,
        registration_references: [{ organization_id: 'paris', employee_number: `N${n}` }],
        ...extra,
      };
    };
    const manager = (extra: Body = {}) => {
      const n = ++seq;
      return { firstname: `Ann${n}`, lastname: `Lee${n}`, email: `ann${n}@example.com`, ...extra };
    };

    /** Sends a bulk call, waits for it to complete, and answers its status. */
    async function bulk(method: string, path: string, items: unknown[], caller = hr): Promise<BulkStatus> {
      const { request_id } = await json<{ request_id: string }>(await caller.call(method, path, items), 200);
      assert.match(request_id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      let status: BulkStatus | undefined;
      await until(async () => {
        status = await json<BulkStatus>(await caller.call('GET', `${path}/${request_id}`), 200);
        return status.summary.status === 'completed';
      }, `bulk ${method} ${path}`);
      return status as BulkStatus;
    }

    const employeeEvents = async (type: string) =>
      (await json<{ type: string; data: Body }[]>(await hr.call('GET', '/events?per_page=100'), 200)).filter(
        (e) => e.type === type,
      );
    const employeeCount = async (clientId: string) =>
      Number(
        (
          await db()
            .selectFrom('hr_employees')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('client_id', '=', clientId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    before(async () => {
      server = await startServer(dialect, { ATRIUM_JOB_POLL_MS: '50' });
      hr = await hrCaller(server);
      other = await hrCaller(server);
      await json(await hr.call('PUT', '/organizations/paris', { name: 'Paris' }), 201);
      await json(await hr.call('PUT', '/roles/manager', { id: 'manager', name: 'Manager' }), 201);
    });
    after(async () => {
      await server?.close();
    });

    it('POST /employees/bulk: good items land, bad ones report the single endpoint’s exact error', async () => {
      const good1 = person();
      const noName = person({ firstname: undefined, birth_date: '2024-02-30' });
      const badOrg = person({ registration_references: [{ organization_id: 'nowhere', employee_number: 'X1' }] });
      const good2 = person();
      const notAnObject = 'nope';
      const before = await employeeEvents('employee.created');
      const status = await bulk('POST', '/employees/bulk', [good1, noName, badOrg, good2, notAnObject]);

      assert.deepEqual(status.summary, { total: 5, processed: 5, success: 2, failed: 3, status: 'completed' });
      assert.deepEqual(
        status.results.map((r) => [r.index, r.status, r.outcome]),
        [
          [0, 'success', 'created'],
          [1, 'failed', 'failed'],
          [2, 'failed', 'failed'],
          [3, 'success', 'created'],
          [4, 'failed', 'failed'],
        ],
      );
      const [r0, r1, r2, r3, r4] = status.results as [BulkResult, BulkResult, BulkResult, BulkResult, BulkResult];
      assert.equal(r0.message, 'Employee record created successfully.');
      // The Result is the employee as GET /employees/{id} shows it.
      const stored = await json(await hr.call('GET', `/employees/${r0.Result?.id}`), 200);
      assert.deepEqual(r0.Result, stored);
      assert.equal(r3.Result?.external_id, good2.external_id);

      // Each failure carries the body the single endpoint answers for the same input, and nothing of it was written.
      const single1 = await json<ErrorBody>(await hr.call('POST', '/employees', noName), 422);
      assert.deepEqual(r1.error, single1);
      assert.deepEqual(
        single1.errors?.map((e) => e.field).sort(),
        ['birth_date', 'firstname'],
        'the schema errors of the item, relative to the item',
      );
      assert.equal(r1.message, single1.message);
      const single2 = await json<ErrorBody>(await hr.call('POST', '/employees', badOrg), 422);
      assert.deepEqual(r2.error, single2);
      assert.deepEqual(single2.errors?.[0], {
        field: 'registration_references.0.organization_id',
        code: 'not_found',
        message: 'No organization has this code.',
      });
      const single4 = await json<ErrorBody>(await hr.call('POST', '/employees', JSON.stringify(notAnObject)), 400);
      assert.deepEqual(r4.error, single4);
      assert.equal(r1.Result, undefined);

      const byExternal = await db()
        .selectFrom('hr_employees')
        .select('external_id')
        .where('client_id', '=', hr.creds.client_id)
        .where('external_id', 'in', [good1.external_id, noName.external_id, badOrg.external_id, good2.external_id])
        .execute();
      assert.deepEqual(byExternal.map((r) => r.external_id).sort(), [good1.external_id, good2.external_id].sort());

      // One audit event per written item, by the application that made the call.
      const after = await employeeEvents('employee.created');
      assert.equal(after.length - before.length, 2);
    });

    it('PUT /employees/bulk replaces by employee_id, creates at a new uuid, and upserts by external_id', async () => {
      const created = await bulk('POST', '/employees/bulk', [person()]);
      const existing = created.results[0]?.Result as Body & { id: string };
      const freshId = randomUUID();
      const viaExternal = person();
      const status = await bulk('PUT', '/employees/bulk', [
        { employee_id: existing.id, data: { ...person(), external_id: existing.external_id, firstname: 'Renamed' } },
        { employee_id: freshId, data: person() },
        { external_id: viaExternal.external_id, data: { ...viaExternal, external_id: undefined } },
        { external_id: viaExternal.external_id, data: { ...viaExternal, external_id: undefined, lastname: 'Again' } },
        { employee_id: randomUUID(), external_id: 'both', data: person() },
        { data: person() },
      ]);
      assert.deepEqual(status.summary, { total: 6, processed: 6, success: 4, failed: 2, status: 'completed' });
      assert.deepEqual(
        status.results.map((r) => r.outcome),
        ['updated', 'created', 'created', 'updated', 'failed', 'failed'],
      );
      assert.equal(status.results[0]?.message, 'Employee record updated successfully.');
      const renamed = await json<Body>(await hr.call('GET', `/employees/${existing.id}`), 200);
      assert.equal(renamed.firstname, 'Renamed');
      assert.equal(status.results[1]?.Result?.id, freshId);
      assert.equal(status.results[3]?.Result?.id, status.results[2]?.Result?.id);
      assert.equal(status.results[3]?.Result?.lastname, 'Again');
      assert.equal(status.results[4]?.error?.code, 'validation_error');
      assert.deepEqual(status.results[5]?.error?.errors?.[0]?.field, 'employee_id');
    });

    it('PATCH /employees/bulk: an unknown employee fails with the single PATCH’s 404 body', async () => {
      const created = await bulk('POST', '/employees/bulk', [person()]);
      const id = created.results[0]?.Result?.id as string;
      const missing = randomUUID();
      const status = await bulk('PATCH', '/employees/bulk', [
        { employee_id: id, data: { lastname: 'Patched' } },
        { employee_id: missing, data: { lastname: 'Nobody' } },
        { employee_id: id, data: { email: 'not an email' } },
      ]);
      assert.deepEqual(status.summary, { total: 3, processed: 3, success: 1, failed: 2, status: 'completed' });
      assert.equal(status.results[0]?.Result?.lastname, 'Patched');
      const single = await json<ErrorBody>(
        await hr.call('PATCH', `/employees/${missing}`, { lastname: 'Nobody' }),
        404,
      );
      assert.deepEqual(status.results[1]?.error, single);
      const single2 = await json<ErrorBody>(await hr.call('PATCH', `/employees/${id}`, { email: 'not an email' }), 422);
      assert.deepEqual(status.results[2]?.error, single2);
    });

    it('users: POST, PUT and PATCH /users/bulk, keyed by manager_id', async () => {
      const bad = manager({ email: undefined });
      const created = await bulk('POST', '/users/bulk', [manager(), bad, manager({ profiles: [{ role_id: 'none' }] })]);
      assert.deepEqual(created.summary, { total: 3, processed: 3, success: 1, failed: 2, status: 'completed' });
      assert.equal(created.results[0]?.message, 'User record created successfully.');
      assert.deepEqual(created.results[1]?.error, await json<ErrorBody>(await hr.call('POST', '/users', bad), 422));
      const user = created.results[0]?.Result as Body & { id: string };
      assert.deepEqual(user, await json(await hr.call('GET', `/users/${user.id}`), 200));

      const missing = randomUUID();
      const put = await bulk('PUT', '/users/bulk', [
        { manager_id: user.id, data: { ...manager(), profiles: [] } },
        { manager_id: missing, data: { ...manager(), profiles: [] } },
      ]);
      assert.deepEqual(
        put.results.map((r) => r.outcome),
        ['updated', 'failed'],
      );
      assert.equal(put.results[1]?.error?.code, 'not_found');
      const patched = await bulk('PATCH', '/users/bulk', [{ manager_id: user.id, data: { lastname: 'Bulk' } }]);
      assert.equal(patched.results[0]?.Result?.lastname, 'Bulk');
      assert.equal((await json<Body>(await hr.call('GET', `/users/${user.id}`), 200)).lastname, 'Bulk');
    });

    it('refuses a call over 1000 items, an empty one and a non-array at once, queuing nothing', async () => {
      const count = async () => ({
        jobs: (await db().selectFrom('jobs').select('id').execute()).length,
        operations: (await db().selectFrom('hr_bulk_operations').select('id').execute()).length,
      });
      const before = await count();
      const tooMany = Array.from({ length: 1001 }, () => ({ firstname: 'x' }));
      const body = await json<ErrorBody>(await hr.call('POST', '/employees/bulk', tooMany), 422);
      assert.equal(body.code, 'validation_error');
      assert.deepEqual(body.errors?.[0], {
        field: '',
        code: 'too_many',
        message: 'Must NOT have more than 1000 items.',
      });
      assert.equal((await json<ErrorBody>(await hr.call('PUT', '/users/bulk', []), 422)).errors?.[0]?.code, 'too_few');
      const notArray = await json<ErrorBody>(await hr.call('PATCH', '/employees/bulk', { employee_id: 'x' }), 400);
      assert.deepEqual(notArray, { code: 'invalid_request', message: 'The request body must be a JSON array.' });
      assert.deepEqual(await count(), before);
    });

    it('a status is the caller’s own, at its own path: another client, another path or an unknown id is 404', async () => {
      const { request_id } = await json<{ request_id: string }>(
        await hr.call('POST', '/employees/bulk', [person()]),
        200,
      );
      const theirs = await json<ErrorBody>(await other.call('GET', `/employees/bulk/${request_id}`), 404);
      assert.equal(theirs.code, 'not_found');
      await json(await hr.call('GET', `/users/bulk/${request_id}`), 404);
      await json(await hr.call('GET', `/employees/bulk/${randomUUID()}`), 404);
      await json(await hr.call('GET', '/employees/bulk/not-a-uuid'), 404);
      // The other client's employees are untouched by this client's calls.
      assert.equal(await employeeCount(other.creds.client_id), 0);
    });

    it('a settled item is never applied again: a second run of it writes nothing and records no event', async () => {
      const item = person();
      const status = await bulk('POST', '/employees/bulk', [item]);
      const operationId = (
        await db()
          .selectFrom('hr_bulk_items')
          .select('operation_id')
          .where('client_id', '=', hr.creds.client_id)
          .where('resource_id', '=', status.results[0]?.Result?.id as string)
          .executeTakeFirstOrThrow()
      ).operation_id;
      const countBefore = await employeeCount(hr.creds.client_id);
      const eventsBefore = (await employeeEvents('employee.created')).length;
      // What a job taken over after a crash would do: apply the same item again.
      await server.app.services.employees.applyBulk(hrTenantId(hr.creds.client_id), 'create', {
        operationId,
        index: 0,
        // Another external id and number: nothing but the settlement check stops it.
        input: {
          ...item,
          external_id: 'ANOTHER',
          registration_references: [{ organization_id: 'paris', employee_number: 'ANOTHER-1' }],
        },
      });
      assert.equal(await employeeCount(hr.creds.client_id), countBefore);
      assert.equal((await employeeEvents('employee.created')).length, eventsBefore);
      const after = await json<BulkStatus>(await hr.call('GET', `/employees/bulk/${operationId}`), 200);
      assert.deepEqual(after.results, status.results);
    });
    it('a call whose job runs out of attempts completes, its pending items failed with job_failed and counted', async () => {
      const status = await bulk('POST', '/employees/bulk', [person(), person()]);
      assert.equal(status.summary.success, 2);
      const operationId = (
        await db()
          .selectFrom('hr_bulk_operations')
          .select('id')
          .where('client_id', '=', hr.creds.client_id)
          .orderBy('created_at', 'desc')
          .limit(1)
          .executeTakeFirstOrThrow()
      ).id;
      // As if its last attempt's process died before applying anything: every item pending, its job spent.
      await db()
        .updateTable('hr_bulk_items')
        .set({ status: 'pending', outcome: null, message: null, result: null, resource_id: null, settled_at: null })
        .where('operation_id', '=', operationId)
        .execute();
      await db()
        .updateTable('hr_bulk_operations')
        .set({ status: 'in_progress', finished_at: null, created_count: 0, updated_count: 0, failed_count: 0 })
        .where('id', '=', operationId)
        .execute();
      await enqueueSpentJob(db(), {
        queue: 'hr.bulk',
        tenant: hr.creds.client_id,
        payload: { clientId: hr.creds.client_id, operationId },
      });
      server.app.services.jobs.wake();
      let ended: BulkStatus | undefined;
      await until(async () => {
        ended = await json<BulkStatus>(await hr.call('GET', `/employees/bulk/${operationId}`), 200);
        return ended.summary.status === 'completed';
      }, 'the call to complete');
      assert.deepEqual(ended?.summary, { total: 2, processed: 2, success: 0, failed: 2, status: 'completed' });
      assert.deepEqual(
        ended?.results.map((r) => [r.index, r.status, r.outcome, r.error?.code]),
        [
          [0, 'failed', 'failed', 'job_failed'],
          [1, 'failed', 'failed', 'job_failed'],
        ],
      );
      assert.match(ended?.results[0]?.message ?? '', /background job failed on every attempt/);
      const job = await db()
        .selectFrom('jobs')
        .select('status')
        .where('queue', '=', 'hr.bulk')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow();
      assert.equal(job.status, 'failed');
    });
  });
}
