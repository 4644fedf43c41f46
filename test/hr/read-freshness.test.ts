/**
 * Issue 23's staleness tests: what a list and a GET show of a request is never older than the last committed
 * write, whatever the read path does to be fast (a stored read model, JSON built in SQL, conditional requests).
 * Each test reads first, so that anything a read could keep is there, then writes, then reads again: a rename of
 * the category, a custom status set and renamed, an employee renamed, a write through another server on the same
 * database, and writes rolled back (a macro that fails halfway, a transaction that throws).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { inTransaction } from '../../src/platform/db/transaction.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { category, employee, json, simpleForm } from '../support/people-assist.js';

interface Item {
  id: string;
  priority: string;
  employee?: { id: string; firstname: string };
  employee_id?: string;
  category: { id: string; name: string };
  custom_status: { id: string; name: string } | null;
}

for (const dialect of dialects()) {
  describe(`requests read after every committed write, never before (${dialect})`, () => {
    let server: TestServer;
    let sibling: TestServer;
    let hr: HrCaller;
    let payroll: string;
    let ada: string;
    let request: string;

    /**
     * The request as the first page of the list shows it on both of the list's read paths (with `embed`, presented
     * in JavaScript; without, built as JSON by the database), and as its own GET does, read through `at`.
     */
    const reads = async (at: TestServer = server): Promise<{ listed: Item; plain: Item; got: Item }> => {
      const call = (path: string) =>
        fetch(`${at.url}/api/v2/client${path}`, { headers: { authorization: `Bearer ${hr.token}` } });
      const find = async (path: string) => {
        const item = (await json<Item[]>(await call(path), 200)).find((i) => i.id === request);
        assert.ok(item, `the request is on the first page of ${path}`);
        return item;
      };
      return {
        listed: await find('/requests?per_page=20&embed=employee'),
        plain: await find('/requests?per_page=20'),
        got: await json<Item>(await call(`/requests/${request}?embed=employee`), 200),
      };
    };
    /** The three reads, for what all three show (everything but the embedded employee). */
    const all = async (at?: TestServer) => {
      const { listed, plain, got } = await reads(at);
      return [listed, plain, got] as const;
    };
    /** The employee as the embedded reads show it, after checking that the plain page names the same one. */
    const embedded = async (at?: TestServer) => {
      const { listed, plain, got } = await reads(at);
      assert.equal(plain.employee_id, ada);
      return [listed, got] as const;
    };

    before(async () => {
      server = await startServer(dialect);
      sibling = await server.sibling();
      hr = await hrCaller(server);
      await json(await hr.call('PUT', '/organizations/hq', { name: 'HQ' }), 201);
      ada = await employee(hr, {
        firstname: 'Ada',
        lastname: 'Lovelace',
        registration_references: [{ organization_id: 'hq', employee_number: 'A1' }],
      });
      payroll = await category(hr, 'Payroll');
      await simpleForm(hr, 'question', payroll);
      for (const [id, name, active] of [
        ['to-send', 'To send', true],
        ['retired', 'Retired', false],
      ] as const) {
        await json(await hr.call('PUT', `/custom_status/${id}`, { name, is_active: active }), 201);
      }
      await json(
        await hr.call('PUT', '/macros/prepare', {
          name: 'Prepare',
          label: 'Prepare',
          forms: [],
          actions: [{ template: 'RequestChangeCustomState', data: { custom_status: 'to-send' } }],
        }),
        201,
      );
      // Its second action fails (the status is inactive): the first must be undone with it.
      await json(
        await hr.call('PUT', '/macros/retire', {
          name: 'Retire',
          label: 'Retire',
          forms: [],
          actions: [
            { template: 'RequestChangePriority', data: { priority: '1' } },
            { template: 'RequestChangeCustomState', data: { custom_status: 'retired' } },
          ],
        }),
        201,
      );
      request = (
        await json<{ id: string }>(
          await hr.call('POST', '/requests', {
            form_id: 'question',
            employee_id: ada,
            form_data: [{ field_id: 'subject', values: ['Payslip'] }],
          }),
          201,
        )
      ).id;
    });
    after(() => server.close());

    it('a category renamed shows in the next page and the next GET', async () => {
      for (const item of await all()) assert.deepEqual(item.category, { id: payroll, name: 'Payroll' });
      const renamed = await hr.call('PUT', `/kb_categories/${payroll}`, {
        localized_name: [{ language_code: 'en-us', value: 'Salaries' }],
      });
      assert.equal(renamed.status, 200, await renamed.text());
      for (const item of await all()) assert.deepEqual(item.category, { id: payroll, name: 'Salaries' });
    });

    it('a custom status set, then renamed, shows at once', async () => {
      for (const item of await all()) assert.equal(item.custom_status, null);
      const ran = await hr.call('POST', `/requests/${request}/macros`, { macro_id: 'prepare' });
      assert.equal(ran.status, 200, await ran.text());
      for (const item of await all()) assert.deepEqual(item.custom_status, { id: 'to-send', name: 'To send' });
      await json(await hr.call('PUT', '/custom_status/to-send', { name: 'Ready to send', is_active: true }), 200);
      for (const item of await all()) assert.deepEqual(item.custom_status, { id: 'to-send', name: 'Ready to send' });
    });

    it("an employee's new name shows in their requests", async () => {
      for (const item of await embedded()) assert.equal(item.employee?.firstname, 'Ada');
      await json(await hr.call('PATCH', `/employees/${ada}`, { firstname: 'Augusta' }), 200);
      for (const item of await embedded()) {
        assert.equal(item.employee?.id, ada);
        assert.equal(item.employee?.firstname, 'Augusta');
      }
    });

    it("a write through one server shows in the other's next read (two servers, one database)", async () => {
      for (const item of await all(sibling)) assert.equal(item.category.name, 'Salaries');
      await json(await hr.call('PUT', '/custom_status/to-send', { name: 'Queued', is_active: true }), 200);
      const renamed = await hr.call('PUT', `/kb_categories/${payroll}`, {
        localized_name: [{ language_code: 'en-us', value: 'Pay' }],
      });
      assert.equal(renamed.status, 200);
      for (const item of await all(sibling)) {
        assert.equal(item.category.name, 'Pay');
        assert.deepEqual(item.custom_status, { id: 'to-send', name: 'Queued' });
      }
      // And the other way round.
      const back = await fetch(`${sibling.url}/api/v2/client/employees/${ada}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${hr.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ firstname: 'Ada' }),
      });
      assert.equal(back.status, 200);
      for (const item of await embedded(server)) assert.equal(item.employee?.firstname, 'Ada');
    });

    it('a write rolled back changes nothing that is read', async () => {
      const [before] = await all();
      assert.equal(before.priority, '2');
      // A macro whose second action fails: its first (the priority) is undone with it.
      const failed = await hr.call('POST', `/requests/${request}/macros`, { macro_id: 'retire' });
      assert.equal(failed.status, 422);
      for (const item of await all()) {
        assert.equal(item.priority, '2');
        assert.deepEqual(item.custom_status, before.custom_status);
      }
      // A transaction that renames the category and the employee, then throws.
      const db = server.app.database.db;
      await assert.rejects(
        inTransaction(db, async (trx) => {
          await sql`update pa_kb_categories set localized_name = ${JSON.stringify([{ language_code: 'en-us', value: 'Gone' }])} where id = ${payroll}`.execute(
            trx,
          );
          await sql`update hr_employees set firstname = 'Nobody' where id = ${ada}`.execute(trx);
          throw new Error('rolled back');
        }),
        /rolled back/,
      );
      for (const item of await all()) assert.equal(item.category.name, 'Pay');
      for (const item of await embedded()) assert.equal(item.employee?.firstname, 'Ada');
    });
  });
}
