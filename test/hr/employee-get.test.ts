/**
 * `GET /employees/{id}` reads the employee, its registration references and its custom values in one statement
 * (`findWithDetails`, src/hr/core/employees/repository.ts, issue 23); lists and writes read them in separate
 * queries (`viewsOf`). Here employees of every shape are read both ways on each database and compared: several
 * registrations in their order, inactive ones with and without a departure date, a terminated employee, custom
 * values labelled from the field's authorized values, from the field itself, or by the field's id when the field is
 * gone, text that JSON must escape. Another client's employee with the same organizations is "not found".
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { json } from '../support/people-assist.js';

type Employee = Record<string, unknown> & { id: string };

const ref = (organization_id: string, employee_number: string, extra: Record<string, unknown> = {}) => ({
  organization_id,
  employee_number,
  ...extra,
});

for (const dialect of dialects()) {
  describe(`employee GET: the one-statement read equals the list's (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    const ids: string[] = [];

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      other = await hrCaller(server);
      for (const caller of [hr, other]) {
        for (const org of ['paris', 'lyon', 'nice']) {
          await json(await caller.call('PUT', `/organizations/${org}`, { name: org }), 201);
        }
      }
      await json(
        await hr.call('PUT', '/custom_fields/department', {
          label: 'Department',
          type: 'list',
          authorized_values: [
            { value: 'it', label: 'IT "Department" \\ é' },
            { value: 'hr', label: 'Human Resources' },
          ],
        }),
        201,
      );
      await json(await hr.call('PUT', '/custom_fields/nickname', { label: 'Nickname', type: 'string' }), 201);
      const bodies = [
        {
          firstname: 'Ada',
          lastname: 'Lovelace',
          registration_references: [
            ref('paris', 'P1'),
            ref('lyon', 'L1', { active: false, departure_date: '2024-05-31' }),
            ref('nice', 'N1', { active: false }),
          ],
          custom_fields: [
            { code: 'department', value: 'it' },
            { code: 'nickname', value: 'Quote " backslash \\ 🎉 </script>' },
          ],
        },
        {
          firstname: 'Alan',
          lastname: 'Turing',
          registration_references: [
            ref('lyon', 'L2', { active: false, departure_date: '2023-01-31' }),
            ref('paris', 'P2', { active: false, departure_date: '2024-02-29' }),
          ],
        },
        { firstname: 'Grace', lastname: 'Hopper', registration_references: [ref('nice', 'N3')] },
      ];
      for (const [i, body] of bodies.entries()) {
        const created = await json<Employee>(
          await hr.call('POST', '/employees', { ...body, email: `person${i}@example.test` }),
          201,
        );
        ids.push(created.id);
      }
      // Shapes the API does not make any more, set in the database: a value of a field that is gone, and a value
      // that its list field no longer authorizes (the label falls back to the field's id, then to the field's label).
      const db = server.app.database.db;
      await db
        .insertInto('hr_employee_custom_values')
        .values([
          { client_id: hr.creds.client_id, employee_id: ids[1] as string, custom_field_id: 'ghost', value: 'boo' },
          { client_id: hr.creds.client_id, employee_id: ids[1] as string, custom_field_id: 'department', value: 'zz' },
        ])
        .execute();
      await json(
        await other.call('POST', '/employees', { ...bodies[2], firstname: 'Not this client', email: 'x@example.test' }),
        201,
      );
    });
    after(() => server.close());

    it('answers each employee as the list presents it', async () => {
      const listed = new Map<string, Employee>();
      for (const query of ['', '&terminated=true']) {
        const page = await json<Employee[]>(await hr.call('GET', `/employees?per_page=100${query}`), 200);
        for (const item of page) listed.set(item.id, item);
      }
      assert.deepEqual([...listed.keys()].sort(), [...ids].sort());
      for (const id of ids) {
        assert.deepEqual(await json<Employee>(await hr.call('GET', `/employees/${id}`), 200), listed.get(id), id);
      }
    });

    it('shows the registrations in their order, the labels, the departure and the termination', async () => {
      const [ada, alan] = [ids[0] as string, ids[1] as string];
      const a = await json<Employee>(await hr.call('GET', `/employees/${ada}`), 200);
      assert.deepEqual(
        (a.registration_references as { organization_id: string; active: boolean }[]).map((r) => [
          r.organization_id,
          r.active,
        ]),
        [
          ['paris', true],
          ['lyon', false],
          ['nice', false],
        ],
      );
      assert.deepEqual(a.custom_fields, [
        { code: 'department', value: 'it', label: 'IT "Department" \\ é' },
        { code: 'nickname', value: 'Quote " backslash \\ 🎉 </script>', label: 'Nickname' },
      ]);
      assert.equal(a.terminated, false);
      const t = await json<Employee>(await hr.call('GET', `/employees/${alan}`), 200);
      assert.equal(t.terminated, true);
      assert.equal(t.status, 'terminated');
      assert.equal(t.departure_date, '2024-02-29');
      assert.deepEqual(t.custom_fields, [
        { code: 'department', value: 'zz', label: 'Department' },
        { code: 'ghost', value: 'boo', label: 'ghost' },
      ]);
      assert.equal((await hr.call('GET', `/employees/${ada}`, undefined)).status, 200);
      assert.equal((await other.call('GET', `/employees/${ada}`)).status, 404);
    });
  });
}
