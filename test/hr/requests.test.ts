import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import {
  category,
  type ErrorBody,
  employee,
  fieldErrors,
  hrUser,
  json,
  simpleForm,
  upload,
} from '../support/people-assist.js';

interface Req {
  id: string;
  request_number: string;
  name: string;
  status: string;
  priority: string;
  employee_id?: string | null;
  employee?: { id: string; firstname: string };
  creator_id?: string | null;
  creator?: { id: string; firstname: string };
  closed_by_id?: string | null;
  organization_ids: string[];
  form_id: string;
  form_data: { field_id: string; values: unknown[] }[];
  form_files: { id: string; filename: string; field_id: string }[];
  custom_status: { id: string; name: string } | null;
  category: { id: string; name: string };
  origin: string;
  public_comment_count: number;
  internal_comment_count: number;
  total_comment_count: number;
  attachment_count: number;
  attachments: { id: string; name: string }[];
  read_only: boolean;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  archived_at: string | null;
}

interface Comment {
  id: string;
  creator_id?: string | null;
  creator?: { id: string; firstname: string };
  content: string;
  is_internal: boolean;
  is_informative: boolean;
  comment_source: string;
  attachments: { id: string; name: string }[];
}

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'), randomBytes(2000)]);

/** A form with one field of every answer type, a layout field, and a conditional field. */
const FORMIDABLE = {
  label: 'Bank details',
  fields: [
    { slug: 'intro', label: 'Intro', type_id: 'title' },
    {
      slug: 'iban',
      label: 'IBAN',
      type_id: 'text',
      accesses: [{ access_id: 'API', level: 'REQUIRED' }],
      validations: [
        { type: 'MINLENGTH', value: 10 },
        { type: 'REGEXP', value: '^[A-Z]{2}' },
      ],
    },
    { slug: 'reason', label: 'Reason', type_id: 'paragraph' },
    {
      slug: 'amount',
      label: 'Amount',
      type_id: 'number',
      validations: [
        { type: 'GTE', value: 0 },
        { type: 'LTE', value: 1000, message: 'Too much.' },
      ],
    },
    { slug: 'start', label: 'Start', type_id: 'date' },
    { slug: 'contact', label: 'Contact', type_id: 'email' },
    { slug: 'urgent', label: 'Urgent', type_id: 'checkbox' },
    {
      slug: 'hobbies',
      label: 'Hobbies',
      type_id: 'checkboxes',
      items: ['a', 'b', 'c'].map((v) => ({ label: v, value: v })),
    },
    {
      slug: 'plan',
      label: 'Plan',
      type_id: 'dropdown',
      items: [
        { label: 'Basic', value: 'basic' },
        { label: 'Premium', value: 'premium' },
      ],
    },
    { slug: 'size', label: 'Size', type_id: 'radios', items: ['s', 'm', 'l'].map((v) => ({ label: v, value: v })) },
    { slug: 'proof', label: 'Proof', type_id: 'file' },
    { slug: 'city', label: 'City', type_id: 'dataset' },
    { slug: 'details', label: 'Details', type_id: 'text', required: true },
  ],
  conditions: [
    {
      name: 'premium details',
      field_ids: ['details'],
      action: 'display_iff',
      tests: [{ field_id: 'plan', operator: 'eq', values: ['premium'] }],
    },
  ],
};

