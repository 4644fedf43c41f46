import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { code, FORM, fields, json, PDF, type People, people, upload } from '../support/processes.js';

interface Process {
  id: string;
  title: string;
  public_title: string | null;
  reference: string;
  employee_id: string;
  creator_id: string;
  process_template_id: string;
  description: string | null;
  publication_date: string | null;
  due_date: string | null;
  state: string;
  employee_status: string;
  company_status: string;
  employee_tasks_count: number;
  company_tasks_count: number;
  done_employee_tasks_count: number;
  done_company_tasks_count: number;
  published: boolean;
  completed_at: string | null;
  created_at: string;
  tasks_ids?: string[];
  tasks?: Task[];
}

interface Task {
  id: string;
  template_task_id: string;
  status: string;
  depends_on_id: string | null;
  completed_at: string | null;
  completed_by_id?: string | null;
  completed_by?: { id: string; firstname: string } | null;
  due_date: string | null;
  form_files?: { id: string }[];
  files?: { id: string; filename: string }[];
}

/** The state and counters of a process, as one comparable tuple. */
const summary = (p: Process) => ({
  state: p.state,
  published: p.published,
  employee_status: p.employee_status,
  company_status: p.company_status,
  counts: [p.employee_tasks_count, p.done_employee_tasks_count, p.company_tasks_count, p.done_company_tasks_count],
  done: p.completed_at !== null,
});

