import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { code, FORM, fields, json, PDF, upload } from '../support/processes.js';

interface Template {
  id: string;
  title: string;
  public_title: string | null;
  description: string | null;
  automatic_archiving: boolean;
  restrictions: { organizations: { id: string; operator: string }[] }[];
  created_by: { origin: string; id: string };
  created_at: string;
  updated_at: string;
}

interface TaskTemplate {
  id: string;
  process_template_id: string;
  type: string;
  name: string;
  description: string;
  assigned_to: string;
  depends_on_id: string | null;
  fetch_previous_data: boolean;
  role_id: string | null;
  email_notifications: unknown[];
  message?: string;
  process_form_id?: string;
  formidable?: { fields: { slug: string; id: number }[] };
  pdf_template_id?: string;
  signature_zone_id?: string;
  uploaded_document?: string;
}

for (const dialect of dialects()) {
  describe(`Process templates and task templates (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;

    const basic = (name: string, extra: Record<string, unknown> = {}) => ({
      type: 'basic',
      name,
      assigned_to: 'employee',
      message: `<p>${name}</p>`,
      ...extra,
    });
    const putTask = (caller: HrCaller, pt: string, id: string, body: unknown) =>
      caller.call('PUT', `/process_templates/${pt}/task_templates/${id}`, body);

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      other = await hrCaller(server);
      await json(await hr.call('PUT', '/organizations/paris', { name: 'Paris' }), 201);
      await json(await hr.call('PUT', '/roles/hr_admin', { id: 'hr_admin', name: 'HR admin' }), 201);
    });
    after(() => server.close());

    it('PUT creates (201) then replaces (200); GET returns it; created_by is the application', async () => {
      const created = await json<Template>(
        await hr.call('PUT', '/process_templates/onboarding', {
          title: 'Onboarding',
          public_title: 'Welcome aboard',
          description: 'New hires',
          restrictions: [{ organizations: [{ id: 'paris', operator: '<=' }] }],
        }),
        201,
      );
      assert.equal(created.id, 'onboarding');
      assert.equal(created.public_title, 'Welcome aboard');
      assert.equal(created.automatic_archiving, false);
      assert.deepEqual(created.restrictions, [{ organizations: [{ id: 'paris', operator: '<=' }] }]);
      assert.equal(created.created_by.origin, 'application');
      assert.equal(created.created_by.id, hr.creds.application_id);
      const updated = await json<Template>(
        await hr.call('PUT', '/process_templates/onboarding', {
          ...created,
          title: 'Onboarding 2',
          automatic_archiving: true,
        }),
        200,
      );
      assert.equal(updated.title, 'Onboarding 2');
      assert.equal(updated.automatic_archiving, true);
      assert.equal(updated.created_at, created.created_at);
      const got = await json<Template>(await hr.call('GET', '/process_templates/onboarding'), 200);
      assert.deepEqual(got, updated);
    });

    it('PUT refuses a bad id, a body id that differs, unknown organizations and missing titles', async () => {
      assert.deepEqual(await fields(await hr.call('PUT', '/process_templates/Bad.Id', { title: 'x' })), [
        ['id', 'invalid_format'],
      ]);
      assert.deepEqual(await fields(await hr.call('PUT', '/process_templates/ok', { id: 'other', title: 'x' })), [
        ['id', 'mismatch'],
      ]);
      assert.deepEqual(
        await fields(
          await hr.call('PUT', '/process_templates/ok', {
            title: 'x',
            restrictions: [
              {
                organizations: [
                  { id: 'paris', operator: '=' },
                  { id: 'nowhere', operator: '=' },
                ],
              },
            ],
          }),
        ),
        [['restrictions.0.organizations.1.id', 'not_found']],
      );
      const missing = await fields(await hr.call('PUT', '/process_templates/ok', {}));
      assert.ok(
        missing.some(([f]) => f === 'title'),
        JSON.stringify(missing),
      );
      assert.equal(await code(await hr.call('GET', '/process_templates/ok'), 404), 'not_found');
      assert.equal(await code(await hr.call('GET', '/process_templates/Bad.Id'), 404), 'not_found');
    });

    it('lists with a title filter (contains, any case), pages with per_page, and counts with HEAD', async () => {
      for (const [id, title] of [
        ['offboarding', 'Offboarding'],
        ['mobility', 'Internal MOBILITY'],
        ['board-review', 'Board review'],
      ]) {
        await json(await hr.call('PUT', `/process_templates/${id}`, { title }), 201);
      }
      const boarding = await json<Template[]>(await hr.call('GET', '/process_templates?title=BOARD'), 200);
      assert.deepEqual(
        boarding.map((t) => t.id),
        ['onboarding', 'offboarding', 'board-review'],
      );
      const head = await hr.call('HEAD', '/process_templates?title=board');
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('x-total-count'), '3');
      const all = await hr.call('HEAD', '/process_templates');
      assert.equal(all.headers.get('x-total-count'), '4');
      const first = await hr.call('GET', '/process_templates?per_page=3');
      const page1 = await json<Template[]>(first, 200);
      assert.equal(page1.length, 3);
      const next = first.headers.get('next-cursor');
      assert.ok(next, 'a next cursor');
      assert.match(first.headers.get('link') ?? '', /rel="next"/);
      const page2 = await json<Template[]>(await hr.call('GET', `/process_templates?per_page=3&cursor=${next}`), 200);
      assert.deepEqual(
        page2.map((t) => t.id),
        ['board-review'],
      );
      // Another client sees none of them.
      assert.deepEqual(await json(await other.call('GET', '/process_templates'), 200), []);
      assert.equal((await other.call('HEAD', '/process_templates')).headers.get('x-total-count'), '0');
      assert.equal(await code(await other.call('GET', '/process_templates/onboarding'), 404), 'not_found');
    });

    it('task templates of every type: create, read, list, update', async () => {
      await json(await hr.call('PUT', '/process_templates/types', { title: 'Types' }), 201);
      const b = await json<TaskTemplate>(await putTask(hr, 'types', 'welcome', basic('Welcome')), 201);
      assert.equal(b.message, '<p>Welcome</p>');
      assert.equal(b.process_template_id, 'types');
      assert.equal(b.depends_on_id, null);
      const doc = await upload(server, hr, PDF(), 'charter.pdf');
      const ack = await json<TaskTemplate>(
        await putTask(hr, 'types', 'charter', {
          type: 'acknowledgment',
          name: 'Read the charter',
          assigned_to: 'employee',
          upload_id: doc,
          depends_on_id: 'welcome',
        }),
        201,
      );
      assert.equal(ack.uploaded_document, 'charter.pdf');
      assert.equal(ack.depends_on_id, 'welcome');
      const form = await json<TaskTemplate>(
        await putTask(hr, 'types', 'details', {
          type: 'fill_form',
          name: 'Your details',
          assigned_to: 'employee',
          formidable: FORM,
          fetch_previous_data: true,
          email_notifications: [{ subject: 'Done', body: 'Filled', role_ids: ['hr_admin'] }],
        }),
        201,
      );
      assert.equal(form.process_form_id, 'details');
      assert.deepEqual(
        form.formidable?.fields.map((f) => [f.slug, f.id]),
        FORM.fields.map((f, i) => [f.slug, i + 1]),
      );
      assert.equal(form.fetch_previous_data, true);
      assert.equal(form.email_notifications.length, 1);
      const pdf = await json<TaskTemplate>(
        await putTask(hr, 'types', 'contract', {
          type: 'fill_pdf',
          name: 'Contract',
          assigned_to: 'users',
          pdf_template_id: 'contract-pdf',
          role_id: 'hr_admin',
        }),
        201,
      );
      assert.equal(pdf.pdf_template_id, 'contract-pdf');
      assert.equal(pdf.role_id, 'hr_admin');
      const sig = await json<TaskTemplate>(
        await putTask(hr, 'types', 'sign', {
          type: 'signature',
          name: 'Sign',
          assigned_to: 'employee',
          pdf_template_id: 'contract-pdf',
          signature_zone_id: 'zone-1',
          depends_on_id: 'contract',
        }),
        201,
      );
      assert.equal(sig.signature_zone_id, 'zone-1');
      const val = await json<TaskTemplate>(
        await putTask(hr, 'types', 'review', {
          type: 'validation',
          name: 'Review',
          assigned_to: 'users',
          depends_on_id: 'details',
        }),
        201,
      );
      assert.equal(val.type, 'validation');
      const list = await json<TaskTemplate[]>(await hr.call('GET', '/process_templates/types/task_templates'), 200);
      assert.deepEqual(
        list.map((t) => t.id),
        ['welcome', 'charter', 'details', 'contract', 'sign', 'review'],
      );
      const updated = await json<TaskTemplate>(
        await putTask(hr, 'types', 'welcome', basic('Welcome!', { assigned_to: 'users' })),
        200,
      );
      assert.equal(updated.name, 'Welcome!');
      assert.equal(updated.assigned_to, 'users');
      assert.deepEqual(
        await json(await hr.call('GET', '/process_templates/types/task_templates/welcome'), 200),
        updated,
      );
      // The acknowledgment keeps its document when updated without upload_id.
      const kept = await json<TaskTemplate>(
        await putTask(hr, 'types', 'charter', { type: 'acknowledgment', name: 'Read it', assigned_to: 'employee' }),
        200,
      );
      assert.equal(kept.uploaded_document, 'charter.pdf');
    });

    it('task template rules: id, immutable type, dependency, cycle, roles, type fields', async () => {
      await json(await hr.call('PUT', '/process_templates/rules', { title: 'Rules' }), 201);
      await json(await putTask(hr, 'rules', 'a', basic('A')), 201);
      await json(await putTask(hr, 'rules', 'b', basic('B', { depends_on_id: 'a' })), 201);
      await json(await putTask(hr, 'rules', 'c', basic('C', { depends_on_id: 'b' })), 201);
      assert.deepEqual(await fields(await putTask(hr, 'rules', 'Bad_ID', basic('x'))), [['id', 'invalid_format']]);
      assert.deepEqual(
        await fields(
          await putTask(hr, 'rules', 'a', { ...basic('A'), type: 'fill_form', message: undefined, formidable: FORM }),
        ),
        [['type', 'immutable']],
      );
      assert.deepEqual(await fields(await putTask(hr, 'rules', 'd', basic('D', { depends_on_id: 'nope' }))), [
        ['depends_on_id', 'not_found'],
      ]);
      assert.deepEqual(await fields(await putTask(hr, 'rules', 'd', basic('D', { depends_on_id: 'd' }))), [
        ['depends_on_id', 'self_dependency'],
      ]);
      assert.deepEqual(await fields(await putTask(hr, 'rules', 'a', basic('A', { depends_on_id: 'c' }))), [
        ['depends_on_id', 'cycle'],
      ]);
      assert.deepEqual(
        await fields(
          await putTask(hr, 'rules', 'v', {
            type: 'validation',
            name: 'V',
            assigned_to: 'employee',
            depends_on_id: 'a',
          }),
        ),
        [['assigned_to', 'invalid_value']],
      );
      assert.deepEqual(
        await fields(await putTask(hr, 'rules', 'v', { type: 'validation', name: 'V', assigned_to: 'users' })),
        [['depends_on_id', 'required']],
      );
      assert.deepEqual(
        await fields(
          await putTask(hr, 'rules', 'r', {
            ...basic('R'),
            role_id: 'ghost',
            email_notifications: [{ subject: 's', body: 'b', role_ids: ['hr_admin', 'ghost'] }],
          }),
        ),
        [
          ['role_id', 'not_found'],
          ['email_notifications.0.role_ids.1', 'not_found'],
        ],
      );
      const two = await fields(
        await putTask(hr, 'rules', 'r', {
          ...basic('R'),
          email_notifications: [
            { subject: 's', body: 'b', role_ids: [] },
            { subject: 't', body: 'c', role_ids: [] },
          ],
        }),
      );
      assert.ok(
        two.some(([f]) => f === 'email_notifications'),
        `at most one notification: ${JSON.stringify(two)}`,
      );
      assert.deepEqual(
        await fields(await putTask(hr, 'rules', 'f', { type: 'fill_form', name: 'F', assigned_to: 'employee' })),
        [['formidable', 'required']],
      );
      assert.deepEqual(
        await fields(
          await putTask(hr, 'rules', 'f', {
            type: 'fill_form',
            name: 'F',
            assigned_to: 'employee',
            formidable: { fields: [{ slug: 'x', label: 'X', type_id: 'radios', description: '', accesses: [] }] },
          }),
        ),
        [['formidable.fields.0.items', 'too_few']],
      );
      assert.deepEqual(
        await fields(await putTask(hr, 'rules', 's', { type: 'signature', name: 'S', assigned_to: 'employee' })),
        [
          ['pdf_template_id', 'required'],
          ['signature_zone_id', 'required'],
        ],
      );
      assert.deepEqual(
        await fields(await putTask(hr, 'rules', 'k', { type: 'acknowledgment', name: 'K', assigned_to: 'employee' })),
        [['upload_id', 'required']],
      );
      assert.deepEqual(
        await fields(
          await putTask(hr, 'rules', 'k', {
            type: 'acknowledgment',
            name: 'K',
            assigned_to: 'employee',
            upload_id: '00000000-0000-4000-8000-000000000000',
          }),
        ),
        [['upload_id', 'not_found']],
      );
      assert.deepEqual(await fields(await putTask(hr, 'rules', 'm', { ...basic('M'), pdf_template_id: 'p' })), [
        ['pdf_template_id', 'not_allowed'],
      ]);
      // Nothing of the refused writes was kept.
      const ids = (
        await json<TaskTemplate[]>(await hr.call('GET', '/process_templates/rules/task_templates'), 200)
      ).map((t) => t.id);
      assert.deepEqual(ids, ['a', 'b', 'c']);
      assert.equal(
        (await json<TaskTemplate>(await hr.call('GET', '/process_templates/rules/task_templates/a'), 200))
          .depends_on_id,
        null,
      );
      // Unknown process template: 404.
      assert.equal(await code(await putTask(hr, 'nothing', 'a', basic('A')), 404), 'not_found');
      assert.equal(await code(await hr.call('GET', '/process_templates/nothing/task_templates'), 404), 'not_found');
    });

    it('DELETE a task template: 204, refused while another depends on it; the document blob goes', async () => {
      await json(await hr.call('PUT', '/process_templates/del', { title: 'Del' }), 201);
      const data = PDF();
      const doc = await upload(server, hr, data, 'doc.pdf');
      await json(
        await putTask(hr, 'del', 'ack', {
          type: 'acknowledgment',
          name: 'Ack',
          assigned_to: 'employee',
          upload_id: doc,
        }),
        201,
      );
      await json(await putTask(hr, 'del', 'after', basic('After', { depends_on_id: 'ack' })), 201);
      assert.equal(
        await code(await hr.call('DELETE', '/process_templates/del/task_templates/ack'), 422),
        'task_template_has_dependants',
      );
      assert.equal((await hr.call('DELETE', '/process_templates/del/task_templates/after')).status, 204);
      const before = await server.app.database.db.selectFrom('blobs').select('sha256').execute();
      assert.equal((await hr.call('DELETE', '/process_templates/del/task_templates/ack')).status, 204);
      const afterDelete = await server.app.database.db.selectFrom('blobs').select('sha256').execute();
      assert.equal(afterDelete.length, before.length - 1, 'the document blob was released');
      assert.equal(await code(await hr.call('GET', '/process_templates/del/task_templates/ack'), 404), 'not_found');
      assert.equal(await code(await hr.call('DELETE', '/process_templates/del/task_templates/ack'), 404), 'not_found');
    });

    it('another client cannot see or change task templates', async () => {
      assert.equal(await code(await other.call('GET', '/process_templates/types/task_templates'), 404), 'not_found');
      assert.equal(
        await code(await other.call('GET', '/process_templates/types/task_templates/welcome'), 404),
        'not_found',
      );
      assert.equal(await code(await putTask(other, 'types', 'welcome', basic('x')), 404), 'not_found');
      assert.equal(
        await code(await other.call('DELETE', '/process_templates/types/task_templates/welcome'), 404),
        'not_found',
      );
    });
  });
}
