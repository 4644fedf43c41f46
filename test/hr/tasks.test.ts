import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { code, FORM, fields, json, PDF, type People, people, upload } from '../support/processes.js';

interface Task {
  id: string;
  name: string;
  type: string;
  process_id: string;
  template_task_id: string;
  status: string;
  depends_on_id: string | null;
  due_date: string | null;
  reminder_offset: number | null;
  scheduled_reminder_at: string | null;
  validation_events_ids: number[];
  has_requested_changes: boolean;
  completed_at: string | null;
  completed_by_id?: string | null;
  created_at: string;
  message?: string;
  files?: { id: string; filename: string }[];
  uploaded_document?: string;
  form_id?: string;
  form_data?: { field_id: string; values: unknown[] }[];
  form_files?: { id: string; filename: string; field_id: string }[];
  pdf_template_id?: string;
  signature_zone_id?: string;
  signature_zone?: { id: string; pdf_template_id: string } & Record<string, unknown>;
}

interface Process {
  id: string;
  state: string;
  tasks: Task[];
}

for (const dialect of dialects()) {
  describe(`Tasks (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    let who: People;
    const ackBytes = PDF();

    /** A published process of the `all` template; its tasks by template id. */
    const run = async (extra: Record<string, unknown> = {}): Promise<Record<string, Task> & { process: Process }> => {
      const created = await json<{ id: string }>(
        await hr.call('POST', '/processes', {
          process_template_id: 'all',
          publish: true,
          employee_id: who.employeeId,
          creator_id: who.userId,
          ...extra,
        }),
        201,
      );
      const process = await json<Process>(await hr.call('GET', `/processes/${created.id}?embed=tasks`), 200);
      const out: Record<string, Task> = {};
      for (const t of process.tasks) out[t.template_task_id] = t;
      return Object.assign(out, { process }) as Record<string, Task> & { process: Process };
    };
    const task = async (id: string, query = '') => json<Task>(await hr.call('GET', `/tasks/${id}${query}`), 200);
    const complete = (id: string, body?: unknown) => hr.call('POST', `/tasks/${id}/complete`, body);

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      other = await hrCaller(server);
      who = await people(hr);
      await json(await hr.call('PUT', '/process_templates/all', { title: 'Every type' }), 201);
      const put = async (id: string, body: Record<string, unknown>) =>
        json(await hr.call('PUT', `/process_templates/all/task_templates/${id}`, body), 201);
      await put('basic', { type: 'basic', name: 'Basic', assigned_to: 'employee', message: '<b>Hello</b>' });
      await put('ack', {
        type: 'acknowledgment',
        name: 'Acknowledge',
        assigned_to: 'employee',
        upload_id: await upload(server, hr, ackBytes, 'charter.pdf'),
      });
      await put('form', { type: 'fill_form', name: 'Form', assigned_to: 'employee', formidable: FORM });
      await put('review', { type: 'validation', name: 'Review', assigned_to: 'users', depends_on_id: 'form' });
      await put('form2', {
        type: 'fill_form',
        name: 'Form again',
        assigned_to: 'employee',
        formidable: FORM,
        depends_on_id: 'form',
        fetch_previous_data: true,
      });
      await put('pdf', { type: 'fill_pdf', name: 'PDF', assigned_to: 'users', pdf_template_id: 'p1' });
      await put('sign', {
        type: 'signature',
        name: 'Sign',
        assigned_to: 'employee',
        pdf_template_id: 'p1',
        signature_zone_id: 'z1',
      });
    });
    after(() => server.close());

    it('GET /tasks/{id} shapes each type', async () => {
      const t = await run();
      const basic = await task(t.basic?.id as string);
      assert.equal(basic.message, '<b>Hello</b>');
      assert.equal(basic.form_data, undefined);
      assert.equal(basic.completed_by_id, null);
      assert.deepEqual(basic.validation_events_ids, []);
      const ack = await task(t.ack?.id as string);
      assert.equal(ack.uploaded_document, 'charter.pdf');
      assert.equal(ack.files?.length, 1);
      const dl = await hr.call('GET', `/tasks/${ack.id}/files/${ack.files?.[0]?.id}/download`);
      assert.equal(dl.status, 200);
      assert.match(dl.headers.get('content-disposition') ?? '', /charter\.pdf/);
      assert.deepEqual(Buffer.from(await dl.arrayBuffer()), ackBytes);
      const info = await json<{ id: string; task_id: string; filename: string; field_id: string }>(
        await hr.call('GET', `/tasks/${ack.id}/files/${ack.files?.[0]?.id}`),
        200,
      );
      assert.deepEqual(info, { id: ack.files?.[0]?.id, task_id: ack.id, filename: 'charter.pdf', field_id: '' });
      const form = await task(t.form?.id as string);
      assert.equal(form.form_id, 'form');
      assert.deepEqual(form.form_data, []);
      assert.deepEqual(form.form_files, []);
      assert.equal(form.pdf_template_id, undefined);
      const pdf = await task(t.pdf?.id as string);
      assert.equal(pdf.pdf_template_id, 'p1');
      assert.deepEqual(pdf.files, []);
      assert.deepEqual(pdf.form_data, []);
      const sign = await task(t.sign?.id as string);
      assert.equal(sign.signature_zone_id, 'z1');
      const zoned = await task(t.sign?.id as string, '?embed=signature_zone,completed_by');
      assert.deepEqual(zoned.signature_zone, {
        id: 'z1',
        position_x: null,
        position_y: null,
        width: null,
        height: null,
        page: null,
        pdf_template_id: 'p1',
      });
      assert.equal(zoned.signature_zone_id, undefined);
      const review = await task(t.review?.id as string);
      assert.equal(review.status, 'blocked');
      assert.equal(review.depends_on_id, form.id);
      assert.equal(await code(await hr.call('GET', `/tasks/${sign.id}?embed=everything`), 400), 'invalid_request');
      assert.equal(await code(await hr.call('GET', '/tasks/00000000-0000-4000-8000-000000000000'), 404), 'not_found');
    });

    it('PATCH sets the due date and the reminder; scheduled_reminder_at follows', async () => {
      const t = await run({ due_date: '2031-06-10' });
      const id = t.basic?.id as string;
      assert.equal(t.basic?.due_date, '2031-06-10');
      assert.equal(t.basic?.scheduled_reminder_at, null);
      const patched = await json<Task>(await hr.call('PATCH', `/tasks/${id}`, { reminder_offset: 3 }), 200);
      assert.equal(patched.reminder_offset, 3);
      assert.equal(patched.scheduled_reminder_at, '2031-06-07T09:00:00+00:00');
      const moved = await json<Task>(await hr.call('PATCH', `/tasks/${id}`, { due_date: '2031-07-01' }), 200);
      assert.equal(moved.scheduled_reminder_at, '2031-06-28T09:00:00+00:00');
      assert.equal(moved.message, '<b>Hello</b>', 'the typed shape');
      const cleared = await json<Task>(await hr.call('PATCH', `/tasks/${id}`, { due_date: null }), 200);
      assert.equal(cleared.scheduled_reminder_at, null);
      assert.deepEqual(await fields(await hr.call('PATCH', `/tasks/${id}`, { due_date: '2031-02-30' })), [
        ['due_date', 'invalid_date'],
      ]);
      const negative = await fields(await hr.call('PATCH', `/tasks/${id}`, { reminder_offset: -1 }));
      assert.ok(
        negative.some(([f]) => f === 'reminder_offset'),
        JSON.stringify(negative),
      );
      assert.equal((await task(id)).due_date, null, 'refused patches changed nothing');
      assert.equal(await code(await other.call('PATCH', `/tasks/${id}`, { reminder_offset: 1 }), 404), 'not_found');
    });

    it('fill saves checked drafts; wrong answers are 422 with their paths; only to_do form tasks', async () => {
      const t = await run();
      const form = t.form?.id as string;
      assert.equal(
        await code(await hr.call('POST', `/tasks/${t.basic?.id}/fill`, { form_data: [] }), 422),
        'invalid_task_type',
      );
      assert.equal(
        await code(await hr.call('POST', `/tasks/${t.form2?.id}/fill`, { form_data: [] }), 422),
        'task_blocked',
      );
      assert.deepEqual(
        await fields(
          await hr.call('POST', `/tasks/${form}/fill`, {
            form_data: [
              { field_id: 'name', values: [42] },
              { field_id: 'ghost', values: ['x'] },
              { field_id: 'age', values: [12] },
              { field_id: 'size', values: ['xl'] },
              { field_id: 'intro', values: ['x'] },
            ],
          }),
        ),
        [
          ['form_data.0.values.0', 'invalid_type'],
          ['form_data.1.field_id', 'unknown_field'],
          ['form_data.2.values.0', 'too_small'],
          ['form_data.3.values.0', 'invalid_choice'],
          ['form_data.4.field_id', 'not_answerable'],
        ],
      );
      assert.deepEqual((await task(form)).form_data, [], 'nothing saved');
      const draft = await json<Task>(
        await hr.call('POST', `/tasks/${form}/fill`, { form_data: [{ field_id: 'age', values: [30] }] }),
        200,
      );
      assert.equal(draft.status, 'to_do', 'a draft does not complete');
      assert.deepEqual(draft.form_data, [{ field_id: 'age', values: [30] }]);
      const card = await upload(server, hr, PDF(), 'card.pdf');
      const merged = await json<Task>(
        await hr.call('POST', `/tasks/${form}/fill`, {
          form_data: [
            { field_id: 'size', values: ['m'] },
            { field_id: 'id_card', values: [{ upload_id: card }] },
          ],
        }),
        200,
      );
      assert.deepEqual(merged.form_data, [
        { field_id: 'age', values: [30] },
        { field_id: 'size', values: ['m'] },
      ]);
      assert.deepEqual(
        merged.form_files?.map((f) => [f.field_id, f.filename]),
        [['id_card', 'card.pdf']],
      );
      // Required fields are enforced on completion only.
      const missing = await fields(await complete(form, {}));
      assert.deepEqual(missing, [['form_data', 'required']]);
      const done = await json<Task>(
        await complete(form, { form_data: [{ field_id: 'name', values: ['Ada'] }], completed_by_id: who.employeeId }),
        200,
      );
      assert.equal(done.status, 'completed');
      assert.deepEqual(done.form_data, [
        { field_id: 'name', values: ['Ada'] },
        { field_id: 'age', values: [30] },
        { field_id: 'size', values: ['m'] },
      ]);
      assert.equal(await code(await hr.call('POST', `/tasks/${form}/fill`, { form_data: [] }), 422), 'task_completed');
      // fetch_previous_data: the dependant starts with the answers.
      const next = await task(t.form2?.id as string);
      assert.equal(next.status, 'to_do');
      assert.deepEqual(next.form_data, done.form_data);
      assert.equal((await task(t.review?.id as string)).status, 'to_do');
    });

    it('task files: attach, read, download, replace, delete; only to_do form tasks and file fields', async () => {
      const t = await run();
      const form = t.form?.id as string;
      const attach = (body: Record<string, unknown>, id = form) => hr.call('POST', `/tasks/${id}/files`, body);
      const firstBytes = PDF();
      const first = await upload(server, hr, firstBytes, 'first.pdf');
      assert.deepEqual(await fields(await attach({ upload_id: first, task_id: form, field_id: 'name' })), [
        ['field_id', 'unknown_field'],
      ]);
      assert.deepEqual(
        await fields(await attach({ upload_id: first, task_id: t.basic?.id as string, field_id: 'id_card' })),
        [['task_id', 'mismatch']],
      );
      assert.equal(
        await code(
          await attach({ upload_id: first, task_id: t.basic?.id as string, field_id: 'id_card' }, t.basic?.id),
          422,
        ),
        'invalid_task_type',
      );
      const file = await json<{ id: string; task_id: string; filename: string; field_id: string }>(
        await attach({ upload_id: first, task_id: form, field_id: 'id_card' }),
        200,
      );
      assert.deepEqual(
        { ...file, id: undefined },
        {
          id: undefined,
          task_id: form,
          filename: 'first.pdf',
          field_id: 'id_card',
        },
      );
      assert.deepEqual(await fields(await attach({ upload_id: first, task_id: form, field_id: 'id_card' })), [
        ['field_id', 'too_many'],
      ]);
      const second = await upload(server, hr, PDF(), 'second.pdf');
      assert.deepEqual(await fields(await attach({ upload_id: second, task_id: form, field_id: 'id_card' })), [
        ['field_id', 'too_many'],
      ]);
      assert.deepEqual(await json(await hr.call('GET', `/tasks/${form}/files/${file.id}`), 200), file);
      const dl = await hr.call('GET', `/tasks/${form}/files/${file.id}/download`);
      assert.deepEqual(Buffer.from(await dl.arrayBuffer()), firstBytes);
      const replacedBytes = PDF();
      const third = await upload(server, hr, replacedBytes, 'third.pdf');
      const replaced = await json<{ filename: string }>(
        await hr.call('PATCH', `/tasks/${form}/files/${file.id}`, { upload_id: third }),
        200,
      );
      assert.equal(replaced.filename, 'third.pdf');
      const dl2 = await hr.call('GET', `/tasks/${form}/files/${file.id}/download`);
      assert.deepEqual(Buffer.from(await dl2.arrayBuffer()), replacedBytes);
      assert.deepEqual(await fields(await hr.call('PATCH', `/tasks/${form}/files/${file.id}`, { upload_id: third })), [
        ['upload_id', 'already_used'],
      ]);
      // The acknowledgment document is not a form file.
      const ackFile = t.ack?.files?.[0]?.id as string;
      assert.equal(await code(await hr.call('DELETE', `/tasks/${t.ack?.id}/files/${ackFile}`), 422), 'not_a_form_file');
      assert.equal((await hr.call('DELETE', `/tasks/${form}/files/${file.id}`)).status, 204);
      assert.equal(await code(await hr.call('GET', `/tasks/${form}/files/${file.id}`), 404), 'not_found');
      // Once completed, files cannot change.
      const last = await json<{ id: string }>(
        await attach({ upload_id: second, task_id: form, field_id: 'id_card' }),
        200,
      );
      await json(await complete(form, { form_data: [{ field_id: 'name', values: ['Ada'] }] }), 200);
      assert.equal(
        await code(await hr.call('PATCH', `/tasks/${form}/files/${last.id}`, { upload_id: first }), 422),
        'task_completed',
      );
      assert.equal(await code(await hr.call('DELETE', `/tasks/${form}/files/${last.id}`), 422), 'task_completed');
      const four = await upload(server, hr, PDF(), 'four.pdf');
      assert.equal(
        await code(await attach({ upload_id: four, task_id: form, field_id: 'id_card' }), 422),
        'task_completed',
      );
      // A blocked task takes no file either.
      const fresh = await run();
      const blocked = fresh.form2?.id as string;
      assert.equal(
        await code(await attach({ upload_id: four, task_id: blocked, field_id: 'id_card' }, blocked), 422),
        'task_blocked',
      );
      assert.equal(await code(await other.call('GET', `/tasks/${form}/files/${last.id}`), 404), 'not_found');
      assert.equal(await code(await other.call('GET', `/tasks/${form}/files/${last.id}/download`), 404), 'not_found');
    });

    it('complete: type rules, completed_by checks, signature and fill_pdf need a file', async () => {
      const t = await run();
      assert.deepEqual(await fields(await complete(t.basic?.id as string, { completed_by_id: who.userId })), [
        ['completed_by_id', 'not_assignee'],
      ]);
      assert.deepEqual(await fields(await complete(t.pdf?.id as string, { completed_by_id: who.employeeId })), [
        ['upload_id', 'required'],
        ['completed_by_id', 'not_found'],
      ]);
      assert.deepEqual(
        await fields(
          await complete(t.basic?.id as string, { form_data: [], upload_id: who.userId, state: 'accepted' }),
        ),
        [
          ['form_data', 'not_allowed'],
          ['upload_id', 'not_allowed'],
          ['state', 'not_allowed'],
        ],
      );
      assert.deepEqual(await fields(await complete(t.sign?.id as string, {})), [['upload_id', 'required']]);
      const signed = await upload(server, hr, PDF(), 'signed.pdf');
      const sign = await json<Task>(await complete(t.sign?.id as string, { upload_id: signed }), 200);
      assert.equal(sign.status, 'completed');
      assert.deepEqual(
        sign.files?.map((f) => f.filename),
        ['signed.pdf'],
      );
      const filled = await upload(server, hr, PDF(), 'filled.pdf');
      const pdf = await json<Task>(
        await complete(t.pdf?.id as string, { upload_id: filled, completed_by_id: who.userId }),
        200,
      );
      assert.equal(pdf.completed_by_id, who.userId);
      assert.deepEqual(
        pdf.files?.map((f) => f.filename),
        ['filled.pdf'],
      );
      const ack = await json<Task>(await complete(t.ack?.id as string), 200);
      assert.equal(ack.status, 'completed');
    });

    it('a refused validation sends the reviewed task back; an accepted one completes the process', async () => {
      const t = await run();
      const form = t.form?.id as string;
      const review = t.review?.id as string;
      await json(await complete(form, { form_data: [{ field_id: 'name', values: ['Ada'] }] }), 200);
      const refused = await json<Task>(
        await complete(review, { state: 'refused', reason: 'Wrong name', completed_by_id: who.userId }),
        200,
      );
      assert.equal(refused.status, 'blocked');
      assert.equal(refused.validation_events_ids.length, 1);
      const reviewed = await task(form);
      assert.equal(reviewed.status, 'to_do');
      assert.equal(reviewed.has_requested_changes, true);
      assert.equal(reviewed.completed_at, null);
      assert.deepEqual(reviewed.validation_events_ids, refused.validation_events_ids);
      const changes = await json<Task[]>(
        await hr.call('GET', `/tasks?has_requested_changes=true&process_id=${t.process.id}`),
        200,
      );
      assert.deepEqual(
        changes.map((c) => c.id),
        [form],
      );
      await json(await complete(form, { form_data: [{ field_id: 'name', values: ['Ada L.'] }] }), 200);
      assert.equal((await task(review)).status, 'to_do');
      const accepted = await json<Task>(await complete(review, { state: 'accepted' }), 200);
      assert.equal(accepted.status, 'completed');
      assert.equal(accepted.validation_events_ids.length, 2);
      assert.ok(
        (accepted.validation_events_ids[0] as number) > (accepted.validation_events_ids[1] as number),
        'latest first',
      );
      // Finish the rest: the process is done.
      await json(await complete(t.basic?.id as string), 200);
      await json(await complete(t.ack?.id as string), 200);
      await json(await complete(t.form2?.id as string), 200);
      await json(await complete(t.pdf?.id as string, { upload_id: await upload(server, hr, PDF(), 'a.pdf') }), 200);
      const p0 = await json<{ state: string }>(await hr.call('GET', `/processes/${t.process.id}`), 200);
      assert.equal(p0.state, 'pending');
      await json(await complete(t.sign?.id as string, { upload_id: await upload(server, hr, PDF(), 'b.pdf') }), 200);
      const p = await json<{ state: string; completed_at: string | null }>(
        await hr.call('GET', `/processes/${t.process.id}`),
        200,
      );
      assert.equal(p.state, 'done');
      assert.ok(p.completed_at, 'completed_at');
    });

    it('lists with filters, sorts and pages; bad sort is 400', async () => {
      const t = await run({ due_date: '2032-01-01' });
      const pid = t.process.id;
      const ids = async (query: string) =>
        (await json<Task[]>(await hr.call('GET', `/tasks?per_page=100&process_id=${pid}&${query}`), 200)).map(
          (x) => x.template_task_id,
        );
      assert.deepEqual((await ids('')).length, 7);
      assert.deepEqual(await ids('sort=created_at'), ['basic', 'ack', 'form', 'review', 'form2', 'pdf', 'sign']);
      assert.deepEqual(
        await ids(''),
        ['sign', 'pdf', 'form2', 'review', 'form', 'ack', 'basic'],
        'default -created_at',
      );
      assert.deepEqual(await ids('status=blocked&sort=%2Bcreated_at'), ['review', 'form2']);
      assert.deepEqual(await ids('type=fill_form&sort=created_at'), ['form', 'form2']);
      assert.deepEqual(await ids('template_task_id=pdf'), ['pdf']);
      await hr.call('PATCH', `/tasks/${t.ack?.id}`, { due_date: null }).then((r) => r.body?.cancel());
      assert.deepEqual(await ids('has_due_date=false'), ['ack']);
      assert.equal((await ids('has_due_date=true')).length, 6);
      await hr.call('PATCH', `/tasks/${t.basic?.id}`, { due_date: '2031-01-01' }).then((r) => r.body?.cancel());
      assert.deepEqual((await ids('sort=due_date,created_at')).slice(0, 2), ['ack', 'basic']);
      assert.deepEqual((await ids('sort=-due_date,-created_at')).slice(-2), ['basic', 'ack']);
      await json(await complete(t.basic?.id as string), 200);
      await json(await complete(t.ack?.id as string), 200);
      assert.deepEqual(await ids('status=completed&sort=-completed_at'), ['ack', 'basic']);
      assert.deepEqual(await ids('completed_at_since=2000-01-01&sort=completed_at'), ['basic', 'ack']);
      assert.deepEqual(await ids('completed_at_until=2000-01-01T00:00:00Z'), []);
      assert.deepEqual(await ids('has_requested_changes=true'), []);
      // Pages of 3 in a sort with text keys cover every task once.
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res: Response = await hr.call(
          'GET',
          `/tasks?per_page=3&process_id=${pid}&sort=due_date,-created_at${cursor ? `&cursor=${cursor}` : ''}`,
        );
        seen.push(...(await json<Task[]>(res, 200)).map((x) => x.template_task_id));
        cursor = res.headers.get('next-cursor');
      } while (cursor);
      assert.deepEqual(seen, await ids('sort=due_date,-created_at'));
      // A cursor of one order is refused in another.
      const res = await hr.call('GET', `/tasks?per_page=1&process_id=${pid}`);
      const c = res.headers.get('next-cursor');
      await res.body?.cancel();
      assert.equal(await code(await hr.call('GET', `/tasks?cursor=${c}&sort=due_date`), 400), 'invalid_request');
      for (const bad of ['sort=name', 'sort=created_at,-created_at', 'status=done', 'completed_at_since=soon']) {
        assert.equal(await code(await hr.call('GET', `/tasks?${bad}`), 400), 'invalid_request', bad);
      }
      assert.deepEqual(await json(await other.call('GET', `/tasks?process_id=${pid}`), 200), []);
    });
  });
}
