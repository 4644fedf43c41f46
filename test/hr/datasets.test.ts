/**
 * Datasets (issue 19, reference §5.2): hierarchical value lists with dimensions, values at dotted paths, their
 * lists and filters, and the dataset fields of request forms, whose answers are checked against the values.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { category, employee } from '../support/people-assist.js';

type Body = Record<string, unknown>;

interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string; message: string }[];
}

async function json<T = Body>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return (text ? JSON.parse(text) : undefined) as T;
}

const names = (en: string, fr?: string) => [
  { language_code: 'en-us', value: en },
  ...(fr ? [{ language_code: 'fr-fr', value: fr }] : []),
];

const GEO = {
  localized_names: names('Geography', 'Géographie'),
  dimensions: [
    { id: 'countries', localized_names: names('Countries') },
    { id: 'cities', localized_names: [] },
  ],
};

for (const dialect of dialects()) {
  describe(`datasets (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    const db = () => server.app.database.db;
    const putValue = (id: string, en: string, fr?: string, dataset = 'geo') =>
      hr.call('PUT', `/datasets/${dataset}/values/${id}`, { localized_names: names(en, fr) });
    const count = async () => (await json<Body>(await hr.call('GET', '/datasets/geo'), 200)).values_count;

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      other = await hrCaller(server);
    });
    after(() => server.close());

    it('PUT /datasets/{id} creates (201) then updates (200); dimensions can be added, never removed or renamed', async () => {
      const created = await json<Body>(await hr.call('PUT', '/datasets/geo', GEO), 201);
      assert.deepEqual(
        { ...created, created_at: undefined, updated_at: undefined },
        {
          id: 'geo',
          name: 'Geography',
          localized_names: GEO.localized_names,
          dimensions: [
            { id: 'countries', localized_names: names('Countries'), name: 'Countries' },
            { id: 'cities', localized_names: [], name: null },
          ],
          values_count: 0,
          last_import_status: null,
          last_import_result: null,
          created_at: undefined,
          updated_at: undefined,
        },
      );
      assert.deepEqual(await json(await hr.call('GET', '/datasets/geo'), 200), created);
      const renamed = await json<Body>(
        await hr.call('PUT', '/datasets/geo', { ...GEO, localized_names: names('World', 'Monde') }),
        200,
      );
      assert.equal(renamed.name, 'World');
      const row = await db()
        .selectFrom('hr_datasets')
        .select(['name', 'client_id'])
        .where('id', '=', 'geo')
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { name: 'World', client_id: hr.creds.client_id });

      const moved = await json<ErrorBody>(
        await hr.call('PUT', '/datasets/geo', { ...GEO, dimensions: [GEO.dimensions[1], GEO.dimensions[0]] }),
        422,
      );
      assert.deepEqual(
        moved.errors?.map((e) => [e.field, e.code]),
        [['dimensions.0.id', 'immutable']],
      );
      const dropped = await json<ErrorBody>(
        await hr.call('PUT', '/datasets/geo', { ...GEO, dimensions: [GEO.dimensions[0]] }),
        422,
      );
      assert.equal(dropped.errors?.[0]?.field, 'dimensions.1.id');
      const twice = await json<ErrorBody>(
        await hr.call('PUT', '/datasets/other', { ...GEO, dimensions: [GEO.dimensions[0], GEO.dimensions[0]] }),
        422,
      );
      assert.deepEqual(twice.errors?.[0], {
        field: 'dimensions.1.id',
        code: 'duplicate',
        message: 'Each dimension has its own id.',
      });
      const tooMany = Array.from({ length: 11 }, (_, i) => ({ id: `d${i}`, localized_names: [] }));
      const eleven = await json<ErrorBody>(
        await hr.call('PUT', '/datasets/other', { ...GEO, dimensions: tooMany }),
        422,
      );
      assert.equal(eleven.errors?.[0]?.code, 'too_many');
      await json(await hr.call('GET', '/datasets/other'), 404);
      // A dimension added after the existing ones is fine.
      const added = await json<{ dimensions: { id: string }[] }>(
        await hr.call('PUT', '/datasets/geo', {
          ...GEO,
          dimensions: [...GEO.dimensions, { id: 'districts', localized_names: [] }],
        }),
        200,
      );
      assert.deepEqual(
        added.dimensions.map((d) => d.id),
        ['countries', 'cities', 'districts'],
      );
    });

    it('values live at dotted paths under an existing parent, within the dimensions; counts follow', async () => {
      assert.equal(
        (await json<Body>(await putValue('uk', 'United Kingdom', 'Royaume-Uni'), 201)).dimension_id,
        'countries',
      );
      await json(await putValue('fr', 'France'), 201);
      const london = await json<Body>(await putValue('uk.london', 'London', 'Londres'), 201);
      assert.deepEqual(london, {
        id: 'uk.london',
        code: 'london',
        name: 'London',
        localized_names: names('London', 'Londres'),
        dataset_id: 'geo',
        dimension_id: 'cities',
      });
      await json(await putValue('uk.leeds', 'Leeds'), 201);
      await json(await putValue('fr.paris', 'Paris'), 201);
      await json(await putValue('uk.london.camden', 'Camden'), 201);
      assert.equal(await count(), 6);
      // A second PUT renames: 200, and the count stays.
      assert.equal((await json<Body>(await putValue('uk.leeds', 'Leeds City'), 200)).name, 'Leeds City');
      assert.equal(await count(), 6);

      const orphan = await json<ErrorBody>(await putValue('de.berlin', 'Berlin'), 422);
      assert.deepEqual(orphan.errors?.[0], {
        field: 'value_id',
        code: 'not_found',
        message: 'The dataset has no value "de" to hold it.',
      });
      const deep = await json<ErrorBody>(await putValue('uk.london.camden.x', 'X'), 422);
      assert.equal(deep.errors?.[0]?.code, 'too_deep');
      await json(await hr.call('PUT', '/datasets/geo/values/bad%20id', { localized_names: names('x') }), 404);
      await json(await putValue('x', 'X', undefined, 'nowhere'), 404);
      assert.equal(await count(), 6);

      assert.deepEqual(await json(await hr.call('GET', '/datasets/geo/values/uk.london'), 200), london);
      const head = await hr.call('HEAD', '/datasets/geo/values/uk.london');
      assert.equal(head.status, 200);
      assert.equal((await hr.call('HEAD', '/datasets/geo/values/uk.paris')).status, 404);
      await json(await hr.call('GET', '/datasets/geo/values/uk.paris'), 404);
    });

    it('lists values by name, filtered by dimension, parent and q (names in any language and codes)', async () => {
      const ids = async (query: string) =>
        (await json<{ id: string }[]>(await hr.call('GET', `/datasets/geo/values${query}`), 200)).map((v) => v.id);
      assert.deepEqual(await ids(''), ['uk.london.camden', 'fr', 'uk.leeds', 'uk.london', 'fr.paris', 'uk']);
      assert.deepEqual(await ids('?dimension=countries'), ['fr', 'uk']);
      assert.deepEqual(await ids('?dimension=cities&sort=-name'), ['fr.paris', 'uk.london', 'uk.leeds']);
      assert.deepEqual(await ids('?parent_code=uk'), ['uk.leeds', 'uk.london']);
      assert.deepEqual(await ids('?q=royaume'), ['uk']);
      assert.deepEqual(await ids('?q=camd'), ['uk.london.camden']);
      const bad = await json<ErrorBody>(await hr.call('GET', '/datasets/geo/values?dimension=planets'), 400);
      assert.equal(bad.code, 'invalid_request');
      await json(await hr.call('GET', '/datasets/geo/values?q=a'), 400);
      // Pages of up to 1000, followed by their cursor.
      const first = await hr.call('GET', '/datasets/geo/values?per_page=4');
      assert.equal(((await first.json()) as unknown[]).length, 4);
      const next = first.headers.get('next-cursor');
      assert.ok(next);
      assert.deepEqual(await ids(`?per_page=4&cursor=${next}`), ['fr.paris', 'uk']);
      await json(await hr.call('GET', '/datasets/geo/values?per_page=1000'), 200);
      await json(await hr.call('GET', '/datasets/nowhere/values'), 404);
    });

    it('DELETE removes a value that holds none; one with children is refused', async () => {
      const busy = await json<ErrorBody>(await hr.call('DELETE', '/datasets/geo/values/uk.london'), 422);
      assert.deepEqual(busy, { code: 'has_children', message: 'The value holds other values: delete them first.' });
      assert.equal((await hr.call('DELETE', '/datasets/geo/values/uk.london.camden')).status, 204);
      assert.equal((await hr.call('DELETE', '/datasets/geo/values/uk.london.camden')).status, 404);
      assert.equal(await count(), 5);
      const rows = await db()
        .selectFrom('hr_dataset_values')
        .select('id')
        .where('client_id', '=', hr.creds.client_id)
        .where('dataset_id', '=', 'geo')
        .execute();
      assert.equal(rows.length, 5);
    });

    it('lists datasets with q, the import filters and sort', async () => {
      await json(
        await hr.call('PUT', '/datasets/shops', {
          localized_names: names('Shops'),
          dimensions: [{ id: 'shops', localized_names: [] }],
        }),
        201,
      );
      const list = async (query: string) =>
        (await json<{ id: string }[]>(await hr.call('GET', `/datasets${query}`), 200)).map((d) => d.id);
      assert.deepEqual(await list(''), ['geo', 'shops']);
      // geo is named "Geography" again (the last PUT): before "Shops".
      assert.deepEqual(await list('?sort=-name'), ['shops', 'geo']);
      assert.deepEqual(await list('?sort=name'), ['geo', 'shops']);
      assert.deepEqual(await list('?q=sho'), ['shops']);
      assert.deepEqual(await list('?last_import_status=null'), ['geo', 'shops']);
      assert.deepEqual(await list('?last_import_status=finished'), []);
      await json(await hr.call('GET', '/datasets?last_import_status=done'), 400);
    });

    it('another client sees none of it', async () => {
      assert.deepEqual(await json(await other.call('GET', '/datasets'), 200), []);
      await json(await other.call('GET', '/datasets/geo'), 404);
      await json(await other.call('GET', '/datasets/geo/values'), 404);
      await json(await other.call('GET', '/datasets/geo/values/uk'), 404);
      await json(await other.call('PUT', '/datasets/geo/values/de', { localized_names: names('Germany') }), 404);
      await json(await other.call('DELETE', '/datasets/geo/values/fr.paris'), 404);
      // Its own dataset of the same id is its own.
      await json(await other.call('PUT', '/datasets/geo', GEO), 201);
      assert.equal((await json<Body>(await other.call('GET', '/datasets/geo'), 200)).values_count, 0);
    });

    it('a request form’s and a task form’s dataset field take only paths of its dataset’s values', async () => {
      await json(await hr.call('PUT', '/organizations/hq', { name: 'HQ' }), 201);
      const ada = await employee(hr, {
        firstname: 'Ada',
        lastname: 'L',
        registration_references: [{ organization_id: 'hq', employee_number: 'A1' }],
      });
      const payroll = await category(hr, 'Payroll');
      const bad = await json<ErrorBody>(
        await hr.call('PUT', '/request_forms/move', {
          name: 'Move',
          category_id: payroll,
          formidable: { fields: [{ slug: 'to', label: 'To', type_id: 'text', dataset_id: 'geo' }] },
        }),
        422,
      );
      assert.deepEqual(
        bad.errors?.map((e) => [e.field, e.code]),
        [['formidable.fields.0.dataset_id', 'invalid_value']],
      );
      await json(
        await hr.call('PUT', '/request_forms/move', {
          name: 'Move',
          category_id: payroll,
          formidable: { fields: [{ slug: 'to', label: 'To', type_id: 'dataset', dataset_id: 'geo' }] },
        }),
        200,
      );
      const ask = (path: unknown[]) =>
        hr.call('POST', '/requests', {
          form_id: 'move',
          employee_id: ada,
          form_data: [{ field_id: 'to', values: [path] }],
        });
      const uk = { id: 'uk', name: 'United Kingdom', code: 'uk' };
      const london = { id: 'uk.london', name: 'London', code: 'london' };
      const created = await json<{ form_data: { values: unknown[] }[] }>(await ask([uk, london]), 201);
      assert.deepEqual(created.form_data[0]?.values, [[uk, london]]);
      await json(await ask([uk]), 201);

      const fields = async (path: unknown[]) =>
        (await json<ErrorBody>(await ask(path), 422)).errors?.map((e) => [e.field, e.code]);
      assert.deepEqual(await fields([{ id: 'de', name: 'Germany' }]), [['form_data.0.values.0.0.id', 'not_found']]);
      assert.deepEqual(await fields([uk, { id: 'uk.paris', name: 'Paris' }]), [
        ['form_data.0.values.0.1.id', 'not_found'],
      ]);
      assert.deepEqual(await fields([london]), [['form_data.0.values.0.0.id', 'invalid_path']]);
      assert.deepEqual(await fields([{ id: 'fr', name: 'France' }, london]), [
        ['form_data.0.values.0.1.id', 'invalid_path'],
      ]);
      assert.deepEqual(await fields([{ ...uk, code: 'gb' }]), [['form_data.0.values.0.0.code', 'invalid_value']]);

      // A task form's dataset field: the same check, through POST /tasks/{id}/fill.
      const user = await json<{ id: string }>(
        await hr.call('POST', '/users', { firstname: 'Tom', lastname: 'Task', email: 'tom.task@example.com' }),
        201,
      );
      await json(await hr.call('PUT', '/process_templates/move', { title: 'Move' }), 201);
      await json(
        await hr.call('PUT', '/process_templates/move/task_templates/where', {
          type: 'fill_form',
          name: 'Where to',
          assigned_to: 'employee',
          formidable: { fields: [{ slug: 'to', label: 'To', type_id: 'dataset', dataset_id: 'geo' }] },
        }),
        201,
      );
      const process = await json<{ id: string }>(
        await hr.call('POST', '/processes', {
          process_template_id: 'move',
          publish: true,
          employee_id: ada,
          creator_id: user.id,
        }),
        201,
      );
      const tasks = await json<{ id: string }[]>(await hr.call('GET', `/tasks?process_id=${process.id}`), 200);
      const fill = (path: unknown[]) =>
        hr.call('POST', `/tasks/${tasks[0]?.id}/fill`, { form_data: [{ field_id: 'to', values: [path] }] });
      const refused = await json<ErrorBody>(await fill([uk, { id: 'uk.paris', name: 'Paris' }]), 422);
      assert.deepEqual(
        refused.errors?.map((e) => [e.field, e.code]),
        [['form_data.0.values.0.1.id', 'not_found']],
      );
      await json(await fill([uk, london]), 200);
    });
  });
}