for (const dialect of dialects()) {
  describe(`People Assist requests: forms, lifecycle, comments, files, macros, links (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    let payroll: string;
    let ada: string;
    let bob: string;
    let agent: string;
    let agent2: string;

    const create = (body: Record<string, unknown>, caller = hr, headers: Record<string, string> = {}) =>
      caller.call('POST', '/requests', body, headers);
    const simple = (subject: string, extra: Record<string, unknown> = {}) =>
      create({
        form_id: 'question',
        employee_id: ada,
        form_data: [{ field_id: 'subject', values: [subject] }],
        ...extra,
      });
    const get = async (id: string, query = '') => json<Req>(await hr.call('GET', `/requests/${id}${query}`), 200);
    const rowCount = async (table: 'pa_requests' | 'pa_request_files' | 'pa_request_comments') =>
      (await server.app.database.db.selectFrom(table).select('id').execute()).length;

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      other = await hrCaller(server);
      for (const [org, parent] of [
        ['hq', null],
        ['paris', 'hq'],
      ] as const) {
        await json(await hr.call('PUT', `/organizations/${org}`, { name: org, parent_organization_id: parent }), 201);
      }
      ada = await employee(hr, {
        firstname: 'Ada',
        lastname: 'Lovelace',
        external_id: 'EXT-ADA',
        registration_references: [{ organization_id: 'paris', employee_number: 'A100' }],
      });
      bob = await employee(hr, {
        firstname: 'Bob',
        lastname: 'Stone',
        registration_references: [{ organization_id: 'hq', employee_number: 'B200' }],
      });
      agent = await hrUser(hr, 'Agent', 'AG-1');
      agent2 = await hrUser(hr, 'Second');
      payroll = await category(hr, 'Payroll');
      await json(
        await hr.call('PUT', '/request_forms/bank-details', {
          name: 'Bank details',
          category_id: payroll,
          language_code: 'en-us',
          keywords: 'iban account',
          formidable: FORMIDABLE,
        }),
        200,
      );
      await simpleForm(hr, 'question', payroll);
      await simpleForm(hr, 'org-notice', payroll, {
        linkeable_to_employee: false,
        linkeable_to_organization: true,
      });
      await simpleForm(hr, 'anything', payroll, { employee_organization_mandatory: false });
      await simpleForm(hr, 'locked', payroll, { request_editable_by_user: false });
    });
    after(() => server.close());

    describe('request forms', () => {
      it('PUT creates at the slug and replaces; GET, HEAD count, PATCH settings; the definition reads in both shapes', async () => {
        const form = await json<Record<string, unknown>>(await hr.call('GET', '/request_forms/bank-details'), 200);
        assert.equal(form.id, 'bank-details');
        assert.equal(form.category_id, payroll);
        assert.equal(form.linkeable_to_employee, true);
        assert.equal(form.employee_organization_mandatory, true);
        const formidable = form.formidable as { fields: { slug: string; id: number }[] };
        assert.deepEqual(
          formidable.fields.map((f) => f.id),
          FORMIDABLE.fields.map((_, i) => i + 1),
        );
        const context = form.form_definition as { fields: { slug: string; required: boolean; type_id: string }[] };
        assert.deepEqual(
          context.fields.filter((f) => f.required).map((f) => f.slug),
          ['iban', 'details'],
        );

        const head = await hr.call('HEAD', '/request_forms');
        assert.equal(head.status, 200);
        assert.equal(head.headers.get('x-total-count'), '5');
        assert.equal(
          (await hr.call('HEAD', `/request_forms?category_id=${payroll}&featured=true`)).headers.get('x-total-count'),
          '0',
        );

        const patched = await json<Record<string, unknown>>(
          await hr.call('PATCH', '/request_forms/anything', { featured: true, success_message: 'Thanks' }),
          200,
        );
        assert.equal(patched.featured, true);
        assert.equal(patched.success_message, 'Thanks');
        assert.equal(patched.name, 'Form anything');
        assert.equal((await hr.call('HEAD', '/request_forms?featured=true')).headers.get('x-total-count'), '1');

        const replaced = await json<Record<string, unknown>>(
          await hr.call('PUT', '/request_forms/anything', {
            name: 'Anything else',
            formidable: { fields: [{ slug: 'subject', label: 'S', type_id: 'text', required: true }] },
            employee_organization_mandatory: false,
          }),
          200,
        );
        assert.equal(replaced.name, 'Anything else');
        assert.equal(replaced.category_id, payroll, 'a PUT without category_id keeps the category');
        assert.equal(replaced.featured, false, 'PUT replaces every setting');
      });

      it('lists by name (+title default, -title), filters, and q needs language_code', async () => {
        const names = async (query: string) =>
          (await json<{ name: string }[]>(await hr.call('GET', `/request_forms${query}`), 200)).map((f) => f.name);
        assert.deepEqual(await names(''), [
          'Anything else',
          'Bank details',
          'Form locked',
          'Form org-notice',
          'Form question',
        ]);
        assert.deepEqual(await names('?sort=-title&per_page=2'), ['Form question', 'Form org-notice']);
        assert.deepEqual(await names('?q=iban&language_code=en-us'), ['Bank details']);
        const noLanguage = await json<ErrorBody>(await hr.call('GET', '/request_forms?q=iban'), 400);
        assert.equal(noLanguage.code, 'invalid_request');
        assert.equal((await hr.call('GET', '/request_forms?sort=+size')).status, 400);
      });

      it('refuses a bad definition, an unknown category and unknown roles, field by field', async () => {
        const errors = await fieldErrors(
          await hr.call('PUT', '/request_forms/bad', {
            name: 'Bad',
            category_id: '7b0c0c4e-8f1e-4c38-9d7c-0d3c6f0b9a11',
            user_restrictions: { roles: [{ id: 'no-such-role' }] },
            formidable: {
              fields: [
                { slug: 'a', label: 'A', type_id: 'text' },
                { slug: 'a', label: 'A again', type_id: 'text' },
                { slug: 'pick', label: 'Pick', type_id: 'dropdown' },
                { slug: 'n', label: 'N', type_id: 'number', validations: [{ type: 'MAXLENGTH', value: 3 }] },
              ],
              conditions: [
                {
                  field_ids: ['ghost'],
                  action: 'display_iff',
                  tests: [{ field_id: 'a', operator: 'eq', values: ['x'] }],
                },
              ],
            },
          }),
        );
        assert.deepEqual(errors.sort(), [
          ['category_id', 'not_found'],
          ['formidable.conditions.0.field_ids.0', 'unknown_field'],
          ['formidable.fields.1.slug', 'duplicate'],
          ['formidable.fields.2.items', 'too_few'],
          ['formidable.fields.3.validations.0', 'invalid_value'],
          ['user_restrictions.roles.0.id', 'not_found'],
        ]);
        assert.deepEqual(
          await fieldErrors(await hr.call('PUT', '/request_forms/bad', { name: 'Bad', formidable: { fields: [] } })),
          [['category_id', 'required']],
        );
        assert.equal((await hr.call('GET', '/request_forms/bad')).status, 404, 'nothing was written');
      });

      it('employee_id lists the forms visible to that employee, by their perimeter', async () => {
        await simpleForm(hr, 'paris-only', payroll, {
          employee_restrictions: [{ operator: '<=', organization_id: 'paris', custom_field_filters: [] }],
        });
        await simpleForm(hr, 'hidden', payroll, { visible_by_employee: false });
        const slugs = async (emp: string) =>
          (await json<{ id: string }[]>(await hr.call('GET', `/request_forms?employee_id=${emp}&per_page=100`), 200))
            .map((f) => f.id)
            .sort();
        assert.ok((await slugs(ada)).includes('paris-only'), 'Ada is in Paris');
        assert.ok(!(await slugs(bob)).includes('paris-only'), 'Bob is at HQ, above Paris');
        assert.ok(!(await slugs(ada)).includes('hidden'), 'a form hidden from employees is not listed');
        const unknown = await fieldErrors(await hr.call('GET', '/request_forms?employee_id=nobody'));
        assert.deepEqual(unknown, [['employee_id', 'not_found']]);
        assert.deepEqual(
          await fieldErrors(
            await hr.call('PUT', '/request_forms/bad-perimeter', {
              name: 'x',
              category_id: payroll,
              formidable: { fields: [] },
              employee_restrictions: [{ operator: '=', organization_id: 'nowhere', custom_field_filters: [] }],
            }),
          ),
          [['employee_restrictions.0.organization_id', 'not_found']],
        );
      });
    });

    describe('creating requests', () => {
      it('creates from a form: number, status, category, organizations, normalised answers, form files and attachments', async () => {
        const proof = await upload(server, hr, PDF, 'proof.pdf');
        const extra = await upload(server, hr, Buffer.from('hello'), 'note.txt');
        const res = await create(
          {
            form_id: 'bank-details',
            employee_external_id: 'EXT-ADA',
            creator_id: agent,
            origin: 'PHONE',
            attachment_upload_ids: [extra],
            form_data: [
              { field_id: 'iban', values: ['FR7630006000011234567890189'] },
              { field_id: 'amount', values: ['12.5'] },
              { field_id: 'urgent', values: ['true'] },
              { field_id: 'hobbies', values: ['a', 'c'] },
              { field_id: 'plan', values: ['basic'] },
              { field_id: 'start', values: ['2026-01-31'] },
              { field_id: 'proof', values: [{ upload_id: proof }] },
              {
                field_id: 'city',
                values: [
                  [
                    { id: 'EU', name: 'Europe', code: 'EU' },
                    { id: 'EU.paris', name: 'Paris', code: 'EU.paris' },
                  ],
                ],
              },
            ],
          },
          hr,
        );
        const req = await json<Req>(res, 201);
        assert.match(req.id, /^[0-9a-f-]{36}$/);
        assert.match(req.request_number, /^\d+$/);
        assert.equal(req.status, 'created');
        assert.equal(req.priority, '2');
        assert.equal(req.name, 'Bank details');
        assert.equal(req.employee_id, ada);
        assert.equal(req.creator_id, agent);
        assert.equal(req.origin, 'PHONE');
        assert.deepEqual(req.organization_ids, ['paris']);
        assert.deepEqual(req.category, { id: payroll, name: 'Payroll' });
        assert.equal(req.custom_status, null);
        assert.equal(req.closed_at, null);
        assert.equal(req.archived_at, null);
        const answer = (slug: string) => req.form_data.find((a) => a.field_id === slug)?.values;
        assert.deepEqual(answer('amount'), [12.5], 'numbers are stored as numbers');
        assert.deepEqual(answer('urgent'), [true]);
        assert.deepEqual(answer('hobbies'), ['a', 'c']);
        assert.equal(answer('proof'), undefined, 'file answers live in form_files');
        assert.deepEqual(
          req.form_files.map((f) => [f.field_id, f.filename]),
          [['proof', 'proof.pdf']],
        );
        assert.equal(req.attachment_count, 1);
        assert.deepEqual(
          req.attachments.map((a) => a.name),
          ['note.txt'],
        );
        const again = await get(req.id);
        assert.deepEqual(again, req);

        const file = await hr.call('GET', `/requests/${req.id}/files/${req.form_files[0]?.id}/download`);
        assert.equal(file.status, 200);
        assert.deepEqual(Buffer.from(await file.arrayBuffer()), PDF);
        const att = await hr.call('GET', `/requests/${req.id}/attachments/${req.attachments[0]?.id}/download`);
        assert.equal(await att.text(), 'hello');
        assert.match(att.headers.get('content-disposition') ?? '', /note\.txt/);
        const partial = await hr.call(
          'GET',
          `/requests/${req.id}/attachments/${req.attachments[0]?.id}/download`,
          undefined,
          {
            range: 'bytes=1-3',
          },
        );
        assert.equal(partial.status, 206);
        assert.equal(await partial.text(), 'ell');
        const head = await hr.call('HEAD', `/requests/${req.id}/files/${req.form_files[0]?.id}/download`);
        assert.equal(head.status, 200);
        assert.equal(head.headers.get('content-length'), String(PDF.length));
      });

      it('refuses each wrong answer with its path, and writes nothing (uploads stay usable)', async () => {
        const before = await rowCount('pa_requests');
        const spare = await upload(server, hr, Buffer.from('spare'), 'spare.txt');
        const errors = await fieldErrors(
          await create({
            form_id: 'bank-details',
            employee_id: ada,
            attachment_upload_ids: [spare],
            form_data: [
              { field_id: 'iban', values: ['fr12'] },
              { field_id: 'amount', values: ['many', 5000] },
              { field_id: 'ghost', values: ['x'] },
              { field_id: 'plan', values: ['gold'] },
              { field_id: 'contact', values: ['not-an-email'] },
              { field_id: 'start', values: ['2026-02-30'] },
              { field_id: 'hobbies', values: ['a', 'z'] },
              { field_id: 'intro', values: ['x'] },
              { field_id: 'size', values: ['s', 'm'] },
              { field_id: 'urgent', values: ['yes'] },
              { field_id: 'proof', values: [{ id: 'x' }] },
              { field_id: 'city', values: [[{ id: 'EU' }]] },
              { field_id: 'reason', values: [42] },
            ],
          }),
        );
        assert.deepEqual(errors, [
          ['form_data.0.values.0', 'too_short'],
          ['form_data.0.values.0', 'invalid_format'],
          ['form_data.1.values', 'too_many'],
          ['form_data.2.field_id', 'unknown_field'],
          ['form_data.3.values.0', 'invalid_choice'],
          ['form_data.4.values.0', 'invalid_email'],
          ['form_data.5.values.0', 'invalid_date'],
          ['form_data.6.values.1', 'invalid_choice'],
          ['form_data.7.field_id', 'not_answerable'],
          ['form_data.8.values', 'too_many'],
          ['form_data.9.values.0', 'invalid_type'],
          ['form_data.10.values.0', 'invalid_type'],
          ['form_data.11.values.0.0', 'invalid_type'],
          ['form_data.12.values.0', 'invalid_type'],
        ]);
        const bounds = await fieldErrors(
          await create({
            form_id: 'bank-details',
            employee_id: ada,
            form_data: [
              { field_id: 'iban', values: ['FR76300060000112'] },
              { field_id: 'amount', values: [5000] },
            ],
          }),
        );
        assert.deepEqual(bounds, [['form_data.1.values.0', 'too_large']]);
        const body = await json<ErrorBody>(
          await create({
            form_id: 'bank-details',
            employee_id: ada,
            form_data: [{ field_id: 'amount', values: [-1] }],
          }),
          422,
        );
        assert.deepEqual(
          body.errors?.map((e) => [e.field, e.code, e.message]),
          [
            ['form_data.0.values.0', 'too_small', 'Must be at least 0.'],
            ['form_data', 'required', 'Field "iban" needs an answer.'],
          ],
        );
        // The conditional field is required only while shown.
        assert.deepEqual(
          await fieldErrors(
            await create({
              form_id: 'bank-details',
              employee_id: ada,
              form_data: [
                { field_id: 'iban', values: ['FR76300060000112'] },
                { field_id: 'plan', values: ['premium'] },
              ],
            }),
          ),
          [['form_data', 'required']],
        );
        assert.equal(await rowCount('pa_requests'), before, 'no request was written');
        const ok = await json<Req>(
          await create({
            form_id: 'bank-details',
            employee_id: ada,
            attachment_upload_ids: [spare],
            form_data: [
              { field_id: 'iban', values: ['FR76300060000112'] },
              { field_id: 'plan', values: ['premium'] },
              { field_id: 'details', values: ['Gold tier'] },
            ],
          }),
          201,
        );
        assert.equal(ok.attachment_count, 1, 'the upload a refused request named was not consumed');
      });

      it('checks who the request is for and who created it', async () => {
        const form = [{ field_id: 'subject', values: ['Hi'] }];
        assert.deepEqual(await fieldErrors(await create({ form_id: 'question', form_data: form })), [
          ['employee_id', 'required'],
        ]);
        assert.deepEqual(await fieldErrors(await create({ form_id: 'nope', form_data: form })), [
          ['form_id', 'not_found'],
        ]);
        assert.deepEqual(
          await fieldErrors(
            await create({
              form_id: 'question',
              employee_id: 'nobody',
              creator_external_id: 'nobody',
              form_data: form,
            }),
          ),
          [
            ['employee_id', 'not_found'],
            ['creator_external_id', 'not_found'],
          ],
        );
        assert.deepEqual(
          await fieldErrors(
            await create({ form_id: 'question', employee_id: ada, organization_id: 'paris', form_data: form }),
          ),
          [['organization_id', 'not_linkeable']],
        );
        assert.deepEqual(
          await fieldErrors(await create({ form_id: 'org-notice', employee_id: ada, form_data: form })),
          [
            ['employee_id', 'not_linkeable'],
            ['organization_id', 'required'],
          ],
        );
        assert.deepEqual(
          await fieldErrors(await create({ form_id: 'question', employee_id: ada, draft_id: 'd1', form_data: form })),
          [['draft_id', 'not_found']],
        );
        const forOrg = await json<Req>(
          await create({ form_id: 'org-notice', organization_id: 'hq', form_data: form }),
          201,
        );
        assert.deepEqual(forOrg.organization_ids, ['hq']);
        assert.equal(forOrg.employee_id, null);
        const loose = await json<Req>(await create({ form_id: 'anything', form_data: form }), 201);
        assert.deepEqual(loose.organization_ids, []);
        const byHeader = await json<Req>(
          await create({ form_id: 'question', employee_id: bob, form_data: form }, hr, { 'x-atrium-user-id': agent2 }),
          201,
        );
        assert.equal(byHeader.creator_id, agent2, 'the acting user is the creator when none is named');
        const byEmployee = await json<Req>(
          await create({ form_id: 'question', employee_id: bob, creator_id: bob, form_data: form }),
          201,
        );
        assert.equal(byEmployee.creator_id, bob);
        assert.equal(
          (
            await create({ form_id: 'question', employee_id: bob, form_data: form }, hr, {
              'x-atrium-user-id': 'ghost',
            })
          ).status,
          400,
        );
      });

      it("takes the organizations of the employee's active registrations (all once terminated) and searches every number", async () => {
        const employeeWith = async (firstname: string, refs: [string, string, boolean][]) =>
          (
            await json<{ id: string }>(
              await hr.call('POST', '/employees', {
                firstname,
                lastname: 'Registered',
                email: `${firstname.toLowerCase()}@example.com`,
                registration_references: refs.map(([organization_id, employee_number, active]) => ({
                  organization_id,
                  employee_number,
                  active,
                })),
              }),
              201,
            )
          ).id;
        const moving = await employeeWith('Cyd', [
          ['hq', 'CYD-OLD', false],
          ['paris', 'CYD-NEW', true],
        ]);
        const gone = await employeeWith('Dee', [
          ['paris', 'DEE-1', false],
          ['hq', 'DEE-2', false],
        ]);
        const ask = async (employeeId: string) =>
          json<Req>(await simple('Where is my payslip?', { employee_id: employeeId }), 201);
        const active = await ask(moving);
        assert.deepEqual(active.organization_ids, ['paris']);
        const terminated = await ask(gone);
        assert.deepEqual(terminated.organization_ids, ['paris', 'hq']);
        assert.deepEqual(await get(active.id), active);
        for (const [q, id] of [
          ['cyd-old', active.id],
          ['CYD-NEW', active.id],
          ['dee-2', terminated.id],
        ] as const) {
          const found = await json<Req[]>(await hr.call('GET', `/requests?q=${q}`), 200);
          assert.deepEqual(
            found.map((r) => r.id),
            [id],
            q,
          );
        }
      });

      it('numbers requests per client, without duplicates under concurrent creates', async () => {
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => simple(`concurrent ${i}`)));
        const numbers = await Promise.all(results.map(async (r) => Number((await json<Req>(r, 201)).request_number)));
        assert.equal(new Set(numbers).size, 20, `numbers: ${numbers.join(',')}`);
        const sorted = [...numbers].sort((a, b) => a - b);
        assert.equal((sorted.at(-1) as number) - (sorted[0] as number), 19, 'the numbers are consecutive');
        const otherCategory = await category(other, 'Other');
        await simpleForm(other, 'question', otherCategory, { employee_organization_mandatory: false });
        const theirs = await json<Req>(
          await other.call('POST', '/requests', {
            form_id: 'question',
            form_data: [{ field_id: 'subject', values: ['x'] }],
          }),
          201,
        );
        assert.equal(theirs.request_number, '1', 'another client counts from 1');
      });
    });

    describe('lifecycle', () => {
      it('sends every empty field as null: due_date, closed_by_id, feedback, closed_at, archived_at, until filled', async () => {
        const EMPTY = ['due_date', 'closed_by_id', 'feedback', 'closed_at', 'archived_at', 'creator_id'] as const;
        const stored = async (id: string) =>
          server.app.database.db
            .selectFrom('pa_requests')
            .select(['due_date', 'closed_by_id', 'closed_at', 'archived_at', 'creator_id'])
            .where('id', '=', id)
            .executeTakeFirstOrThrow();
        const nulls = (body: Record<string, unknown>, names: readonly string[], where: string) => {
          for (const name of names) {
            assert.ok(Object.hasOwn(body, name), `${where}: \`${name}\` is sent`);
            assert.equal(body[name], null, `${where}: \`${name}\` is null`);
          }
        };
        const created = await json<Record<string, unknown>>(await simple('Empty fields'), 201);
        nulls(created, EMPTY, 'POST /requests');
        assert.equal(created.employee_id, ada);
        nulls((await get(created.id as string)) as unknown as Record<string, unknown>, EMPTY, 'GET /requests/{id}');
        const listed = (
          await json<Record<string, unknown>[]>(await hr.call('GET', '/requests?per_page=100'), 200)
        ).find((r) => r.id === created.id);
        assert.ok(listed, 'the request is listed');
        nulls(listed, EMPTY, 'GET /requests');
        assert.deepEqual(await stored(created.id as string), {
          due_date: null,
          closed_by_id: null,
          closed_at: null,
          archived_at: null,
          creator_id: null,
        });
        // An embed replaces the `_id` field: null when nobody.
        const embedded = (await get(created.id as string, '?embed=closed_by,creator')) as unknown as Record<
          string,
          unknown
        >;
        nulls(embedded, ['closed_by', 'creator'], 'GET /requests/{id}?embed=closed_by,creator');
        assert.ok(!Object.hasOwn(embedded, 'closed_by_id') && !Object.hasOwn(embedded, 'creator_id'));
        // A request for an organization only: no employee.
        const orgOnly = await json<Record<string, unknown>>(
          await create({
            form_id: 'org-notice',
            organization_id: 'hq',
            form_data: [{ field_id: 'subject', values: ['Org'] }],
          }),
          201,
        );
        nulls(orgOnly, ['employee_id'], 'POST /requests (organization only)');
        nulls(
          (await get(orgOnly.id as string, '?embed=employee')) as unknown as Record<string, unknown>,
          ['employee'],
          'GET ?embed=employee (organization only)',
        );

        // Filled: a due date, then closing (with a user), then archiving.
        const patch = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
          hr.call('PATCH', `/requests/${created.id}`, body, headers);
        const dated = await json<Record<string, unknown>>(await patch({ due_date: '2031-05-01' }), 200);
        assert.equal(dated.due_date, '2031-05-01');
        nulls(dated, ['closed_by_id', 'feedback', 'closed_at', 'archived_at'], 'PATCH due_date');
        const closed = await json<Record<string, unknown>>(
          await patch({ status: 'closed' }, { 'x-atrium-user-id': agent }),
          200,
        );
        assert.equal(closed.status, 'closed');
        assert.equal(closed.closed_by_id, agent);
        assert.match(String(closed.closed_at), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
        nulls(closed, ['feedback', 'archived_at'], 'PATCH status=closed');
        const closedRow = await stored(created.id as string);
        assert.equal(closedRow.closed_by_id, agent);
        assert.equal(Math.floor(Number(closedRow.closed_at) / 1000) * 1000, Date.parse(String(closed.closed_at)));
        assert.equal(closedRow.archived_at, null);
        const embeddedClosed = (await get(created.id as string, '?embed=closed_by')) as unknown as {
          closed_by: { id: string } | null;
        };
        assert.equal(embeddedClosed.closed_by?.id, agent);
        const archived = await json<Record<string, unknown>>(await patch({ status: 'archived' }), 200);
        assert.equal(archived.status, 'archived');
        assert.match(String(archived.archived_at), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
        assert.equal(archived.closed_at, closed.closed_at, 'archiving keeps the closing date');
        assert.equal(archived.closed_by_id, agent);
        assert.equal(archived.due_date, '2031-05-01');
        nulls(archived, ['feedback'], 'PATCH status=archived (no feedback path exists)');
        assert.equal(
          Math.floor(Number((await stored(created.id as string)).archived_at) / 1000) * 1000,
          Date.parse(String(archived.archived_at)),
        );

        // Closed without a user: the date is set, the user stays null.
        const anonymous = await json<Record<string, unknown>>(await simple('Closed by the application'), 201);
        const closedAnon = await json<Record<string, unknown>>(
          await hr.call('PATCH', `/requests/${anonymous.id}`, { status: 'closed' }),
          200,
        );
        assert.ok(closedAnon.closed_at !== null);
        nulls(closedAnon, ['closed_by_id'], 'closed without X-Atrium-User-Id');
      });

      it('moves forward, closes with who and when, reopens, archives for good', async () => {
        const req = await json<Req>(await simple('Lifecycle'), 201);
        const patch = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
          hr.call('PATCH', `/requests/${req.id}`, body, headers);
        assert.equal((await json<Req>(await patch({ status: 'opened' }), 200)).status, 'opened');
        assert.equal((await json<Req>(await patch({ status: 'pending' }), 200)).status, 'pending');
        assert.deepEqual(await fieldErrors(await patch({ status: 'created' })), [['status', 'invalid_transition']]);
        const closed = await json<Req>(await patch({ status: 'closed' }, { 'x-atrium-user-id': agent }), 200);
        assert.equal(closed.status, 'closed');
        assert.equal(closed.closed_by_id, agent);
        assert.ok(closed.closed_at !== null, 'closed_at is set');
        const embedded = await get(req.id, '?embed=closed_by,employee,creator');
        assert.equal(embedded.closed_by_id, undefined);
        assert.equal((embedded as unknown as { closed_by: { id: string } }).closed_by.id, agent);
        assert.equal(embedded.employee?.firstname, 'Ada');
        const reopened = await json<Req>(await patch({ status: 'opened' }), 200);
        assert.equal(reopened.status, 'opened');
        assert.equal(reopened.closed_at, null);
        assert.equal(reopened.closed_by_id, null);
        assert.deepEqual(await fieldErrors(await patch({ status: 'created' })), [['status', 'invalid_transition']]);
        const archived = await json<Req>(await patch({ status: 'archived' }), 200);
        assert.equal(archived.status, 'archived');
        assert.ok(archived.archived_at !== null && archived.closed_at !== null, 'archiving stamps both dates');
        assert.equal(archived.read_only, true);
        for (const status of ['opened', 'closed', 'created']) {
          const body = await json<ErrorBody>(await patch({ status }), 422);
          assert.equal(body.errors?.[0]?.code, 'invalid_transition');
          assert.match(body.errors?.[0]?.message ?? '', /archived/);
        }
        assert.equal((await json<ErrorBody>(await patch({ form_data: [] }), 403)).code, 'request_read_only');
        const comment = await hr.call('POST', `/requests/${req.id}/comments`, { content: 'late', creator_id: agent });
        assert.equal((await json<ErrorBody>(comment, 403)).code, 'request_read_only');
        assert.equal((await get(req.id)).status, 'archived');
      });

      it('PATCH merges answers field by field, adds form files, and honours the form’s editability', async () => {
        const proof = await upload(server, hr, PDF, 'first.pdf');
        const req = await json<Req>(
          await create({
            form_id: 'bank-details',
            employee_id: ada,
            form_data: [
              { field_id: 'iban', values: ['FR76300060000112'] },
              { field_id: 'reason', values: ['Moving'] },
              { field_id: 'proof', values: [{ upload_id: proof }] },
            ],
          }),
          201,
        );
        const patched = await json<Req>(
          await hr.call('PATCH', `/requests/${req.id}`, {
            form_data: [{ field_id: 'reason', values: ['Changed bank'] }],
            priority: '3',
          }),
          200,
        );
        assert.deepEqual(patched.form_data, [
          { field_id: 'iban', values: ['FR76300060000112'] },
          { field_id: 'reason', values: ['Changed bank'] },
        ]);
        assert.equal(patched.priority, '3');
        assert.ok(patched.updated_at >= req.updated_at, 'updated_at moves');
        const second = await upload(server, hr, PDF, 'second.pdf');
        assert.deepEqual(
          await fieldErrors(
            await hr.call('PATCH', `/requests/${req.id}`, {
              form_data: [{ field_id: 'proof', values: [{ upload_id: second }] }],
            }),
          ),
          [['form_data.0.values', 'too_many']],
        );
        assert.deepEqual(
          await fieldErrors(
            await hr.call('PATCH', `/requests/${req.id}`, { form_data: [{ field_id: 'iban', values: [] }] }),
          ),
          [['form_data', 'required']],
        );
        const oldFile = patched.form_files[0]?.id as string;
        assert.equal((await hr.call('DELETE', `/requests/${req.id}/files/${oldFile}`)).status, 204);
        assert.equal((await hr.call('GET', `/requests/${req.id}/files/${oldFile}/download`)).status, 404);
        const replaced = await json<Req>(
          await hr.call('PATCH', `/requests/${req.id}`, {
            form_data: [{ field_id: 'proof', values: [{ upload_id: second }] }],
          }),
          200,
        );
        assert.deepEqual(
          replaced.form_files.map((f) => f.filename),
          ['second.pdf'],
        );
        const locked = await json<Req>(
          await create({ form_id: 'locked', employee_id: ada, form_data: [{ field_id: 'subject', values: ['x'] }] }),
          201,
        );
        const refused = await hr.call('PATCH', `/requests/${locked.id}`, {
          form_data: [{ field_id: 'subject', values: ['y'] }],
        });
        assert.equal((await json<ErrorBody>(refused, 403)).code, 'request_not_editable');
        assert.equal(
          (await json<Req>(await hr.call('PATCH', `/requests/${locked.id}`, { status: 'opened' }), 200)).status,
          'opened',
        );
      });
    });

    describe('comments, attachments, assignees, links, macros', () => {
      it('adds public and internal comments, keeps counters exact, lists newest first', async () => {
        const req = await json<Req>(await simple('Comments'), 201);
        const file = await upload(server, hr, Buffer.from('scan bytes'), 'scan.txt');
        const post = (body: Record<string, unknown>) => hr.call('POST', `/requests/${req.id}/comments`, body);
        const first = await json<Comment>(
          await post({ content: 'Hello Ada', creator_id: agent, attachment_upload_ids: [file] }),
          200,
        );
        assert.equal(first.is_internal, false);
        assert.equal(first.comment_source, 'user');
        assert.deepEqual(
          first.attachments.map((a) => a.name),
          ['scan.txt'],
        );
        await json<Comment>(
          await post({ content: 'Note to self', creator_external_id: 'AG-1', is_internal: true }),
          200,
        );
        await json<Comment>(await post({ content: 'Thanks', creator_id: ada }), 200);
        assert.deepEqual(await fieldErrors(await post({ content: 'x', creator_id: ada, is_internal: true })), [
          ['is_internal', 'invalid_value'],
        ]);
        assert.deepEqual(await fieldErrors(await post({ content: 'x', creator_id: bob })), [
          ['creator_id', 'forbidden'],
        ]);
        assert.deepEqual(await fieldErrors(await post({ content: 'x' })), [['creator_id', 'required']]);
        assert.deepEqual(await fieldErrors(await post({ content: ' ', creator_id: agent })), [['content', 'required']]);

        const comments = await json<Comment[]>(await hr.call('GET', `/requests/${req.id}/comments`), 200);
        assert.deepEqual(
          comments.map((c) => c.content),
          ['Thanks', 'Note to self', 'Hello Ada'],
        );
        const embedded = await json<Comment[]>(await hr.call('GET', `/requests/${req.id}/comments?embed=creator`), 200);
        assert.equal(embedded[2]?.creator?.firstname, 'Agent');
        assert.equal(embedded[0]?.creator?.firstname, 'Ada');
        const after = await get(req.id);
        assert.equal(after.public_comment_count, 2);
        assert.equal(after.internal_comment_count, 1);
        assert.equal(after.total_comment_count, 3);
        assert.equal(after.attachment_count, 1, 'a comment attachment is a request attachment');
        const attachment = first.attachments[0]?.id as string;
        const download = await hr.call('GET', `/requests/${req.id}/comments/${first.id}/attachments/${attachment}`);
        assert.equal(await download.text(), 'scan bytes');
        assert.equal(
          (await hr.call('GET', `/requests/${req.id}/comments/${comments[0]?.id}/attachments/${attachment}`)).status,
          404,
        );
        assert.equal((await hr.call('DELETE', `/requests/${req.id}/attachments/${attachment}`)).status, 204);
        assert.equal((await get(req.id)).attachment_count, 0);
        assert.equal((await hr.call('DELETE', `/requests/${req.id}/attachments/${attachment}`)).status, 404);
      });

      it('custom statuses and macros: offered by form, status and role; run all or nothing', async () => {
        assert.equal((await hr.call('PUT', '/custom_status/to-send', { name: 'To send' })).status, 201);
        assert.equal((await hr.call('PUT', '/custom_status/sent', { name: 'Sent', is_active: true })).status, 201);
        assert.equal(
          (await hr.call('PUT', '/custom_status/retired', { name: 'Retired', is_active: false })).status,
          201,
        );
        assert.equal((await hr.call('PUT', '/roles/agent', { id: 'agent', name: 'Agent' })).status, 201);
        const macro = await json<Record<string, unknown>>(
          await hr.call('PUT', '/macros/prepare', {
            name: 'Prepare',
            label: 'Prepare the letter',
            forms: ['question'],
            actions: [
              { template: 'RequestChangeState', data: { status: 'pending' } },
              { template: 'RequestChangeCustomState', data: { custom_status: 'to-send' } },
              { template: 'RequestAddAssignee', data: { user_id: agent } },
              { template: 'RequestAddComment', data: { content: 'Preparing', is_internal: true } },
            ],
          }),
          201,
        );
        assert.equal((macro.actions as unknown[]).length, 4);
        await json(
          await hr.call('PUT', '/macros/send', {
            name: 'Send',
            label: 'Send',
            forms: [],
            custom_status: ['to-send'],
            actions: [
              { template: 'RequestChangeCustomState', data: { custom_status: 'sent' } },
              { template: 'RequestChangeState', data: { status: 'closed' } },
              { template: 'RequestAssignOnlyTo', data: { manager_id: agent2 } },
            ],
          }),
          201,
        );
        await json(
          await hr.call('PUT', '/macros/agents-only', {
            name: 'Agents only',
            label: 'Agents',
            forms: [],
            roles: ['agent'],
            actions: [{ template: 'RequestChangePriority', data: { priority: '3' } }],
          }),
          201,
        );
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
        assert.deepEqual(
          await fieldErrors(
            await hr.call('PUT', '/macros/broken', {
              name: 'b',
              label: 'b',
              forms: ['ghost-form'],
              roles: ['ghost-role'],
              custom_status: ['ghost'],
              actions: [
                { template: 'RequestChangeState', data: { status: 'done' } },
                { template: 'RequestAssignOnlyTo', data: { manager_id: 'ghost-user' } },
              ],
            }),
          ),
          [
            ['actions.0.data.status', 'invalid_value'],
            ['forms.0', 'not_found'],
            ['roles.0', 'not_found'],
            ['custom_status.0', 'not_found'],
            ['actions.1.data.manager_id', 'not_found'],
          ],
        );

        const req = await json<Req>(await simple('Macro target'), 201);
        const offered = async (headers: Record<string, string> = {}) =>
          (await json<{ id: string }[]>(await hr.call('GET', `/requests/${req.id}/macros`, undefined, headers), 200))
            .map((m) => m.id)
            .sort();
        assert.deepEqual(await offered(), ['agents-only', 'prepare', 'retire']);
        assert.deepEqual(await offered({ 'x-atrium-user-id': agent }), ['prepare', 'retire'], 'the agent has no role');
        const run = (id: string, headers: Record<string, string> = {}) =>
          hr.call('POST', `/requests/${req.id}/macros`, { macro_id: id }, headers);
        assert.equal((await json<ErrorBody>(await run('send'), 403)).code, 'macro_not_available');
        assert.equal((await run('ghost')).status, 404);

        // A failing action undoes the earlier ones.
        assert.equal((await json<ErrorBody>(await run('retire'), 422)).code, 'validation_error');
        assert.equal((await get(req.id)).priority, '2', 'the first action was rolled back');

        const ran = await run('prepare');
        assert.equal(ran.status, 200);
        assert.equal(await ran.text(), '');
        const prepared = await get(req.id);
        assert.equal(prepared.status, 'pending');
        assert.deepEqual(prepared.custom_status, { id: 'to-send', name: 'To send' });
        assert.equal(prepared.internal_comment_count, 1);
        const [note] = await json<Comment[]>(await hr.call('GET', `/requests/${req.id}/comments`), 200);
        assert.equal(note?.comment_source, 'macro');
        assert.equal(note?.is_informative, true);
        assert.ok(note && Object.hasOwn(note, 'creator_id'), 'a comment nobody wrote still sends creator_id');
        assert.equal(note?.creator_id, null);
        assert.deepEqual(await offered(), ['agents-only', 'prepare', 'retire', 'send']);

        assert.equal((await run('send', { 'x-atrium-user-id': agent })).status, 200);
        const sent = await get(req.id);
        assert.equal(sent.status, 'closed');
        assert.equal(sent.closed_by_id, agent);
        assert.deepEqual(sent.custom_status, { id: 'sent', name: 'Sent' });
        const assignees = await json<{ id: string }[]>(await hr.call('GET', `/requests/${req.id}/assignees`), 200);
        assert.deepEqual(
          assignees.map((a) => a.id),
          [agent2],
          'assign only to replaced the assignees',
        );
        const listed = await json<Req[]>(
          await hr.call('GET', `/requests?assignee_id=${agent2}&custom_status_id=sent,to-send`),
          200,
        );
        assert.deepEqual(
          listed.map((r) => r.id),
          [req.id],
        );
        // Preparing again would move a closed request back to pending: refused, nothing changes.
        const back = await json<ErrorBody>(await run('prepare'), 422);
        assert.equal(back.errors?.[0]?.code, 'invalid_transition');
        assert.deepEqual((await get(req.id)).custom_status, { id: 'sent', name: 'Sent' });

        const head = await hr.call('HEAD', '/macros');
        assert.equal(head.headers.get('x-total-count'), '4');
        const page2 = await json<{ id: string }[]>(await hr.call('GET', '/macros?sort=+name&per_page=2&page=2'), 200);
        assert.deepEqual(
          page2.map((m) => m.id),
          ['retire', 'send'],
        );
        const detail = await json<Record<string, unknown>>(await hr.call('GET', '/macros/send?embed=actions'), 200);
        assert.equal((detail.actions as { label: string }[])[0]?.label, 'Set custom status');
        assert.equal(
          (await json<Record<string, unknown>>(await hr.call('GET', '/macros/send'), 200)).actions,
          undefined,
        );
        const found = await json<{ id: string }[]>(await hr.call('GET', '/custom_status?q=send&sort=-name'), 200);
        assert.deepEqual(
          found.map((s) => s.id),
          ['to-send'],
        );
        assert.equal((await hr.call('GET', '/custom_status?q=se')).status, 400, 'q needs 3 characters');
        assert.equal((await hr.call('HEAD', '/custom_status')).headers.get('x-total-count'), '3');
        const renamed = await json<{ name: string; is_active: boolean }>(
          await hr.call('PUT', '/custom_status/sent', { name: 'Posted', is_active: false }),
          200,
        );
        assert.deepEqual(renamed, { ...renamed, name: 'Posted', is_active: false });
        assert.deepEqual((await get(req.id)).custom_status, { id: 'sent', name: 'Posted' });
      });

      it('pages assignees with offset and length', async () => {
        const req = await json<Req>(await simple('Many assignees'), 201);
        const users = [agent, agent2, await hrUser(hr, 'Third'), await hrUser(hr, 'Fourth')];
        for (const [i, user] of users.entries()) {
          await json(
            await hr.call('PUT', `/macros/assign-${i}`, {
              name: `Assign ${i}`,
              label: 'a',
              forms: ['question'],
              actions: [{ template: 'RequestAddAssignee', data: { user_id: user } }],
            }),
            201,
          );
          assert.equal((await hr.call('POST', `/requests/${req.id}/macros`, { macro_id: `assign-${i}` })).status, 200);
        }
        const res = await hr.call('GET', `/requests/${req.id}/assignees?offset=1&length=2`);
        const slice = await json<{ id: string; firstname: string }[]>(res, 200);
        assert.deepEqual(
          slice.map((u) => u.id),
          users.slice(1, 3),
        );
        assert.equal(res.headers.get('x-total-count'), '4');
        assert.match(res.headers.get('link') ?? '', /offset=3&length=2>; rel="next"/);
        assert.match(res.headers.get('link') ?? '', /offset=0&length=2>; rel="previous"/);
        const all = await json<unknown[]>(await hr.call('GET', `/requests/${req.id}/assignees`), 200);
        assert.equal(all.length, 4);
        assert.equal((await hr.call('GET', `/requests/${req.id}/assignees?length=0`)).status, 400);
      });

      it('links requests both ways, newest first, paged; refuses self and unknown links', async () => {
        const a = await json<Req>(await simple('A'), 201);
        const b = await json<Req>(await simple('B'), 201);
        const c = await json<Req>(await simple('C'), 201);
        assert.equal((await hr.call('POST', `/requests/${a.id}/linked_requests`, { uuid: [b.id, c.id] })).status, 204);
        assert.equal((await hr.call('POST', `/requests/${a.id}/linked_requests`, { uuid: [b.id] })).status, 204);
        const linked = async (id: string, query = '') =>
          (await json<Req[]>(await hr.call('GET', `/requests/${id}/linked_requests${query}`), 200)).map((r) => r.id);
        assert.deepEqual(await linked(a.id), [c.id, b.id]);
        assert.deepEqual(await linked(b.id), [a.id]);
        const page = await hr.call('GET', `/requests/${a.id}/linked_requests?per_page=1`);
        assert.equal((await json<Req[]>(page, 200))[0]?.id, c.id);
        const next = page.headers.get('next-cursor');
        assert.ok(next, 'a second page exists');
        assert.deepEqual(await linked(a.id, `?per_page=1&cursor=${next}`), [b.id]);
        assert.deepEqual(
          await fieldErrors(await hr.call('POST', `/requests/${a.id}/linked_requests`, { uuid: [a.id, 'ghost'] })),
          [
            ['uuid.0', 'invalid_value'],
            ['uuid.1', 'not_found'],
          ],
        );
        // Deleting a request removes its links, comments and files.
        const file = await upload(server, hr, Buffer.from('to be deleted'), 'gone.txt');
        await json(
          await hr.call('POST', `/requests/${c.id}/comments`, {
            content: 'bye',
            creator_id: agent,
            attachment_upload_ids: [file],
          }),
          200,
        );
        const blobsBefore = (await server.app.database.db.selectFrom('blobs').select('sha256').execute()).length;
        assert.equal((await hr.call('DELETE', `/requests/${c.id}`)).status, 204);
        assert.equal((await hr.call('GET', `/requests/${c.id}`)).status, 404);
        assert.equal((await hr.call('DELETE', `/requests/${c.id}`)).status, 404);
        assert.deepEqual(await linked(a.id), [b.id]);
        const leftovers = await server.app.database.db
          .selectFrom('pa_request_comments')
          .select('id')
          .where('request_id', '=', c.id)
          .execute();
        assert.equal(leftovers.length, 0);
        const blobsAfter = (await server.app.database.db.selectFrom('blobs').select('sha256').execute()).length;
        assert.equal(blobsAfter, blobsBefore - 1, 'the attachment’s blob was removed');
      });

      it('refuses to delete a category while forms or open requests use it', async () => {
        const res = await hr.call('DELETE', `/kb_categories/${payroll}`);
        const body = await json<ErrorBody>(res, 400);
        const codes = (body.errors ?? []).map((e) => e.code);
        assert.ok(codes.includes('category_has_linked_forms'), codes.join());
        assert.ok(codes.includes('category_has_linked_requests'), codes.join());
      });
    });

    it('keeps every People Assist object of a client from the others', async () => {
      const req = await json<Req>(await simple('Private'), 201);
      for (const path of [
        `/requests/${req.id}`,
        `/requests/${req.id}/comments`,
        `/requests/${req.id}/assignees`,
        `/requests/${req.id}/linked_requests`,
        `/requests/${req.id}/macros`,
        '/request_forms/bank-details',
        '/macros/prepare',
        '/custom_status/to-send',
      ]) {
        assert.equal((await other.call('GET', path)).status, 404, path);
      }
      assert.equal((await other.call('PATCH', `/requests/${req.id}`, { status: 'opened' })).status, 404);
      assert.equal((await other.call('DELETE', `/requests/${req.id}`)).status, 404);
      assert.equal(
        (await other.call('POST', `/requests/${req.id}/comments`, { content: 'x', creator_id: agent })).status,
        404,
      );
      assert.equal((await other.call('POST', `/requests/${req.id}/macros`, { macro_id: 'prepare' })).status, 404);
      assert.deepEqual(
        await fieldErrors(await other.call('POST', '/requests', { form_id: 'bank-details', form_data: [] })),
        [['form_id', 'not_found']],
      );
      const theirs = await json<Req[]>(await other.call('GET', '/requests?per_page=100'), 200);
      assert.ok(!theirs.some((r) => r.id === req.id), 'not listed for another client');
      assert.equal(
        (await other.call('POST', `/requests/${theirs[0]?.id}/linked_requests`, { uuid: [req.id] })).status,
        422,
      );
      assert.equal((await get(req.id)).status, 'created');
    });
  });
}
