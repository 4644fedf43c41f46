import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

interface Article {
  id: string;
  status: string;
}
interface ErrorBody {
  code: string;
  errors?: { field: string; code: string }[];
}

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return (text ? JSON.parse(text) : undefined) as T;
}

const perimeter = (p: Record<string, unknown>) => ({ operator: '=', custom_field_filters: [], ...p });
const rule = (custom_field_id: string, operator: string, value: string) => ({ custom_field_id, operator, value });

for (const dialect of dialects()) {
  describe(`knowledge-base articles an employee may see (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let category: string;
    const employees: Record<string, string> = {};
    const articles: Record<string, string> = {};

    const visible = async (employee: string, extra = '') =>
      (
        await json<Article[]>(
          await hr.call('GET', `/kb_articles?per_page=100&employee_id=${employees[employee]}${extra}`),
          200,
        )
      )
        .map((a) => Object.entries(articles).find(([, id]) => id === a.id)?.[0] ?? a.id)
        .sort();

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      for (const [id, parent] of [
        ['group', null],
        ['paris', 'group'],
        ['lyon', 'group'],
        ['other', null],
      ] as const) {
        await json(await hr.call('PUT', `/organizations/${id}`, { name: id, parent_organization_id: parent }), 201);
      }
      await json(
        await hr.call('PUT', '/organization_groups/south', { name: 'South', organizations_ids: ['lyon'] }),
        201,
      );
      await json(
        await hr.call('PUT', '/custom_fields/department', {
          label: 'Department',
          type: 'list',
          authorized_values: [
            { value: 'it', label: 'IT' },
            { value: 'hr', label: 'HR' },
          ],
          allow_access_restrictions: true,
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
          allow_access_restrictions: true,
        }),
        201,
      );
      await json(await hr.call('PUT', '/custom_fields/remote', { label: 'Remote', type: 'bool' }), 201);
      for (const [name, org, department, level] of [
        ['e1', 'paris', 'it', '1'],
        ['e2', 'lyon', 'hr', '3'],
        ['e3', 'other', 'it', '2'],
      ] as const) {
        const e = await json<{ id: string }>(
          await hr.call('POST', '/employees', {
            firstname: name,
            lastname: 'Employee',
            email: `${name}@example.com`,
            registration_references: [{ organization_id: org, employee_number: name }],
            custom_fields: [
              { code: 'department', value: department },
              { code: 'level', value: level },
            ],
          }),
          201,
        );
        employees[name] = e.id;
      }
      category = randomUUID();
      await json(
        await hr.call('PUT', `/kb_categories/${category}`, {
          localized_name: [{ language_code: 'en-us', value: 'All' }],
        }),
        200,
      );
      const specs: [string, Record<string, unknown>][] = [
        ['everyone', {}],
        ['paris_only', { employees_perimeters: [perimeter({ organization_id: 'paris' })] }],
        ['group_tree', { employees_perimeters: [perimeter({ operator: '<=', organization_id: 'group' })] }],
        ['group_exact', { employees_perimeters: [perimeter({ organization_id: 'group' })] }],
        ['south', { employees_perimeters: [perimeter({ organization_group_id: 'south' })] }],
        ['it', { employees_perimeters: [perimeter({ custom_field_filters: [rule('department', '=', 'it')] })] }],
        [
          'senior_it_or_hr',
          {
            employees_perimeters: [
              perimeter({
                custom_field_filters: [
                  rule('department', '=', 'it'),
                  rule('department', '=', 'hr'),
                  rule('level', '>=', '2'),
                ],
              }),
            ],
          },
        ],
        [
          'other_or_paris',
          {
            employees_perimeters: [perimeter({ organization_id: 'other' }), perimeter({ organization_id: 'paris' })],
          },
        ],
        [
          'tree_not_it',
          {
            employees_perimeters: [
              perimeter({
                operator: '<=',
                organization_id: 'group',
                custom_field_filters: [rule('department', '!=', 'it')],
              }),
            ],
          },
        ],
        ['draft', { status: 'draft' }],
        ['hidden', { accessible_by_employee: false }],
        ['expired', { expiration_date: '2000-01-01' }],
        ['not_yet', { status: 'scheduled', scheduled_publication_date: '2999-01-01' }],
        ['scheduled_past', { status: 'scheduled', scheduled_publication_date: '2000-01-01' }],
      ];
      for (const [name, extra] of specs) {
        const id = randomUUID();
        articles[name] = id;
        await json(
          await hr.call('PUT', `/kb_articles/${id}`, {
            categories_ids: [category],
            versions: [{ language_code: 'en-us', title: name, body: `<p>${name}</p>` }],
            status: 'published',
            ...extra,
          }),
          201,
        );
      }
    });
    after(() => server.close());

    it('each employee sees exactly the published, employee-accessible articles a perimeter of which covers them', async () => {
      assert.deepEqual(await visible('e1'), [
        'everyone',
        'group_tree',
        'it',
        'other_or_paris',
        'paris_only',
        'scheduled_past',
      ]);
      assert.deepEqual(await visible('e2'), [
        'everyone',
        'group_tree',
        'scheduled_past',
        'senior_it_or_hr',
        'south',
        'tree_not_it',
      ]);
      assert.deepEqual(await visible('e3'), ['everyone', 'it', 'other_or_paris', 'scheduled_past', 'senior_it_or_hr']);
    });

    it('visibility follows changes: unpublishing, perimeters, the employee moving', async () => {
      await json(await hr.call('PATCH', `/kb_articles/${articles.it}`, { status: 'draft' }), 200);
      assert.ok(!(await visible('e1')).includes('it'), 'a draft is never shown');
      await json(await hr.call('PATCH', `/kb_articles/${articles.it}`, { status: 'published' }), 200);
      await json(
        await hr.call('PATCH', `/kb_articles/${articles.paris_only}`, {
          employee_perimeters: [perimeter({ organization_id: 'lyon' })],
        }),
        200,
      );
      assert.ok(!(await visible('e1')).includes('paris_only'), 'no longer for paris');
      assert.ok((await visible('e2')).includes('paris_only'), 'now for lyon');
      await json(await hr.call('PATCH', `/kb_articles/${articles.hidden}`, { accessible_by_employee: true }), 200);
      assert.ok((await visible('e3')).includes('hidden'), 'accessible again');
      await json(await hr.call('PATCH', `/kb_articles/${articles.hidden}`, { accessible_by_employee: false }), 200);
      await json(
        await hr.call('PATCH', `/employees/${employees.e3}`, {
          registration_references: [{ organization_id: 'paris', employee_number: 'e3' }],
        }),
        200,
      );
      assert.deepEqual(await visible('e3'), [
        'everyone',
        'group_tree',
        'it',
        'other_or_paris',
        'scheduled_past',
        'senior_it_or_hr',
      ]);
      await json(
        await hr.call('PATCH', `/kb_articles/${articles.paris_only}`, {
          employee_perimeters: [perimeter({ organization_id: 'paris' })],
        }),
        200,
      );
    });

    it('employee_id combines with the other filters; status cannot widen it', async () => {
      assert.deepEqual(await visible('e1', '&status=draft'), []);
      assert.deepEqual(
        await visible('e1', `&categories_ids=${category}&sort=title&version_language_code=en-us`),
        await visible('e1'),
      );
      assert.deepEqual(await visible('e1', '&organization_id=paris'), ['other_or_paris', 'paris_only']);
      assert.deepEqual(await visible('e2', '&organization_group_id=south'), ['south']);
      assert.deepEqual(await visible('e1', '&q=paris'), ['other_or_paris', 'paris_only'], '_ splits words');
      assert.deepEqual(await visible('e2', '&q=paris'), [], 'e2 may see neither');
    });

    it('perimeter rules: custom fields must allow access restrictions, inequalities need hierarchical ints', async () => {
      const res = await hr.call('PUT', `/kb_articles/${randomUUID()}`, {
        categories_ids: [category],
        versions: [{ language_code: 'en-us', title: 't', body: '' }],
        employees_perimeters: [
          perimeter({ custom_field_filters: [rule('remote', '=', 'true'), rule('department', '>', 'it')] }),
        ],
      });
      const body = await json<ErrorBody>(res, 422);
      assert.deepEqual(
        body.errors?.map((e) => [e.field, e.code]),
        [
          ['employees_perimeters.0.custom_field_filters.0.custom_field_id', 'not_allowed'],
          ['employees_perimeters.0.custom_field_filters.1.operator', 'not_allowed'],
        ],
      );
    });

    it("another client's employee is unknown (422)", async () => {
      const other = await hrCaller(server);
      const res = await other.call('GET', `/kb_articles?employee_id=${employees.e1}`);
      const body = await json<ErrorBody>(res, 422);
      assert.deepEqual(
        body.errors?.map((e) => [e.field, e.code]),
        [['employee_id', 'not_found']],
      );
    });
  });
}
