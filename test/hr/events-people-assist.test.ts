/**
 * The audit events of People Assist (custom statuses, macros, request forms, requests and their comments) and of
 * process automation (process templates and their task templates, processes, tasks and their files): each write
 * records exactly one event, with the resource as its GET answers right after the write (as it was before, for a
 * deletion); a rejected write records none; the types show in `GET /events/filters/actions`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { category, employee, hrUser, json, simpleForm, upload } from '../support/people-assist.js';
import { FORM, PDF, type People, people } from '../support/processes.js';

interface AuditEvent {
  id: string;
  type: string;
  name: string | null;
  actor: { type: string; name: string | null; data: Record<string, unknown> };
  data: unknown;
}

type Body = Record<string, unknown>;

for (const dialect of dialects()) {
  describe(`audit events of People Assist and process automation (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;

    /** The client's events, counted in the table itself. */
    const count = async () =>
      (
        await server.app.database.db
          .selectFrom('hr_events')
          .select('id')
          .where('client_id', '=', hr.creds.client_id)
          .execute()
      ).length;

    /** Performs one write: asserts its status and that it recorded exactly one event; answers its body. */
    const write = async <T = Body>(status: number, call: () => Promise<Response>): Promise<T> => {
      const before = await count();
      const res = await call();
      const text = await res.text();
      assert.equal(res.status, status, text);
      assert.equal(await count(), before + 1, `one event for ${res.url}`);
      return (text ? JSON.parse(text) : undefined) as T;
    };

    /** A write that is refused with `status` and leaves the events as they were. */
    const rejected = async (status: number, call: () => Promise<Response>): Promise<void> => {
      const before = await count();
      const res = await call();
      const text = await res.text();
      assert.equal(res.status, status, text);
      assert.equal(await count(), before, `no event for a refused ${res.url}`);
    };

    const get = async <T = Body>(path: string): Promise<T> => json<T>(await hr.call('GET', path), 200);

    /** The newest event of `type` about `id`: its type, name, actor and data (the resource as `current`). */
    const recorded = async (type: string, id: string, name: string | null, current: unknown): Promise<AuditEvent> => {
      const [resource, action] = type.split('.') as [string, string];
      const query = new URLSearchParams({ per_page: '100', resource_type: resource, action, resource_id: id });
      const [event] = await get<AuditEvent[]>(`/events?${query}`);
      assert.ok(event, `no ${type} event for ${id}`);
      assert.equal(event.type, type);
      assert.equal(event.name, name);
      assert.equal(event.actor.type, 'application');
      assert.deepEqual(event.data, current, `${type}: data is the resource as its GET answers`);
      return event;
    };

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
    });
    after(() => server.close());

    describe('People Assist', () => {
      let payroll: string;
      let ada: string;
      let agent: string;
      const newRequest = (form = 'ev-question', extra: Body = {}) =>
        write<Body & { id: string }>(201, () =>
          hr.call('POST', '/requests', {
            form_id: form,
            employee_id: ada,
            form_data: [{ field_id: 'subject', values: ['Where is my payslip?'] }],
            ...extra,
          }),
        );

      before(async () => {
        await json(await hr.call('PUT', '/organizations/ev-hq', { name: 'HQ' }), 201);
        ada = await employee(hr, {
          firstname: 'Ada',
          lastname: 'Lovelace',
          registration_references: [{ organization_id: 'ev-hq', employee_number: 'EV1' }],
        });
        agent = await hrUser(hr, 'Agent');
        payroll = await category(hr, 'Payroll');
        await simpleForm(hr, 'ev-question', payroll);
      });

      it('custom statuses: created and updated by PUT', async () => {
        await write(201, () => hr.call('PUT', '/custom_status/ev-waiting', { name: 'Waiting' }));
        await recorded('custom_status.created', 'ev-waiting', 'Waiting', await get('/custom_status/ev-waiting'));
        await write(200, () => hr.call('PUT', '/custom_status/ev-waiting', { name: 'On hold', is_active: false }));
        await recorded('custom_status.updated', 'ev-waiting', 'On hold', await get('/custom_status/ev-waiting'));
        await rejected(422, () => hr.call('PUT', '/custom_status/ev-waiting', { is_active: true }));
      });

      it('macros: created and updated by PUT, recorded as GET answers without embed', async () => {
        const body = {
          name: 'Escalate',
          label: 'Escalate it',
          forms: ['ev-question'],
          actions: [{ template: 'RequestChangePriority', data: { priority: '3' } }],
        };
        await write(201, () => hr.call('PUT', '/macros/ev-escalate', body));
        const created = await recorded('macro.created', 'ev-escalate', 'Escalate', await get('/macros/ev-escalate'));
        assert.equal((created.data as Body).actions, undefined);
        await write(200, () => hr.call('PUT', '/macros/ev-escalate', { ...body, description: 'Urgent cases' }));
        await recorded('macro.updated', 'ev-escalate', 'Escalate', await get('/macros/ev-escalate'));
        await rejected(422, () => hr.call('PUT', '/macros/ev-broken', { ...body, forms: ['no-such-form'] }));
      });

      it('request forms: created and updated by PUT, updated by PATCH', async () => {
        const body = {
          name: 'Leave',
          category_id: payroll,
          formidable: { fields: [{ slug: 'subject', label: 'Subject', type_id: 'text', required: true }] },
        };
        await write(200, () => hr.call('PUT', '/request_forms/ev-leave', body));
        await recorded('request_form.created', 'ev-leave', 'Leave', await get('/request_forms/ev-leave'));
        await write(200, () => hr.call('PUT', '/request_forms/ev-leave', { ...body, name: 'Leave of absence' }));
        await recorded('request_form.updated', 'ev-leave', 'Leave of absence', await get('/request_forms/ev-leave'));
        await write(200, () => hr.call('PATCH', '/request_forms/ev-leave', { featured: true }));
        const patched = await recorded(
          'request_form.updated',
          'ev-leave',
          'Leave of absence',
          await get('/request_forms/ev-leave'),
        );
        assert.equal((patched.data as Body).featured, true);
        await rejected(404, () => hr.call('PATCH', '/request_forms/ev-nowhere', { featured: true }));
        await rejected(422, () => hr.call('PUT', '/request_forms/ev-new', { ...body, category_id: undefined }));
      });

      it('requests: created, updated (answers, status, files), linked, macro applied, deleted', async () => {
        const attachment = await upload(server, hr, Buffer.from('scan bytes'), 'scan.txt');
        const req = await newRequest('ev-question', { attachment_upload_ids: [attachment] });
        const name = 'Form ev-question';
        await recorded('request.created', req.id, name, await get(`/requests/${req.id}`));
        assert.deepEqual(req, await get(`/requests/${req.id}`));

        await write(200, () => hr.call('PATCH', `/requests/${req.id}`, { status: 'closed', priority: '1' }));
        const closed = await recorded('request.updated', req.id, name, await get(`/requests/${req.id}`));
        assert.equal((closed.data as Body).status, 'closed');
        await write(200, () => hr.call('PATCH', `/requests/${req.id}`, { status: 'opened' }));
        await recorded('request.updated', req.id, name, await get(`/requests/${req.id}`));

        const attachments = (await get<{ attachments: { id: string }[] }>(`/requests/${req.id}`)).attachments;
        await write(204, () => hr.call('DELETE', `/requests/${req.id}/attachments/${attachments[0]?.id}`));
        const without = await recorded('request.updated', req.id, name, await get(`/requests/${req.id}`));
        assert.deepEqual((without.data as Body).attachments, []);

        // A form file (a file answer) deleted.
        await json(
          await hr.call('PUT', '/request_forms/ev-proof', {
            name: 'Proof',
            category_id: payroll,
            formidable: {
              fields: [
                { slug: 'subject', label: 'Subject', type_id: 'text', required: true },
                { slug: 'proof', label: 'Proof', type_id: 'file' },
              ],
            },
          }),
          200,
        );
        const proof = await upload(server, hr, PDF(), 'proof.pdf');
        const withFile = await newRequest('ev-proof', {
          form_data: [
            { field_id: 'subject', values: ['Proof'] },
            { field_id: 'proof', values: [{ upload_id: proof }] },
          ],
        });
        const formFiles = withFile.form_files as { id: string }[];
        assert.equal(formFiles.length, 1);
        await write(204, () => hr.call('DELETE', `/requests/${withFile.id}/files/${formFiles[0]?.id}`));
        const noFile = await recorded('request.updated', withFile.id, 'Proof', await get(`/requests/${withFile.id}`));
        assert.deepEqual((noFile.data as Body).form_files, []);

        await write(204, () => hr.call('POST', `/requests/${req.id}/linked_requests`, { uuid: [withFile.id] }));
        await recorded('request.linked', req.id, name, await get(`/requests/${req.id}`));

        await json(
          await hr.call('PUT', '/macros/ev-lower', {
            name: 'Lower',
            label: 'Lower',
            forms: [],
            actions: [
              { template: 'RequestChangePriority', data: { priority: '1' } },
              { template: 'RequestAddAssignee', data: { user_id: agent } },
              { template: 'RequestAddComment', data: { content: 'Lowered', is_internal: true } },
            ],
          }),
          201,
        );
        await write(200, () => hr.call('POST', `/requests/${withFile.id}/macros`, { macro_id: 'ev-lower' }));
        const applied = await recorded(
          'request.macro_applied',
          withFile.id,
          'Proof',
          await get(`/requests/${withFile.id}`),
        );
        assert.equal((applied.data as Body).internal_comment_count, 1);

        const before = await get(`/requests/${withFile.id}`);
        await write(204, () => hr.call('DELETE', `/requests/${withFile.id}`));
        await recorded('request.deleted', withFile.id, 'Proof', before);
      });

      it('requests: a refused write records nothing, even one rolled back half-way', async () => {
        const req = await newRequest();
        await rejected(422, () => hr.call('POST', '/requests', { form_id: 'no-such-form', form_data: [] }));
        await write(200, () => hr.call('PATCH', `/requests/${req.id}`, { status: 'archived' }));
        await rejected(422, () => hr.call('PATCH', `/requests/${req.id}`, { status: 'opened' }));
        await rejected(403, () => hr.call('POST', `/requests/${req.id}/comments`, { content: 'x', creator_id: agent }));
        await rejected(422, () => hr.call('POST', `/requests/${req.id}/linked_requests`, { uuid: [req.id] }));
        await rejected(404, () => hr.call('DELETE', '/requests/7b4f6a36-5e7a-4c55-9d1b-3f1b8a4c2d10'));
        // The first action applies, the second fails: the transaction, and its event, are rolled back.
        await json(await hr.call('PUT', '/custom_status/ev-retired', { name: 'Retired', is_active: false }), 201);
        await json(
          await hr.call('PUT', '/macros/ev-half', {
            name: 'Half',
            label: 'Half',
            forms: [],
            actions: [
              { template: 'RequestChangePriority', data: { priority: '3' } },
              { template: 'RequestChangeCustomState', data: { custom_status: 'ev-retired' } },
            ],
          }),
          201,
        );
        const open = await newRequest();
        await rejected(422, () => hr.call('POST', `/requests/${open.id}/macros`, { macro_id: 'ev-half' }));
        assert.equal((await get(`/requests/${open.id}`)).priority, '2');
      });

      it('comments: created, with the comment as the comment list shows it', async () => {
        const req = await newRequest();
        const file = await upload(server, hr, Buffer.from('note'), 'note.txt');
        const comment = await write<{ id: string }>(200, () =>
          hr.call('POST', `/requests/${req.id}/comments`, {
            content: 'Hello Ada',
            creator_id: agent,
            attachment_upload_ids: [file],
          }),
        );
        const listed = (await get<{ id: string }[]>(`/requests/${req.id}/comments`)).find((c) => c.id === comment.id);
        await recorded('request_comment.created', comment.id, null, listed);
        assert.deepEqual(comment, listed);
        await rejected(422, () => hr.call('POST', `/requests/${req.id}/comments`, { content: 'Who?' }));
        await rejected(404, () =>
          hr.call('POST', '/requests/7b4f6a36-5e7a-4c55-9d1b-3f1b8a4c2d10/comments', {
            content: 'x',
            creator_id: agent,
          }),
        );
      });
    });

    describe('process automation', () => {
      let who: People;
      /** A published process of `ev`: its tasks by template id. */
      const tasksOf = async (processId: string) => {
        const process = await get<{ tasks: { id: string; template_task_id: string }[] }>(
          `/processes/${processId}?embed=tasks`,
        );
        return Object.fromEntries(process.tasks.map((t) => [t.template_task_id, t.id])) as Record<string, string>;
      };
      const newProcess = (publish: boolean) =>
        write<{ id: string; title: string }>(201, () =>
          hr.call('POST', '/processes', {
            process_template_id: 'ev',
            publish,
            employee_id: who.employeeId,
            creator_id: who.userId,
          }),
        );

      before(async () => {
        who = await people(hr);
      });

      it('process templates: created and updated by PUT', async () => {
        await write(201, () => hr.call('PUT', '/process_templates/ev', { title: 'Onboarding' }));
        await recorded('process_template.created', 'ev', 'Onboarding', await get('/process_templates/ev'));
        await write(200, () =>
          hr.call('PUT', '/process_templates/ev', { title: 'Onboarding', description: 'New hires' }),
        );
        await recorded('process_template.updated', 'ev', 'Onboarding', await get('/process_templates/ev'));
        await rejected(422, () =>
          hr.call('PUT', '/process_templates/ev', {
            title: 'Onboarding',
            restrictions: [{ organizations: [{ id: 'no-such-org', operator: '=' }] }],
          }),
        );
      });

      it('task templates: created, updated and deleted', async () => {
        const put = (id: string, status: number, body: Body) =>
          write(status, () => hr.call('PUT', `/process_templates/ev/task_templates/${id}`, body));
        const path = (id: string) => `/process_templates/ev/task_templates/${id}`;
        await put('hello', 201, { type: 'basic', name: 'Hello', assigned_to: 'employee', message: 'Hi' });
        await recorded('task_template.created', 'hello', 'Hello', await get(path('hello')));
        await put('hello', 200, { type: 'basic', name: 'Welcome', assigned_to: 'employee', message: 'Hi!' });
        await recorded('task_template.updated', 'hello', 'Welcome', await get(path('hello')));
        await put('form', 201, { type: 'fill_form', name: 'Form', assigned_to: 'employee', formidable: FORM });
        await put('review', 201, { type: 'validation', name: 'Review', assigned_to: 'users', depends_on_id: 'form' });
        await put('spare', 201, { type: 'basic', name: 'Spare', assigned_to: 'users' });
        const before = await get(path('spare'));
        await write(204, () => hr.call('DELETE', path('spare')));
        await recorded('task_template.deleted', 'spare', 'Spare', before);
        await rejected(422, () =>
          hr.call('PUT', path('form'), {
            type: 'fill_form',
            name: 'Form',
            assigned_to: 'employee',
            formidable: FORM,
            depends_on_id: 'review',
          }),
        );
        await rejected(422, () => hr.call('DELETE', path('form')));
        await rejected(404, () => hr.call('DELETE', path('spare')));
      });

      it('processes: created (draft or published), published, deleted', async () => {
        const draft = await newProcess(false);
        await recorded('process.created', draft.id, 'Onboarding', await get(`/processes/${draft.id}`));
        await write(202, () => hr.call('PUT', `/processes/${draft.id}/publish`));
        const published = await recorded(
          'process.published',
          draft.id,
          'Onboarding',
          await get(`/processes/${draft.id}`),
        );
        assert.equal((published.data as Body).state, 'pending');
        await rejected(422, () => hr.call('PUT', `/processes/${draft.id}/publish`));

        const direct = await newProcess(true);
        const created = await recorded(
          'process.created',
          direct.id,
          'Onboarding',
          await get(`/processes/${direct.id}`),
        );
        assert.equal((created.data as Body).published, true);
        const before = await get(`/processes/${direct.id}`);
        await write(204, () => hr.call('DELETE', `/processes/${direct.id}`));
        await recorded('process.deleted', direct.id, 'Onboarding', before);
        await rejected(404, () => hr.call('DELETE', `/processes/${direct.id}`));
        await rejected(422, () =>
          hr.call('POST', '/processes', {
            process_template_id: 'no-such-template',
            employee_id: who.employeeId,
            creator_id: who.userId,
          }),
        );
      });

      it('tasks: updated, filled, completed, refused; their files created, updated, deleted', async () => {
        const process = await newProcess(true);
        const t = await tasksOf(process.id);
        const task = async (id: string) => get(`/tasks/${id}`);
        const form = t.form as string;

        await write(200, () => hr.call('PATCH', `/tasks/${t.hello}`, { due_date: '2030-01-31', reminder_offset: 2 }));
        await recorded('task.updated', t.hello as string, 'Welcome', await task(t.hello as string));
        await rejected(404, () =>
          hr.call('PATCH', '/tasks/7b4f6a36-5e7a-4c55-9d1b-3f1b8a4c2d10', { due_date: '2030-01-31' }),
        );

        await write(200, () =>
          hr.call('POST', `/tasks/${form}/fill`, { form_data: [{ field_id: 'size', values: ['m'] }] }),
        );
        await recorded('task.filled', form, 'Form', await task(form));
        await rejected(422, () =>
          hr.call('POST', `/tasks/${t.hello}/fill`, { form_data: [{ field_id: 'size', values: ['m'] }] }),
        );

        const card = await upload(server, hr, PDF(), 'card.pdf');
        const file = await write<{ id: string }>(200, () =>
          hr.call('POST', `/tasks/${form}/files`, { task_id: form, field_id: 'id_card', upload_id: card }),
        );
        await recorded('task_file.created', file.id, 'card.pdf', await get(`/tasks/${form}/files/${file.id}`));
        const other = await upload(server, hr, PDF(), 'card-2.pdf');
        await rejected(422, () =>
          hr.call('POST', `/tasks/${form}/files`, { task_id: form, field_id: 'id_card', upload_id: other }),
        );
        await write(200, () => hr.call('PATCH', `/tasks/${form}/files/${file.id}`, { upload_id: other }));
        await recorded('task_file.updated', file.id, 'card-2.pdf', await get(`/tasks/${form}/files/${file.id}`));
        const before = await get(`/tasks/${form}/files/${file.id}`);
        await write(204, () => hr.call('DELETE', `/tasks/${form}/files/${file.id}`));
        await recorded('task_file.deleted', file.id, 'card-2.pdf', before);

        await rejected(422, () => hr.call('POST', `/tasks/${t.review}/complete`, {}));
        await write(200, () =>
          hr.call('POST', `/tasks/${form}/complete`, { form_data: [{ field_id: 'name', values: ['Ada'] }] }),
        );
        const completed = await recorded('task.completed', form, 'Form', await task(form));
        assert.equal((completed.data as Body).status, 'completed');
        await write(200, () =>
          hr.call('POST', `/tasks/${t.review}/complete`, { state: 'refused', reason: 'Wrong name' }),
        );
        const refused = await recorded('task.refused', t.review as string, 'Review', await task(t.review as string));
        assert.equal((refused.data as Body).status, 'blocked');
        await rejected(422, () => hr.call('POST', `/tasks/${t.review}/complete`, {}));
      });
    });

    it('lists the declared types in GET /events/filters/actions', async () => {
      const [app] =
        await get<{ resources: { resource_name: string; actions: string[] }[] }[]>('/events/filters/actions');
      const actions = Object.fromEntries((app?.resources ?? []).map((r) => [r.resource_name, r.actions]));
      assert.deepEqual(
        {
          custom_status: actions.custom_status,
          macro: actions.macro,
          request_form: actions.request_form,
          request: actions.request,
          request_comment: actions.request_comment,
          process_template: actions.process_template,
          task_template: actions.task_template,
          process: actions.process,
          task: actions.task,
          task_file: actions.task_file,
        },
        {
          custom_status: ['created', 'updated'],
          macro: ['created', 'updated'],
          request_form: ['created', 'updated'],
          request: ['created', 'deleted', 'linked', 'macro_applied', 'updated'],
          request_comment: ['created'],
          process_template: ['created', 'updated'],
          task_template: ['created', 'deleted', 'updated'],
          process: ['created', 'deleted', 'published'],
          task: ['completed', 'filled', 'refused', 'updated'],
          task_file: ['created', 'deleted', 'updated'],
        },
      );
    });
  });
}
