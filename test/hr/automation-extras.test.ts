import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { category, simpleForm } from '../support/people-assist.js';
import { code, fields, json, PDF, type People, people, upload } from '../support/processes.js';

interface Task {
  id: string;
  template_task_id: string;
  files?: { id: string; filename: string }[];
}
interface Process {
  id: string;
  state: string;
  reference: string;
  title: string;
  tasks: Task[];
}

const NO_ID = '00000000-0000-4000-8000-000000000000';

for (const dialect of dialects()) {
  describe(`process automation extras (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    let who: People;
    const ackBytes = PDF();
    const db = () => server.app.database.db;

    /** A process of `tpl` for the employee, published; its tasks by template id. */
    const run = async (tpl: string, extra: Record<string, unknown> = {}) => {
      const created = await json<{ id: string }>(
        await hr.call('POST', '/processes', {
          process_template_id: tpl,
          publish: true,
          employee_id: who.employeeId,
          creator_id: who.userId,
          ...extra,
        }),
        201,
      );
      const process = await json<Process>(await hr.call('GET', `/processes/${created.id}?embed=tasks`), 200);
      const tasks: Record<string, Task> = {};
      for (const t of process.tasks) tasks[t.template_task_id] = t;
      return { process, tasks };
    };
    const actions = (processId: string) =>
      db().selectFrom('hr_process_post_actions').selectAll().where('process_id', '=', processId).execute();

    before(async () => {
      server = await startServer(dialect, { ATRIUM_RATE_LIMIT: '0' });
      hr = await hrCaller(server);
      other = await hrCaller(server);
      who = await people(hr);
      await json(await hr.call('PUT', '/process_templates/onboard', { title: 'Onboarding' }), 201);
      await json(
        await hr.call('PUT', '/process_templates/onboard/task_templates/charter', {
          type: 'acknowledgment',
          name: 'Read the charter',
          assigned_to: 'employee',
          upload_id: await upload(server, hr, ackBytes, 'charter.pdf'),
        }),
        201,
      );
      await json(
        await hr.call('PUT', '/process_templates/onboard/task_templates/contract', {
          type: 'fill_pdf',
          name: 'Contract',
          assigned_to: 'users',
          pdf_template_id: 'contract',
        }),
        201,
      );
    });
    after(() => server?.close());

    it('post_process_action: both shapes (201), their 4xx, and the inboxes get the documents when the process ends', async () => {
      const { process, tasks } = await run('onboard', { description: 'Welcome aboard' });
      const path = `/processes/${process.id}/post_process_action`;
      const users = await json<{ id: string; type: string; ids: string[] }>(
        await hr.call('POST', path, { type: 'user_inboxes', ids: [who.userId] }),
        201,
      );
      assert.equal(users.type, 'user_inboxes');
      assert.deepEqual(users.ids, [who.userId]);
      const shared = await json<{ id: string }>(
        await hr.call('POST', path, { type: 'shared_inboxes', ids: ['hr-shared'] }),
        201,
      );
      // user_inboxes again replaces the previous one.
      const again = await json<{ id: string }>(
        await hr.call('POST', path, { type: 'user_inboxes', ids: [who.userId, who.userId] }),
        201,
      );
      const stored = await actions(process.id);
      assert.deepEqual(
        stored.map((a) => [a.id, a.type, JSON.parse(a.ids)]).sort(),
        [
          [again.id, 'user_inboxes', [who.userId]],
          [shared.id, 'shared_inboxes', ['hr-shared']],
        ].sort(),
      );
      assert.ok(!stored.some((a) => a.id === users.id));
      // The 4xx: unknown users, malformed bodies, an unknown or another tenant's process; none writes.
      assert.deepEqual(await fields(await hr.call('POST', path, { type: 'user_inboxes', ids: ['x', who.userId] })), [
        ['ids.0', 'not_found'],
      ]);
      assert.equal(await code(await hr.call('POST', path, { type: 'inboxes', ids: ['x'] }), 422), 'validation_error');
      assert.equal(
        await code(await hr.call('POST', path, { type: 'shared_inboxes', ids: [] }), 422),
        'validation_error',
      );
      assert.equal(await code(await hr.call('POST', path, { type: 'shared_inboxes' }), 422), 'validation_error');
      assert.equal(
        await code(
          await hr.call('POST', `/processes/${NO_ID}/post_process_action`, { type: 'shared_inboxes', ids: ['a'] }),
          404,
        ),
        'not_found',
      );
      assert.equal(
        await code(await other.call('POST', path, { type: 'shared_inboxes', ids: ['a'] }), 404),
        'not_found',
      );
      assert.deepEqual(await actions(process.id), stored, 'refused calls changed nothing');

      // The process ends: its documents (the completed file) go to both inboxes.
      await json(await hr.call('POST', `/tasks/${tasks.charter?.id}/complete`, {}), 200);
      const itemsBefore = await db().selectFrom('hr_inbox_items').select('id').execute();
      const filled = Buffer.from('%PDF-1.4 filled contract');
      await json(
        await hr.call('POST', `/tasks/${tasks.contract?.id}/complete`, {
          upload_id: await upload(server, hr, filled, 'contract-filled.pdf'),
        }),
        200,
      );
      const done = await json<Process>(await hr.call('GET', `/processes/${process.id}`), 200);
      assert.equal(done.state, 'done');
      const items = await db()
        .selectFrom('hr_inbox_items')
        .selectAll()
        .where('id', 'not in', itemsBefore.length ? itemsBefore.map((i) => i.id) : ['-'])
        .orderBy('pk')
        .execute();
      assert.deepEqual(
        items.map((i) => [i.type, JSON.parse(i.to_users_ids), i.to_inbox_id, i.title]).sort(),
        [
          ['group', [], 'hr-shared', done.title],
          ['list', [who.userId], null, done.title],
        ].sort(),
      );
      for (const item of items) {
        const listed = await json<{ documents_count: number }>(await hr.call('GET', `/inbox_items/${item.id}`), 200);
        assert.equal(listed.documents_count, 1);
        const files = await db()
          .selectFrom('hr_inbox_item_files')
          .select('filename')
          .where('inbox_item_id', '=', item.id)
          .execute();
        assert.deepEqual(files, [{ filename: 'contract-filled.pdf' }]);
      }
      assert.ok((await actions(process.id)).every((a) => a.delivered_at !== null));
      // Once ended, no more actions.
      assert.equal(
        await code(await hr.call('POST', path, { type: 'shared_inboxes', ids: ['late'] }), 422),
        'process_already_done',
      );
      // Deleting the process deletes its actions.
      assert.equal((await hr.call('DELETE', `/processes/${process.id}`)).status, 204);
      assert.deepEqual(await actions(process.id), []);
    });

    it('workingfiles: the completed document of a task; any other file id is a 404', async () => {
      const { tasks } = await run('onboard');
      const contract = tasks.contract?.id as string;
      const filled = Buffer.from('%PDF-1.4 my filled contract');
      const completed = await json<Task>(
        await hr.call('POST', `/tasks/${contract}/complete`, {
          upload_id: await upload(server, hr, filled, 'mine.pdf'),
        }),
        200,
      );
      const fileId = completed.files?.[0]?.id as string;
      const res = await hr.call('GET', `/tasks/${contract}/workingfiles/${fileId}`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-disposition') ?? '', /mine\.pdf/);
      assert.deepEqual(Buffer.from(await res.arrayBuffer()), filled);
      const ackDocument = tasks.charter?.files?.[0]?.id as string;
      assert.ok(ackDocument);
      assert.equal(
        await code(await hr.call('GET', `/tasks/${tasks.charter?.id}/workingfiles/${ackDocument}`), 404),
        'not_found',
      );
      assert.equal(await code(await hr.call('GET', `/tasks/${contract}/workingfiles/${NO_ID}`), 404), 'not_found');
      assert.equal(await code(await hr.call('GET', `/tasks/${NO_ID}/workingfiles/${fileId}`), 404), 'not_found');
      assert.equal(await code(await other.call('GET', `/tasks/${contract}/workingfiles/${fileId}`), 404), 'not_found');
    });

    it('employee settings: the onboarding of the latest published process, and its welcome file', async () => {
      const fresh = await people(hr);
      const settingsPath = `/employee_settings/${fresh.employeeId}/process_automation`;
      assert.deepEqual(await json(await hr.call('GET', settingsPath), 200), {
        employee_id: fresh.employeeId,
        onboarding: { welcome_message: null, welcome_file_filename: null, welcome_file_title: null },
      });
      assert.equal(await code(await hr.call('GET', `${settingsPath}/welcome_file`), 404), 'not_found');
      // A draft process does not count; a published one does.
      const base = { process_template_id: 'onboard', employee_id: fresh.employeeId, creator_id: fresh.userId };
      await json(await hr.call('POST', '/processes', { ...base, publish: false, description: 'Draft' }), 201);
      assert.equal(
        (await json<{ onboarding: { welcome_message: string | null } }>(await hr.call('GET', settingsPath), 200))
          .onboarding.welcome_message,
        null,
      );
      await json(await hr.call('POST', '/processes', { ...base, publish: true, description: 'Hello Ada' }), 201);
      assert.deepEqual(await json(await hr.call('GET', settingsPath), 200), {
        employee_id: fresh.employeeId,
        onboarding: {
          welcome_message: 'Hello Ada',
          welcome_file_filename: 'charter.pdf',
          welcome_file_title: 'Read the charter',
        },
      });
      const file = await hr.call('GET', `${settingsPath}/welcome_file`);
      assert.equal(file.status, 200);
      assert.deepEqual(Buffer.from(await file.arrayBuffer()), ackBytes);
      assert.equal(
        await code(await hr.call('GET', `/employee_settings/${NO_ID}/process_automation`), 404),
        'not_found',
      );
      assert.equal(await code(await other.call('GET', settingsPath), 404), 'not_found');
      assert.equal(await code(await other.call('GET', `${settingsPath}/welcome_file`), 404), 'not_found');
    });

    it('change_group_category: 403 and 400 with {detail}, 422 on the category, 404; 204 moves the whole group', async () => {
      const first = await category(hr, 'First');
      const second = await category(hr, 'Second');
      await simpleForm(hr, 'solo', first);
      const move = (slug: string, body: unknown, caller = hr) =>
        caller.call('POST', `/request_forms/${slug}/change_group_category`, body);
      const categories = async () =>
        Object.fromEntries(
          (await db().selectFrom('pa_request_forms').select(['id', 'category_id']).execute()).map((r) => [
            r.id,
            r.category_id,
          ]),
        );
      const disabled = await move('solo', { category_slug: second });
      assert.equal(disabled.status, 403);
      const body403 = (await disabled.json()) as { detail: string; code: string };
      assert.equal(body403.detail, 'Multilingual form feature is not enabled.');
      assert.equal(body403.code, 'multilingual_forms_disabled');
      await simpleForm(hr, 'leave-en', first, { form_group_id: 7, language_code: 'en-us', is_default_language: true });
      await simpleForm(hr, 'leave-fr', first, { form_group_id: 7, language_code: 'fr-fr' });
      const unchanged = await categories();
      const notInGroup = await move('solo', { category_slug: second });
      assert.equal(notInGroup.status, 400);
      assert.equal(((await notInGroup.json()) as { detail: string }).detail, 'This form does not belong to a group.');
      assert.deepEqual(await fields(await move('leave-en', { category_slug: 'ghost' })), [
        ['category_slug', 'not_found'],
      ]);
      assert.equal(await code(await move('leave-en', {}), 422), 'validation_error');
      assert.equal(await code(await move('ghost', { category_slug: second }), 404), 'not_found');
      assert.equal(await code(await move('leave-en', { category_slug: second }, other), 404), 'not_found');
      assert.deepEqual(await categories(), unchanged, 'refused calls changed nothing');
      const moved = await move('leave-fr', { category_slug: second });
      assert.equal(moved.status, 204);
      assert.equal(await moved.text(), '');
      const after = await categories();
      assert.equal(after['leave-en'], second);
      assert.equal(after['leave-fr'], second);
      assert.equal(after.solo, first);
    });
  });
}
