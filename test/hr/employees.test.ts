import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

interface Employee {
  id: string;
  external_id: string | null;
  firstname: string;
  lastname: string;
  email: string | null;
  status: string;
  terminated: boolean;
  departure_date: string | null;
  registration_references: {
    organization_id: string;
    employee_number: string;
    active: boolean;
    departure_date: string | null;
  }[];
  custom_fields: { code: string; value: string; label: string }[];
  [key: string]: unknown;
}

interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string }[];
}

async function json<T>(res: Response, status: number): Promise<T> {
  const body = (await res.json()) as T;
  assert.equal(res.status, status, JSON.stringify(body));
  return body;
}

async function fields(res: Response): Promise<[string, string][]> {
  const body = await json<ErrorBody>(res, 422);
  assert.equal(body.code, 'validation_error');
  return (body.errors ?? []).map((e) => [e.field, e.code]);
}

const ref = (organization_id: string, employee_number: string, extra: Record<string, unknown> = {}) => ({
  organization_id,
  employee_number,
  ...extra,
});

for (const dialect of dialects()) {
  describe(`employees and custom fields (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    const create = (body: Record<string, unknown>) => hr.call('POST', '/employees', body);
    const person = (n: number, extra: Record<string, unknown> = {}) => ({
      firstname: `First${n}`,
      lastname: `Last${n}`,
      email: `p${n}@example.com`,
      registration_references: [ref('paris', `N${n}`)],
      ...extra,
    });

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      await json(await hr.call('PUT', '/organizations/group', { name: 'Group' }), 201);
      await json(await hr.call('PUT', '/organizations/paris', { name: 'Paris', parent_organization_id: 'group' }), 201);
      await json(await hr.call('PUT', '/organizations/lyon', { name: 'Lyon', parent_organization_id: 'group' }), 201);
      await json(await hr.call('PUT', '/organizations/other', { name: 'Other' }), 201);
      await json(
        await hr.call('PUT', '/custom_fields/department', {
          label: 'Department',
          type: 'list',
          authorized_values: [
            { value: 'it', label: 'IT Department' },
            { value: 'hr', label: 'Human Resources' },
          ],
          default_value: 'hr',
        }),
        201,
      );
      await json(
        await hr.call('PUT', '/custom_fields/level', {
          label: 'Level',
          type: 'int',
          hierarchical: true,
          authorized_values: [
            { value: '1', label: 'Junior' },
            { value: '2', label: 'Senior' },
            { value: '3', label: 'Principal' },
          ],
        }),
        201,
      );
      await json(await hr.call('PUT', '/custom_fields/remote', { label: 'Remote', type: 'bool' }), 201);
    });
    after(() => server.close());

    it('custom fields: PUT 201/200, type is fixed, values stay, list rules; GET and paginated list', async () => {
      const updated = await json<{ label: string; authorized_values: unknown[] }>(
        await hr.call('PUT', '/custom_fields/department', {
          label: 'Team',
          type: 'list',
          authorized_values: [
            { value: 'it', label: 'Information Technology' },
            { value: 'hr', label: 'Human Resources' },
            { value: 'ops', label: 'Operations' },
          ],
          default_value: 'hr',
        }),
        200,
      );
      assert.equal(updated.label, 'Team');
      assert.equal(updated.authorized_values.length, 3);
      assert.deepEqual(await fields(await hr.call('PATCH', '/custom_fields/department', { type: 'string' })), [
        ['type', 'immutable'],
      ]);
      assert.deepEqual(
        await fields(
          await hr.call('PATCH', '/custom_fields/department', { authorized_values: [{ value: 'it', label: 'IT' }] }),
        ),
        [
          ['authorized_values', 'immutable'],
          ['default_value', 'invalid_choice'],
        ],
      );
      assert.deepEqual(
        await fields(
          await hr.call('PUT', '/custom_fields/bad', {
            label: 'Bad',
            type: 'list',
            authorized_values: [
              { value: 'a,b', label: 'x' },
              { value: 'Été', label: 'y' },
              { value: 'ete', label: 'z' },
            ],
            default_value: 'nope',
          }),
        ),
        [
          ['authorized_values.0.value', 'invalid_format'],
          ['authorized_values.2.value', 'duplicate'],
          ['default_value', 'invalid_choice'],
        ],
      );
      assert.deepEqual(await fields(await hr.call('PUT', '/custom_fields/bad', { label: 'Bad', type: 'int' })), [
        ['authorized_values', 'required'],
      ]);
      assert.equal((await hr.call('GET', '/custom_fields/bad')).status, 404);
      const page = await hr.call('GET', '/custom_fields?per_page=2');
      assert.equal(((await page.json()) as unknown[]).length, 2);
      assert.ok(page.headers.get('next-cursor'));
      await hr.call('PATCH', '/custom_fields/department', { label: 'Department' });
    });

    it('creates an employee (201) with registration references, default custom fields and computed status', async () => {
      const e = await json<Employee>(
        await create({
          ...person(1),
          external_id: 'HR-1',
          custom_fields: [{ code: 'level', value: '2' }],
          starting_date: '2020-01-06',
        }),
        201,
      );
      assert.match(e.id, /^[0-9a-f-]{36}$/);
      assert.equal(e.status, 'active');
      assert.equal(e.terminated, false);
      assert.equal(e.departure_date, null);
      assert.deepEqual(
        e.registration_references.map((r) => [r.organization_id, r.employee_number, r.active]),
        [['paris', 'N1', true]],
      );
      assert.deepEqual(e.custom_fields.map((c) => [c.code, c.value, c.label]).sort(), [
        ['department', 'hr', 'Human Resources'],
        ['level', '2', 'Senior'],
      ]);
      assert.deepEqual(await json<Employee>(await hr.call('GET', `/employees/${e.id}`), 200), e);
      const future = await json<Employee>(await create({ ...person(2), starting_date: '2999-01-01' }), 201);
      assert.equal(future.status, 'pre_hired');
    });

    it('terminates an employee whose every registration reference is inactive; departure date defaults to today', async () => {
      const e = await json<Employee>(
        await create({
          ...person(3),
          registration_references: [
            ref('paris', 'N3'),
            ref('lyon', 'L3', { active: false, departure_date: '2024-05-31' }),
          ],
        }),
        201,
      );
      assert.equal(e.terminated, false);
      const t = await json<Employee>(
        await hr.call('PATCH', `/employees/${e.id}`, {
          registration_references: [
            ref('paris', 'N3', { active: false }),
            ref('lyon', 'L3', { active: false, departure_date: '2024-05-31' }),
          ],
        }),
        200,
      );
      const today = new Date().toISOString().slice(0, 10);
      assert.equal(t.terminated, true);
      assert.equal(t.status, 'terminated');
      assert.equal(t.registration_references[0]?.departure_date, today);
      assert.equal(t.departure_date, today > '2024-05-31' ? today : '2024-05-31');
    });

    it('every validation rule is a 422 field error, and nothing is written', async () => {
      const before = await server.app.database.db
        .selectFrom('hr_employees')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        await fields(await create({ lastname: 'x', email: 'a@b.co', registration_references: [ref('paris', 'Z1')] })),
        [['firstname', 'required']],
      );
      assert.deepEqual(await fields(await create({ ...person(10), email: 'josé@example.com' })), [
        ['email', 'invalid_format'],
      ]);
      assert.deepEqual(await fields(await create({ ...person(10), email: 'not-an-email' })), [
        ['email', 'invalid_format'],
      ]);
      assert.deepEqual(await fields(await create({ ...person(10), email: null, address1: '1 rue', city: 'Paris' })), [
        ['zip_code', 'required'],
        ['country', 'required'],
        ['email', 'required'],
      ]);
      assert.deepEqual(
        await fields(
          await create({
            ...person(10),
            email: null,
            address1: '1 rue',
            city: 'Paris',
            zip_code: '75001',
            country: 'FR',
          }),
        ),
        [['email', 'required']],
        'without email, a saml_token is needed too',
      );
      const noEmail = await create({
        ...person(11),
        email: null,
        address1: '1 rue',
        city: 'Paris',
        zip_code: '75001',
        country: 'FR',
        saml_token: 'sso-11',
      });
      assert.equal(noEmail.status, 201);
      assert.deepEqual(await fields(await create({ ...person(10), country: 'fr' })), [['country', 'invalid_format']]);
      assert.deepEqual(await fields(await create({ ...person(10), birth_date: '1990-02-30' })), [
        ['birth_date', 'invalid_date'],
      ]);
      assert.deepEqual(await fields(await create({ ...person(10), registration_references: [] })), [
        ['registration_references', 'too_few'],
      ]);
      assert.deepEqual(
        await fields(
          await create({
            ...person(10),
            registration_references: [ref('nowhere', 'X'), ref('paris', 'N1'), ref('lyon', 'A'), ref('lyon', 'B')],
          }),
        ),
        [
          ['registration_references.0.organization_id', 'not_found'],
          ['registration_references.1.employee_number', 'already_exists'],
          ['registration_references.3.organization_id', 'duplicate'],
        ],
      );
      assert.deepEqual(
        await fields(
          await create({
            ...person(10),
            custom_fields: [
              { code: 'department', value: 'sales' },
              { code: 'ghost', value: 'x' },
              { code: 'remote', value: 'yes' },
            ],
          }),
        ),
        [
          ['custom_fields.0.value', 'invalid_choice'],
          ['custom_fields.1.code', 'not_found'],
          ['custom_fields.2.value', 'invalid_choice'],
        ],
      );
      assert.deepEqual(await fields(await create({ ...person(10), external_id: 'HR-1' })), [
        ['external_id', 'already_exists'],
      ]);
      const after = await server.app.database.db
        .selectFrom('hr_employees')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(after.n), Number(before.n) + 1, 'only the valid employee was written');
      const row = await server.app.database.db
        .selectFrom('hr_employees')
        .select('saml_token_hash')
        .where('firstname', '=', 'First11')
        .executeTakeFirstOrThrow();
      assert.match(row.saml_token_hash ?? '', /^[0-9a-f]{64}$/, 'the saml_token is stored as a hash');
    });

    it('PUT replaces every attribute; PATCH only what is sent; custom fields follow the reference rules', async () => {
      const e = await json<Employee>(
        await create({
          ...person(20),
          city: 'Lyon',
          custom_fields: [
            { code: 'department', value: 'it' },
            { code: 'remote', value: 'true' },
          ],
        }),
        201,
      );
      const patched = await json<Employee>(
        await hr.call('PATCH', `/employees/${e.id}`, { custom_fields: [{ code: 'remote', value: 'false' }] }),
        200,
      );
      assert.equal(patched.city, 'Lyon');
      assert.deepEqual(patched.custom_fields.map((c) => [c.code, c.value]).sort(), [
        ['department', 'it'],
        ['remote', 'false'],
      ]);
      const rest = person(20);
      const noKey = await json<Employee>(await hr.call('PUT', `/employees/${e.id}`, rest), 200);
      assert.equal(noKey.city, null, 'PUT replaces every attribute');
      assert.equal(noKey.custom_fields.length, 2, 'without the key, custom fields are untouched');
      const withKey = await json<Employee>(
        await hr.call('PUT', `/employees/${e.id}`, { ...rest, custom_fields: [{ code: 'level', value: '3' }] }),
        200,
      );
      assert.deepEqual(withKey.custom_fields.map((c) => [c.code, c.value]).sort(), [
        ['department', 'hr'],
        ['level', '3'],
      ]);
      assert.equal((await hr.call('PATCH', '/employees/no-such-id', { firstname: 'x' })).status, 404);
      assert.equal((await hr.call('PUT', '/employees/no-such-id', person(21))).status, 404);
    });

    it('PUT /employees/by_external_id is an idempotent upsert (201, then 200), safe under concurrency', async () => {
      const body = person(30);
      const first = await json<Employee>(await hr.call('PUT', '/employees/by_external_id/SYNC-30', body), 201);
      assert.equal(first.external_id, 'SYNC-30');
      const again = await json<Employee>(
        await hr.call('PUT', '/employees/by_external_id/SYNC-30', { ...body, firstname: 'Renamed' }),
        200,
      );
      assert.equal(again.id, first.id);
      assert.equal(again.firstname, 'Renamed');
      const results = await Promise.all(
        [0, 1, 2].map(() => hr.call('PUT', '/employees/by_external_id/SYNC-31', person(31))),
      );
      const codes = results.map((r) => r.status).sort();
      assert.deepEqual(codes, [200, 200, 201]);
      const rows = await server.app.database.db
        .selectFrom('hr_employees')
        .select('id')
        .where('external_id', '=', 'SYNC-31')
        .execute();
      assert.equal(rows.length, 1);
    });

    it('searches with every filter, sorts, and pages with next_cursor', async () => {
      const other = await hrCaller(server);
      await json(await other.call('PUT', '/organizations/paris', { name: 'Paris elsewhere' }), 201);
      await json(
        await other.call('POST', '/employees', { ...person(99), registration_references: [ref('paris', 'N99')] }),
        201,
      );
      const search = async (body: Record<string, unknown>) =>
        (await json<Employee[]>(await hr.call('POST', '/employees/search', { per_page: 100, ...body }), 200)).map(
          (e) => e.firstname,
        );
      assert.deepEqual(await search({ external_id: 'HR-1' }), ['First1']);
      assert.deepEqual(await search({ firstname: 'First2' }), ['First2']);
      assert.deepEqual(await search({ q: 'last11' }), ['First11']);
      assert.deepEqual(await search({ q: 'N30' }), ['Renamed'], 'q also matches employee numbers');
      assert.deepEqual(await search({ employee_numbers: 'N1,N2' }), ['First1', 'First2']);
      assert.deepEqual(await search({ terminated: true }), ['First3']);
      assert.ok(!(await search({ terminated: false })).includes('First3'));
      assert.deepEqual(await search({ organization_ids: 'lyon' }), ['First3']);
      assert.ok((await search({ organization_id_below: 'group' })).length >= 5);
      assert.deepEqual(await search({ organization_id_below: 'other' }), []);
      assert.deepEqual(await search({ has_email: false }), ['First11']);
      assert.deepEqual(
        await search({ custom_field_ids: 'level', custom_field_operators: '>=', custom_field_values: '3' }),
        ['First20'],
      );
      assert.deepEqual(
        await search({ custom_field_ids: 'level', custom_field_operators: '=', custom_field_values: '2' }),
        ['First1'],
      );
      assert.ok(
        !(
          await search({ custom_field_ids: 'department', custom_field_operators: '!=', custom_field_values: 'hr' })
        ).includes('First1'),
      );
      assert.deepEqual(
        await fields(
          await hr.call('POST', '/employees/search', {
            custom_field_ids: 'department',
            custom_field_operators: '<=',
            custom_field_values: 'hr',
          }),
        ),
        [['custom_field_operators', 'invalid']],
      );
      assert.deepEqual(await fields(await hr.call('POST', '/employees/search', { created_at_since: '2024-02-30' })), [
        ['created_at_since', 'invalid_date'],
      ]);
      // An unknown member is ignored (issue 24; test/hr/fidelity.test.ts covers it).
      assert.equal((await hr.call('POST', '/employees/search', { colour: 'blue' })).status, 200);
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const everyone = await search({});
      assert.ok(everyone.length >= 5, `expected the employees created above, got ${everyone.length}`);
      assert.deepEqual(await search({ created_at_since: yesterday }), everyone);
      assert.deepEqual(await search({ created_at_since: '2999-01-01' }), []);
      assert.deepEqual(await search({ created_at_until: '2001-01-01T00:00:00+00:00' }), []);
      assert.ok(!(await search({})).includes('First99'), 'another client’s employees never appear');
      const desc = await search({ sort: '-firstname' });
      assert.deepEqual(
        desc,
        [...desc].sort((a, b) => b.toLowerCase().localeCompare(a.toLowerCase())),
      );
      // Page by two, sorted by last name, through next_cursor in the body.
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 20; i++) {
        const res = await hr.call('POST', '/employees/search', {
          per_page: 2,
          sort: '+lastname_firstname',
          ...(cursor ? { next_cursor: cursor } : {}),
        });
        const page = await json<Employee[]>(res, 200);
        seen.push(...page.map((e) => e.lastname));
        cursor = res.headers.get('next-cursor') ?? undefined;
        if (i > 0) assert.ok(res.headers.get('previous-cursor'));
        if (!cursor) break;
      }
      assert.deepEqual(
        seen,
        (await search({ sort: '+lastname_firstname' })).map((_, i) => seen[i]),
      );
      assert.deepEqual(
        seen,
        [...seen].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
      );
      // A cursor of another sort is refused.
      const r = await hr.call('POST', '/employees/search', { per_page: 1, sort: '+firstname' });
      const bad = await hr.call('POST', '/employees/search', {
        per_page: 1,
        sort: '-created_at',
        next_cursor: r.headers.get('next-cursor'),
      });
      assert.equal(bad.status, 400);
      // The deprecated GET takes the same filters as query parameters.
      const legacy = await json<Employee[]>(await hr.call('GET', '/employees?terminated=true&per_page=5'), 200);
      assert.deepEqual(
        legacy.map((e) => e.firstname),
        ['First3'],
      );
      assert.equal((await hr.call('GET', '/employees?created_at_since=yesterday')).status, 400);
    });

    it('GET with X-Synchronization-Application marks the employee synchronized; the filter follows', async () => {
      const e = await json<Employee>(await create(person(40)), 201);
      const notSynced = async () =>
        (
          await json<Employee[]>(
            await hr.call('POST', '/employees/search', { per_page: 100, synchronization_application_name: 'case' }),
            200,
          )
        ).map((x) => x.id);
      assert.ok((await notSynced()).includes(e.id));
      await json(
        await hr.call('GET', `/employees/${e.id}`, undefined, { 'x-synchronization-application': 'case' }),
        200,
      );
      assert.ok(!(await notSynced()).includes(e.id));
    });

    it('another client’s employee is 404; a read-only application may search but not write', async () => {
      const e = await json<Employee>(await create(person(50)), 201);
      const other = await hrCaller(server);
      assert.equal((await other.call('GET', `/employees/${e.id}`)).status, 404);
      assert.equal((await other.call('PATCH', `/employees/${e.id}`, { firstname: 'x' })).status, 404);
      const ro = await hrCaller(server, { readOnly: true });
      assert.equal((await ro.call('POST', '/employees/search', {})).status, 200);
      const denied = await ro.call('POST', '/employees', person(51));
      assert.equal(denied.status, 403);
      assert.equal(((await denied.json()) as ErrorBody).code, 'insufficient_scope');
    });
  });
}