for (const dialect of dialects()) {
  describe(`Processes (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    let who: People;

    const create = (caller: HrCaller, body: Record<string, unknown>) => caller.call('POST', '/processes', body);
    const base = () => ({
      process_template_id: 'onb',
      publish: false,
      employee_id: who.employeeId,
      creator_id: who.userId,
    });
    const getProcess = async (id: string) => json<Process>(await hr.call('GET', `/processes/${id}?embed=tasks`), 200);
    const byTemplate = (p: Process, templateId: string) =>
      p.tasks?.find((t) => t.template_task_id === templateId) as Task;

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      other = await hrCaller(server);
      who = await people(hr);
      await json(
        await hr.call('PUT', '/process_templates/onb', {
          title: 'Onboarding',
          public_title: 'Welcome',
          description: 'D',
        }),
        201,
      );
      const task = (id: string, body: Record<string, unknown>) =>
        hr.call('PUT', `/process_templates/onb/task_templates/${id}`, body);
      await json(
        await task('welcome', { type: 'basic', name: 'Welcome', assigned_to: 'employee', message: 'Hi' }),
        201,
      );
      await json(
        await task('setup', {
          type: 'basic',
          name: 'Set up the laptop',
          assigned_to: 'users',
          depends_on_id: 'welcome',
          role_id: 'hr_admin',
        }),
        201,
      );
      await json(await task('badge', { type: 'basic', name: 'Print the badge', assigned_to: 'users' }), 201);
      await json(await hr.call('PUT', '/process_templates/empty', { title: 'Empty' }), 201);
    });
    after(() => server.close());

    it('runs a three-task process with a dependency from draft to done, exact at every step', async () => {
      const created = await json<Process>(await create(hr, { ...base(), due_date: '2031-05-01' }), 201);
      assert.match(created.reference, /^proc-[0-9]+$/);
      assert.equal(created.title, 'Onboarding');
      assert.equal(created.public_title, 'Welcome');
      assert.equal(created.description, 'D');
      assert.equal(created.employee_id, who.employeeId);
      assert.equal(created.creator_id, who.userId);
      assert.equal(created.process_template_id, 'onb');
      assert.equal(created.due_date, '2031-05-01');
      assert.equal(created.tasks_ids?.length, 3);
      assert.equal(created.tasks, undefined);
      assert.deepEqual(summary(created), {
        state: 'draft',
        published: false,
        employee_status: 'pending',
        company_status: 'pending',
        counts: [1, 0, 2, 0],
        done: false,
      });
      let p = await getProcess(created.id);
      assert.equal(p.tasks_ids, undefined);
      assert.deepEqual(
        p.tasks?.map((t) => [t.template_task_id, t.status, t.due_date]),
        [
          ['welcome', 'draft', '2031-05-01'],
          ['setup', 'draft', '2031-05-01'],
          ['badge', 'draft', '2031-05-01'],
        ],
      );
      const welcome = byTemplate(p, 'welcome');
      const setup = byTemplate(p, 'setup');
      const badge = byTemplate(p, 'badge');
      assert.equal(setup.depends_on_id, welcome.id, 'the dependency maps to the task of the same process');
      assert.equal(await code(await hr.call('POST', `/tasks/${welcome.id}/complete`), 422), 'task_not_published');

      const published = await hr.call('PUT', `/processes/${created.id}/publish`);
      assert.equal(published.status, 202);
      assert.equal(await published.text(), '');
      p = await getProcess(created.id);
      assert.deepEqual(summary(p), {
        state: 'pending',
        published: true,
        employee_status: 'pending',
        company_status: 'pending',
        counts: [1, 0, 2, 0],
        done: false,
      });
      assert.deepEqual(
        p.tasks?.map((t) => t.status),
        ['to_do', 'blocked', 'to_do'],
      );
      assert.equal(
        await code(await hr.call('PUT', `/processes/${created.id}/publish`), 422),
        'process_already_published',
      );
      assert.equal(await code(await hr.call('POST', `/tasks/${setup.id}/complete`, {}), 422), 'task_blocked');

      const done1 = await json<Task>(
        await hr.call('POST', `/tasks/${welcome.id}/complete`, { completed_by_id: who.employeeId }),
        200,
      );
      assert.equal(done1.status, 'completed');
      assert.equal(done1.completed_by_id, who.employeeId);
      assert.ok(done1.completed_at, 'completed_at is set');
      p = await getProcess(created.id);
      assert.deepEqual(
        p.tasks?.map((t) => t.status),
        ['completed', 'to_do', 'to_do'],
      );
      assert.deepEqual(summary(p), {
        state: 'pending',
        published: true,
        employee_status: 'done',
        company_status: 'pending',
        counts: [1, 1, 2, 0],
        done: false,
      });
      assert.equal(await code(await hr.call('POST', `/tasks/${welcome.id}/complete`), 422), 'task_completed');

      await json(await hr.call('POST', `/tasks/${badge.id}/complete`, { completed_by_id: who.userId }), 200);
      p = await getProcess(created.id);
      assert.deepEqual(summary(p), {
        state: 'pending',
        published: true,
        employee_status: 'done',
        company_status: 'pending',
        counts: [1, 1, 2, 1],
        done: false,
      });

      await json(await hr.call('POST', `/tasks/${setup.id}/complete`), 200);
      p = await getProcess(created.id);
      assert.deepEqual(summary(p), {
        state: 'done',
        published: true,
        employee_status: 'done',
        company_status: 'done',
        counts: [1, 1, 2, 2],
        done: true,
      });
      assert.deepEqual(
        p.tasks?.map((t) => t.status),
        ['completed', 'completed', 'completed'],
      );
      const withPerson = await json<Task>(await hr.call('GET', `/tasks/${badge.id}?embed=completed_by`), 200);
      assert.equal(withPerson.completed_by?.id, who.userId);
      assert.equal(withPerson.completed_by?.firstname, 'Grace');
      assert.equal(withPerson.completed_by_id, undefined);
      const byEmployee = await json<Task>(await hr.call('GET', `/tasks/${welcome.id}?embed=completed_by`), 200);
      assert.equal(byEmployee.completed_by?.firstname, 'Ada');
    });

    it('publish: true publishes at once; external ids; title and description default to the template', async () => {
      const p = await json<Process>(
        await create(hr, {
          process_template_id: 'onb',
          publish: true,
          employee_external_id: who.employeeExternalId,
          creator_external_id: who.userExternalId,
          title: 'Ada’s onboarding',
          description: null,
          publication_date: '2031-01-02',
        }),
        201,
      );
      assert.equal(p.employee_id, who.employeeId);
      assert.equal(p.creator_id, who.userId);
      assert.equal(p.title, 'Ada’s onboarding');
      assert.equal(p.description, null);
      assert.equal(p.publication_date, '2031-01-02');
      assert.deepEqual(summary(p), {
        state: 'pending',
        published: true,
        employee_status: 'pending',
        company_status: 'pending',
        counts: [1, 0, 2, 0],
        done: false,
      });
      const full = await getProcess(p.id);
      assert.deepEqual(
        full.tasks?.map((t) => t.status),
        ['to_do', 'blocked', 'to_do'],
      );
      // A template without tasks: published, it is done at once.
      const empty = await json<Process>(
        await create(hr, { ...base(), process_template_id: 'empty', publish: true }),
        201,
      );
      assert.deepEqual(summary(empty), {
        state: 'done',
        published: true,
        employee_status: 'done',
        company_status: 'done',
        counts: [0, 0, 0, 0],
        done: true,
      });
    });

    it('create refuses unknown templates, employees and creators, missing people and bad dates', async () => {
      const before = await json<Process[]>(await hr.call('GET', '/processes?per_page=100'), 200);
      assert.deepEqual(await fields(await create(hr, { ...base(), process_template_id: 'nope' })), [
        ['process_template_id', 'not_found'],
      ]);
      assert.deepEqual(
        await fields(await create(hr, { ...base(), employee_id: '00000000-0000-4000-8000-000000000000' })),
        [['employee_id', 'not_found']],
      );
      const { employee_id: _e, ...noEmployee } = base();
      assert.deepEqual(await fields(await create(hr, { ...noEmployee, employee_external_id: 'ghost' })), [
        ['employee_external_id', 'not_found'],
      ]);
      assert.deepEqual(await fields(await create(hr, noEmployee)), [['employee_id', 'required']]);
      assert.deepEqual(await fields(await create(hr, { ...base(), creator_id: who.employeeId })), [
        ['creator_id', 'not_found'],
      ]);
      const { creator_id: _c, ...noCreator } = base();
      assert.deepEqual(await fields(await create(hr, noCreator)), [['creator_id', 'required']]);
      assert.deepEqual(await fields(await create(hr, { ...base(), due_date: '2031-02-30' })), [
        ['due_date', 'invalid_date'],
      ]);
      const noPublish = await fields(await create(hr, { ...base(), publish: undefined }));
      assert.ok(
        noPublish.some(([f]) => f === 'publish'),
        JSON.stringify(noPublish),
      );
      // Another client's template is unknown here.
      await json(await other.call('PUT', '/process_templates/theirs', { title: 'Theirs' }), 201);
      assert.deepEqual(await fields(await create(hr, { ...base(), process_template_id: 'theirs' })), [
        ['process_template_id', 'not_found'],
      ]);
      const afterRefusals = await json<Process[]>(await hr.call('GET', '/processes?per_page=100'), 200);
      assert.equal(afterRefusals.length, before.length, 'nothing was created');
    });

    it('references stay unique under 20 concurrent creates', async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, () => create(hr, base())));
      const refs = await Promise.all(answers.map(async (r) => (await json<Process>(r, 201)).reference));
      assert.equal(new Set(refs).size, 20, refs.join(' '));
      for (const ref of refs) assert.match(ref, /^proc-[0-9]+$/);
      const numbers = refs.map((r) => Number(r.slice(5))).sort((a, b) => a - b);
      assert.equal((numbers.at(-1) as number) - (numbers[0] as number), 19, 'consecutive numbers');
      // Another client counts from 1.
      const theirs = await people(other);
      await json(await other.call('PUT', '/process_templates/counted', { title: 'Counted' }), 201);
      await json(
        await other.call('PUT', '/process_templates/counted/task_templates/t', {
          type: 'basic',
          name: 'T',
          assigned_to: 'employee',
        }),
        201,
      );
      const first = await json<Process>(
        await create(other, {
          process_template_id: 'counted',
          publish: false,
          employee_id: theirs.employeeId,
          creator_id: theirs.userId,
        }),
        201,
      );
      assert.equal(first.reference, 'proc-1');
    });

    it('lists with filters and pages; bad filters are 400', async () => {
      const p1 = await json<Process>(await create(hr, { ...base(), due_date: '2040-01-10' }), 201);
      const p2 = await json<Process>(
        await create(hr, { ...base(), due_date: '2040-03-10', publish: true, publication_date: '2040-01-01' }),
        201,
      );
      const ids = async (query: string) =>
        (await json<Process[]>(await hr.call('GET', `/processes?per_page=100&${query}`), 200)).map((p) => p.id);
      assert.deepEqual(await ids('due_date_since=2040-01-01'), [p1.id, p2.id]);
      assert.deepEqual(await ids('due_date_since=2040-02-01&due_date_until=2040-03-10'), [p2.id]);
      assert.deepEqual(await ids('publication_date=2040-01-01'), [p2.id]);
      assert.deepEqual(await ids(`reference=${p1.reference}`), [p1.id]);
      const drafts = await ids('state=draft');
      assert.ok(drafts.includes(p1.id) && !drafts.includes(p2.id), 'state=draft');
      const pendingOrDone = await ids('state=pending,done');
      assert.ok(pendingOrDone.includes(p2.id) && !pendingOrDone.includes(p1.id), 'state csv');
      const done = await ids('completed_at_since=2000-01-01');
      assert.ok(done.length >= 1 && !done.includes(p1.id), 'completed processes only');
      assert.ok((await ids(`employee_id=${who.employeeId}`)).includes(p1.id), 'employee filter');
      assert.deepEqual(await ids('employee_id=nobody'), []);
      assert.ok((await ids(`creator_id=${who.userId}`)).includes(p2.id), 'creator filter');
      assert.deepEqual(await ids('template_id=empty'), (await ids('template_id=empty')).slice(0, 1));
      assert.ok(!(await ids('template_id=empty')).includes(p1.id), 'template filter');
      const today = new Date().toISOString().slice(0, 10);
      assert.ok((await ids(`created_at_since=${today}&created_at_until=${today}`)).includes(p2.id), 'created today');
      assert.deepEqual(await ids('created_at_until=2000-01-01'), []);
      assert.deepEqual(await ids('created_at_since=2100-01-01T00:00:00Z'), []);
      const embedded = await json<Process[]>(
        await hr.call('GET', `/processes?reference=${p2.reference}&embed=tasks`),
        200,
      );
      assert.equal(embedded[0]?.tasks?.length, 3);
      assert.equal(embedded[0]?.tasks_ids, undefined);
      for (const bad of ['state=finished', 'created_at_since=yesterday', 'due_date_since=2040-13-01', 'embed=all']) {
        assert.equal(await code(await hr.call('GET', `/processes?${bad}`), 400), 'invalid_request', bad);
      }
      // Pages of 5 cover every process once.
      const all = await ids('');
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res: Response = await hr.call('GET', `/processes?per_page=5${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...(await json<Process[]>(res, 200)).map((p) => p.id));
        cursor = res.headers.get('next-cursor');
      } while (cursor);
      assert.deepEqual(seen, all);
    });

    it('DELETE removes the process, its tasks and their files; the template’s document stays', async () => {
      await json(await hr.call('PUT', '/process_templates/docs', { title: 'Docs' }), 201);
      const doc = await upload(server, hr, PDF(), 'charter.pdf');
      await json(
        await hr.call('PUT', '/process_templates/docs/task_templates/ack', {
          type: 'acknowledgment',
          name: 'Read',
          assigned_to: 'employee',
          upload_id: doc,
        }),
        201,
      );
      await json(
        await hr.call('PUT', '/process_templates/docs/task_templates/form', {
          type: 'fill_form',
          name: 'Form',
          assigned_to: 'employee',
          formidable: FORM,
        }),
        201,
      );
      const p = await json<Process>(await create(hr, { ...base(), process_template_id: 'docs', publish: true }), 201);
      const full = await getProcess(p.id);
      const form = byTemplate(full, 'form');
      const ack = byTemplate(full, 'ack');
      const cardBytes = PDF();
      const card = await upload(server, hr, cardBytes, 'card.pdf');
      const file = await json<{ id: string }>(
        await hr.call('POST', `/tasks/${form.id}/files`, { upload_id: card, task_id: form.id, field_id: 'id_card' }),
        200,
      );
      const ackFile = (ack.files ?? [])[0] as { id: string };
      const blobs = async () => (await server.app.database.db.selectFrom('blobs').select('sha256').execute()).length;
      const before = await blobs();
      assert.equal((await hr.call('DELETE', `/processes/${p.id}`)).status, 204);
      assert.equal(await code(await hr.call('GET', `/processes/${p.id}`), 404), 'not_found');
      assert.equal(await code(await hr.call('GET', `/tasks/${form.id}`), 404), 'not_found');
      assert.equal(await code(await hr.call('GET', `/tasks/${form.id}/files/${file.id}`), 404), 'not_found');
      assert.equal(await code(await hr.call('GET', `/tasks/${ack.id}/files/${ackFile.id}/download`), 404), 'not_found');
      const left = await json<Task[]>(await hr.call('GET', `/tasks?process_id=${p.id}`), 200);
      assert.deepEqual(left, []);
      assert.equal(await blobs(), before - 1, 'the form file’s bytes went; the template’s document stayed');
      assert.equal(await code(await hr.call('DELETE', `/processes/${p.id}`), 404), 'not_found');
      // The template still hands its document to new processes.
      const again = await getProcess(
        (await json<Process>(await create(hr, { ...base(), process_template_id: 'docs', publish: true }), 201)).id,
      );
      const newAck = byTemplate(again, 'ack');
      const download = await hr.call('GET', `/tasks/${newAck.id}/files/${(newAck.files ?? [])[0]?.id}/download`);
      assert.equal(download.status, 200);
      assert.equal((await download.arrayBuffer()).byteLength > 0, true);
    });

    it('another client’s processes are 404 and never listed', async () => {
      const mine = await json<Process>(await create(hr, base()), 201);
      assert.equal(await code(await other.call('GET', `/processes/${mine.id}`), 404), 'not_found');
      assert.equal(await code(await other.call('PUT', `/processes/${mine.id}/publish`), 404), 'not_found');
      assert.equal(await code(await other.call('DELETE', `/processes/${mine.id}`), 404), 'not_found');
      const theirs = await json<Process[]>(await other.call('GET', '/processes?per_page=100'), 200);
      assert.ok(!theirs.some((p) => p.id === mine.id), 'not listed');
      const task = mine.tasks_ids?.[0] as string;
      assert.equal(await code(await other.call('GET', `/tasks/${task}`), 404), 'not_found');
      assert.equal(await code(await other.call('POST', `/tasks/${task}/complete`), 404), 'not_found');
      const theirTasks = await json<Task[]>(await other.call('GET', '/tasks?per_page=100'), 200);
      assert.ok(!theirTasks.some((t) => t.id === task), 'tasks not listed');
      assert.equal(await code(await hr.call('GET', '/processes/not-a-uuid'), 404), 'not_found');
    });
  });
}
