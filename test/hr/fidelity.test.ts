/**
 * Issue 24 (field-level fidelity with the reference): unknown body fields ignored on every endpoint (item 2),
 * `profile_ids` on the employee search (item 2), `PUT /employees/{id}` creating at an unknown UUID (item 3) and
 * the retention policy of company document types (item 7). docs/hr-api.md says what each one does.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { addToDate, dayOf, formatDate, parseDate } from '../../src/platform/time.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string }[];
}

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text) as T;
}

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'), randomBytes(500)]);

/** JSON Schema as the OpenAPI document holds it. */
interface Schema {
  $ref?: string;
  type?: string | string[];
  additionalProperties?: boolean | Schema;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

describe('addToDate: the calendar arithmetic of expiry policies', () => {
  const add = (text: string, by: Parameters<typeof addToDate>[1]) =>
    formatDate(addToDate(parseDate(text) as NonNullable<ReturnType<typeof parseDate>>, by));
  it('keeps the day, or ends on the last day of a shorter month, then adds days', () => {
    assert.equal(add('2024-01-31', { months: 1 }), '2024-02-29');
    assert.equal(add('2023-01-31', { months: 1 }), '2023-02-28');
    assert.equal(add('2024-02-29', { years: 1 }), '2025-02-28');
    assert.equal(add('2024-11-30', { months: 2, days: 2 }), '2025-02-01');
    assert.equal(add('2024-12-31', { years: 50, months: 11, days: 25 }), '2075-12-25');
    assert.equal(add('2024-05-10', {}), '2024-05-10');
    assert.equal(add('0001-01-01', { days: 1 }), '0001-01-02');
  });
  it('stays at 9999-12-31 past the last date YYYY-MM-DD can write', () => {
    assert.equal(add('9999-12-01', { days: 25 }), '9999-12-26');
    assert.equal(add('9999-12-31', { days: 1 }), '9999-12-31');
    assert.equal(add('9990-06-01', { years: 50 }), '9999-12-31');
  });
});

for (const dialect of dialects()) {
  describe(`HR fidelity with the reference: bodies, employees, retention (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    const db = () => server.app.database.db;

    const upload = async (caller: HrCaller, filename: string) => {
      const form = new FormData();
      form.append('file', new Blob([PDF]), filename);
      const res = await fetch(`${server.url}/api/v2/client/document`, {
        method: 'POST',
        headers: { authorization: `Bearer ${caller.token}` },
        body: form,
      });
      return json<{ filename: string; file_id: string }>(res, 201);
    };

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      other = await hrCaller(server);
      // group ─┬─ paris ── paris-east
      //        └─ lyon          (the group "south" holds lyon)
      for (const [org, parent] of [
        ['group', null],
        ['paris', 'group'],
        ['paris-east', 'paris'],
        ['lyon', 'group'],
        ['elsewhere', null],
      ] as const) {
        await json(await hr.call('PUT', `/organizations/${org}`, { name: org, parent_organization_id: parent }), 201);
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
      await json(await hr.call('PUT', '/roles/viewer', { id: 'viewer', name: 'Viewer' }), 201);
    });
    after(() => server.close());

    describe('unknown body fields are ignored on every endpoint (item 2)', () => {
      it('no request body schema unites two closed objects (dropping members there would be wrong)', async () => {
        const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
          paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
          components: { schemas: Record<string, Schema> };
        };
        const resolve = (s: Schema | undefined): Schema | undefined => {
          let at = s;
          while (at?.$ref) at = doc.components.schemas[at.$ref.split('/').pop() as string];
          return at;
        };
        const closed: string[] = [];
        const unions: string[] = [];
        const walk = (schema: Schema | undefined, where: string, seen: Set<Schema>) => {
          const s = resolve(schema);
          if (!s || seen.has(s)) return;
          seen.add(s);
          if (s.additionalProperties === false) closed.push(where);
          for (const branches of [s.anyOf, s.oneOf]) {
            if (!branches) continue;
            // Every object with properties is closed by the validator (closeObjects): two in one union would
            // lose members while the first is tried.
            const objects = branches.map(resolve).filter((b) => b?.properties !== undefined);
            if (objects.length > 1) unions.push(where);
            for (const [i, b] of branches.entries()) walk(b, `${where}|${i}`, seen);
          }
          for (const b of s.allOf ?? []) walk(b, where, seen);
          for (const [name, p] of Object.entries(s.properties ?? {})) walk(p, `${where}.${name}`, seen);
          walk(s.items, `${where}[]`, seen);
          if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${where}{}`, seen);
        };
        for (const [path, operations] of Object.entries(doc.paths)) {
          // The HR API's bodies only: the others refuse unknown members instead of dropping them (docs/admin.md).
          if (!path.startsWith('/api/v2/client/')) continue;
          for (const [method, operation] of Object.entries(operations)) {
            for (const media of Object.values(operation.requestBody?.content ?? {})) {
              walk(media.schema, `${method.toUpperCase()} ${path}`, new Set());
            }
          }
        }
        assert.deepEqual(unions, []);
        assert.ok(closed.length >= 20, `the walk finds the closed body schemas (${closed.length})`);
      });

      it('search bodies take an unknown member, top level or repeated, as if it were not there', async () => {
        await json(
          await hr.call('POST', '/employees', {
            firstname: 'Body',
            lastname: 'Check',
            email: 'body@example.com',
            registration_references: [{ organization_id: 'paris', employee_number: 'B1', colour: 'red' }],
            colour: 'blue',
          }),
          201,
        );
        const plain = await json<{ id: string }[]>(await hr.call('POST', '/employees/search', {}), 200);
        const extra = await json<{ id: string }[]>(
          await hr.call('POST', '/employees/search', { colour: 'blue', utm: { source: 'x' }, page: 3 }),
          200,
        );
        assert.deepEqual(
          extra.map((e) => e.id),
          plain.map((e) => e.id),
        );
        assert.equal((await hr.call('POST', '/employee_documents/search', { colour: 'red' })).status, 200);
        // A declared member is still checked.
        const bad = await json<ErrorBody>(
          await hr.call('POST', '/employees/search', { colour: 1, has_email: 'x' }),
          422,
        );
        assert.deepEqual(
          bad.errors?.map((e) => [e.field, e.code]),
          [['has_email', 'invalid_type']],
        );
      });

      it('writes store nothing of an unknown member, nested ones included', async () => {
        const created = await json<Record<string, unknown>>(
          await hr.call('PUT', '/employee_document_types/contract', {
            localized_labels: [{ language_code: 'en', value: 'Contract', colour: 'red' }],
            folder_id: 'default',
            metadata: [
              {
                code: 'signed_on',
                type: 'date',
                localized_labels: [{ language_code: 'en', value: 'Signed on', colour: 1 }],
                colour: 'red',
              },
            ],
            colour: 'blue',
          }),
          201,
        );
        assert.equal('colour' in created, false);
        const stored = await db()
          .selectFrom('hr_document_types')
          .select(['settings', 'localized_labels'])
          .where('id', '=', 'contract')
          .where('client_id', '=', hr.creds.client_id)
          .executeTakeFirstOrThrow();
        assert.doesNotMatch(`${stored.settings} ${stored.localized_labels}`, /colour/);
        assert.match(stored.settings, /signed_on/);
        const patched = await json<{ metadata: Record<string, unknown>[] }>(
          await hr.call('PATCH', '/employee_document_types/contract', { colour: 'green', add_templates: [] }),
          200,
        );
        assert.deepEqual(patched.metadata, [
          {
            code: 'signed_on',
            type: 'date',
            authorized_values: null,
            label: null,
            localized_labels: [{ language_code: 'en', value: 'Signed on' }],
            is_required: false,
          },
        ]);
      });
    });

    describe('the employee search’s profile_ids (item 2)', () => {
      const names = async (body: Record<string, unknown>) =>
        (await json<{ firstname: string }[]>(await hr.call('POST', '/employees/search', body), 200))
          .map((e) => e.firstname)
          .sort();
      const profiles: Record<string, string> = {};

      before(async () => {
        for (const [name, org, department] of [
          ['Paris', 'paris', 'it'],
          ['East', 'paris-east', 'hr'],
          ['Lyon', 'lyon', 'it'],
          ['Nowhere', 'elsewhere', null],
        ] as const) {
          await json(
            await hr.call('POST', '/employees', {
              firstname: name,
              lastname: 'P',
              email: `${name.toLowerCase()}@profiles.example.com`,
              registration_references: [{ organization_id: org, employee_number: `P-${name}` }],
              ...(department ? { custom_fields: [{ code: 'department', value: department }] } : {}),
            }),
            201,
          );
        }
        const perimeter = (p: Record<string, unknown>) => ({
          role_id: 'viewer',
          employees_perimeter: { operator: '=', custom_field_filters: [], ...p },
        });
        const user = await json<{ profiles: { id: string }[] }>(
          await hr.call('POST', '/users', {
            firstname: 'Pat',
            lastname: 'Profiles',
            email: 'pat@profiles.example.com',
            profiles: [
              perimeter({ organization_id: 'paris' }),
              perimeter({ operator: '<=', organization_id: 'paris' }),
              perimeter({ organization_group_id: 'south' }),
              perimeter({ custom_field_filters: [{ custom_field_id: 'department', operator: '=', value: 'it' }] }),
              perimeter({
                operator: '<=',
                organization_id: 'group',
                custom_field_filters: [{ custom_field_id: 'department', operator: '!=', value: 'it' }],
              }),
            ],
          }),
          201,
        );
        ['exact', 'below', 'group', 'it', 'notIt'].forEach((key, i) => {
          profiles[key] = (user.profiles[i] as { id: string }).id;
        });
      });

      it('keeps the employees inside any of the named profiles’ perimeters', async () => {
        const withP = (keys: string[]) => names({ profile_ids: keys.map((k) => profiles[k]).join(','), lastname: 'P' });
        assert.deepEqual(await withP(['exact']), ['Paris']);
        assert.deepEqual(await withP(['below']), ['East', 'Paris']);
        assert.deepEqual(await withP(['group']), ['Lyon']);
        assert.deepEqual(await withP(['it']), ['Lyon', 'Paris']);
        assert.deepEqual(await withP(['notIt']), ['East'], 'no value passes != only inside the organization rule');
        assert.deepEqual(await withP(['exact', 'group']), ['Lyon', 'Paris']);
        assert.deepEqual(await withP(['exact', 'below', 'group', 'it']), ['East', 'Lyon', 'Paris']);
        // Combined with another filter: both hold.
        assert.deepEqual(await names({ profile_ids: profiles.below, lastname: 'P', firstname: 'East' }), ['East']);
        // The deprecated GET takes it too.
        const listed = await json<{ firstname: string }[]>(
          await hr.call('GET', `/employees?profile_ids=${profiles.group}&per_page=100`),
          200,
        );
        assert.deepEqual(
          listed.map((e) => e.firstname),
          ['Lyon'],
        );
      });

      it('an unknown profile, or another client’s, is not_found', async () => {
        const body = await json<ErrorBody>(
          await hr.call('POST', '/employees/search', { profile_ids: `${profiles.exact},${randomUUID()}` }),
          422,
        );
        assert.deepEqual(
          body.errors?.map((e) => [e.field, e.code]),
          [['profile_ids', 'not_found']],
        );
        const theirs = await json<ErrorBody>(
          await other.call('POST', '/employees/search', { profile_ids: profiles.exact }),
          422,
        );
        assert.deepEqual(
          theirs.errors?.map((e) => [e.field, e.code]),
          [['profile_ids', 'not_found']],
        );
        const query = await json<ErrorBody>(await hr.call('GET', `/employees?profile_ids=${randomUUID()}`), 400);
        assert.equal(query.code, 'invalid_request');
        assert.match(query.message, /profile_ids/);
      });
    });

    describe('PUT /employees/{id} creates at an unknown UUID (item 3)', () => {
      const body = (n: string) => ({
        firstname: `Put${n}`,
        lastname: 'Upsert',
        email: `put${n}@example.com`,
        registration_references: [{ organization_id: 'paris', employee_number: `PUT-${n}` }],
      });
      const rows = (id: string) =>
        db().selectFrom('hr_employees').select(['client_id', 'firstname']).where('id', '=', id).execute();

      it('201 with the employee at that id, then 200 when it replaces; another client’s id is its own', async () => {
        const id = randomUUID();
        const created = await json<{ id: string; firstname: string }>(
          await hr.call('PUT', `/employees/${id}`, body('1')),
          201,
        );
        assert.equal(created.id, id);
        assert.equal(created.firstname, 'Put1');
        assert.equal((await json<{ id: string }>(await hr.call('GET', `/employees/${id}`), 200)).id, id);
        const replaced = await json<{ firstname: string }>(
          await hr.call('PUT', `/employees/${id}`, { ...body('1'), firstname: 'Put1b' }),
          200,
        );
        assert.equal(replaced.firstname, 'Put1b');
        // The same UUID in another client: that client's own new employee; the first is untouched.
        await json(await other.call('PUT', '/organizations/paris', { name: 'Their Paris' }), 201);
        await json(await other.call('PUT', `/employees/${id}`, body('1')), 201);
        const stored = await rows(id);
        assert.deepEqual(stored.map((r) => r.firstname).sort(), ['Put1', 'Put1b']);
        assert.deepEqual(new Set(stored.map((r) => r.client_id)), new Set([hr.creds.client_id, other.creds.client_id]));
      });

      it('an id that is not a UUID is 404 and creates nothing; an invalid body creates nothing', async () => {
        const res = await json<ErrorBody>(await hr.call('PUT', '/employees/not-a-uuid', body('2')), 404);
        assert.equal(res.code, 'not_found');
        assert.deepEqual(await rows('not-a-uuid'), []);
        const id = randomUUID();
        await json(await hr.call('PUT', `/employees/${id}`, { firstname: 'No' }), 422);
        assert.deepEqual(await rows(id), []);
        assert.equal((await hr.call('GET', `/employees/${id}`)).status, 404);
      });

      it('two first PUTs of one id at once: one creates (201), the other replaces (200)', async () => {
        const id = randomUUID();
        const statuses = await Promise.all(
          ['3', '4'].map(async (n) => {
            const res = await hr.call('PUT', `/employees/${id}`, body(n));
            await res.text();
            return res.status;
          }),
        );
        assert.deepEqual(statuses.sort(), [200, 201]);
        assert.equal((await rows(id)).length, 1);
      });
    });

    describe('company documents get their expiry_date from the type’s policy (item 7)', () => {
      const today = dayOf(Date.now());
      const plus = (day: string, by: Parameters<typeof addToDate>[1]) =>
        formatDate(addToDate(parseDate(day) as NonNullable<ReturnType<typeof parseDate>>, by));
      const type = (id: string, policy: Record<string, unknown>) =>
        hr.call('PUT', `/company_document_types/${id}`, {
          localized_labels: [{ language_code: 'en', value: id }],
          metadata: [
            { code: 'valid_from', type: 'date', localized_labels: [{ language_code: 'en', value: 'Valid from' }] },
          ],
          ...policy,
        });
      const create = async (typeId: string, extra: Record<string, unknown> = {}) =>
        json<{ id: string; expiry_date: string | null; expired: boolean }>(
          await hr.call('POST', '/company_documents', {
            document_type_id: typeId,
            organization_ids: ['paris'],
            uploaded_file: await upload(hr, `${typeId}.pdf`),
            ...extra,
          }),
          201,
        );
      const storedExpiry = async (id: string) =>
        (
          await db()
            .selectFrom('hr_documents')
            .select('expiry_date')
            .where('id', '=', id)
            .where('client_id', '=', hr.creds.client_id)
            .executeTakeFirstOrThrow()
        ).expiry_date;

      before(async () => {
        await json(
          await type('fixed', {
            expiry_date_policy_type: 'specific_date',
            expiry_date_policy_options: { date: '2031-03-04' },
          }),
          201,
        );
        await json(
          await type('upload', {
            expiry_date_policy_type: 'document_upload_date',
            expiry_date_policy_options: { years: 5, months: 2, days: 3 },
          }),
          201,
        );
        await json(
          await type('by-metadata', {
            expiry_date_policy_type: 'document_metadata',
            expiry_date_policy_options: { metadata: 'valid_from', months: 1 },
          }),
          201,
        );
        await json(await type('forever', { expiry_date_policy_type: 'no_limit' }), 201);
        await json(await type('none', {}), 201);
      });

      it('applies specific_date, document_upload_date, document_metadata and no_limit at creation', async () => {
        const fixed = await create('fixed');
        assert.equal(fixed.expiry_date, '2031-03-04');
        assert.equal(await storedExpiry(fixed.id), '2031-03-04');
        const uploaded = await create('upload');
        assert.equal(uploaded.expiry_date, plus(today, { years: 5, months: 2, days: 3 }));
        assert.equal(await storedExpiry(uploaded.id), uploaded.expiry_date);
        const byMetadata = await create('by-metadata', { metadata: [{ code: 'valid_from', value: '2024-01-31' }] });
        assert.equal(byMetadata.expiry_date, '2024-02-29');
        assert.equal(byMetadata.expired, true, 'a retention end in the past: expired');
        const withoutValue = await create('by-metadata');
        assert.equal(withoutValue.expiry_date, null);
        assert.equal((await create('forever')).expiry_date, null);
        assert.equal((await create('none')).expiry_date, null);
        const read = await json<{ expiry_date: string | null }>(
          await hr.call('GET', `/company_documents/${fixed.id}`),
          200,
        );
        assert.equal(read.expiry_date, '2031-03-04');
      });

      it('expire with null falls back to the policy, computed from the document as it is now', async () => {
        const doc = await create('by-metadata', { metadata: [{ code: 'valid_from', value: '2030-01-15' }] });
        assert.equal(doc.expiry_date, '2030-02-15');
        assert.equal(
          (await hr.call('PUT', `/company_documents/${doc.id}/expire`, { expiry_date: '2040-01-01' })).status,
          204,
        );
        assert.equal(await storedExpiry(doc.id), '2040-01-01');
        await json(
          await hr.call('PATCH', `/company_documents/${doc.id}`, {
            metadata: [{ code: 'valid_from', value: '2035-05-31' }],
          }),
          200,
        );
        assert.equal(await storedExpiry(doc.id), '2040-01-01', 'a later change does not move a date');
        assert.equal((await hr.call('PUT', `/company_documents/${doc.id}/expire`, { expiry_date: null })).status, 204);
        assert.equal(await storedExpiry(doc.id), '2035-06-30');
        const read = await json<{ expiry_date: string | null }>(
          await hr.call('GET', `/company_documents/${doc.id}`),
          200,
        );
        assert.equal(read.expiry_date, '2035-06-30');
      });

      it('employee documents have no type policy: none at creation, and null clears', async () => {
        await json(
          await hr.call('PUT', '/employee_document_types/payslip', {
            localized_labels: [{ language_code: 'en', value: 'Payslip' }],
            folder_id: 'default',
            policies: ['payslip_policy_fr'],
          }),
          201,
        );
        const employee = await json<{ id: string }>(
          await hr.call('POST', '/employees', {
            firstname: 'Ret',
            lastname: 'Ention',
            email: 'retention@example.com',
            registration_references: [{ organization_id: 'paris', employee_number: 'RET-1' }],
          }),
          201,
        );
        const doc = await json<{ id: string; expiry_date: string | null }>(
          await hr.call('POST', '/employee_documents', {
            document_type_id: 'payslip',
            employee_id: employee.id,
            uploaded_file: await upload(hr, 'payslip.pdf'),
          }),
          201,
        );
        assert.equal(doc.expiry_date, null);
        assert.equal(
          (await hr.call('PUT', `/employee_documents/${doc.id}/expire`, { expiry_date: '2030-01-01' })).status,
          204,
        );
        assert.equal(await storedExpiry(doc.id), '2030-01-01');
        assert.equal((await hr.call('PUT', `/employee_documents/${doc.id}/expire`, { expiry_date: null })).status, 204);
        assert.equal(await storedExpiry(doc.id), null);
      });
    });
  });
}
