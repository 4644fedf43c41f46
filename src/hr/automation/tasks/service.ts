import { randomUUID } from 'node:crypto';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import {
  type FieldError,
  FieldValidationError,
  InvalidRequestError,
  NotFoundError,
  StateError,
} from '../../../platform/errors.js';
import { commaList } from '../../../platform/lists.js';
import { type Clock, dayOf, parseDateOrDateTime } from '../../../platform/time.js';
import { checkAnswers, type DatasetValueLookup, datasetValuesOf } from '../../core/forms/rules.js';
import type { FormAnswer } from '../../core/forms/schemas.js';
import type { UploadsRepository } from '../../core/uploads/repository.js';
import type { UploadsService } from '../../core/uploads/service.js';
import type { InboxRepository } from '../../documents/inbox/repository.js';
import type { Audited } from '../../module.js';
import type { PostProcessActionsRepository } from '../post-process-actions/repository.js';
import { deliverPostProcessActions } from '../post-process-actions/service.js';
import { taskEvents } from './events.js';
import { type PersonView, presentTask, type TaskEmbed, type TaskView } from './present.js';
import type {
  TaskChanges,
  TaskFileBytes,
  TaskFileRecord,
  TaskQuery,
  TaskRecord,
  TaskSortField,
  TasksRepository,
} from './repository.js';
import type { TaskComplete, TaskListQuery, TaskPatch } from './schemas.js';
import { formOf, type ProcessStore, refreshProcess, unblockDependants } from './workflow.js';

export type { PersonView, TaskEmbed, TaskView } from './present.js';

const EMBEDS = new Set<string>(['completed_by', 'signature_zone']);
const FILL_TYPES = new Set<string>(['fill_form', 'fill_pdf']);

/** Only a `to_do` task can change; anything else is a 422 whose code names the status. */
export function mustBeToDo(task: TaskRecord, action: string): void {
  if (task.status === 'to_do') return;
  const reasons: Record<string, [string, string]> = {
    draft: ['task_not_published', 'its process is not published yet'],
    blocked: ['task_blocked', 'it waits for the task it depends on'],
    completed: ['task_completed', 'it is already completed'],
    canceled: ['task_canceled', 'it is canceled'],
  };
  const [code, why] = reasons[task.status] ?? ['task_not_to_do', `it is ${task.status}`];
  throw new StateError(code, `Cannot ${action} this task: ${why}. Only a task in status to_do can.`);
}

/** Only fill_form and fill_pdf tasks take answers and files; anything else is 422 `invalid_task_type`. */
export function mustFill(task: TaskRecord, action: string): void {
  if (!FILL_TYPES.has(task.type)) {
    throw new StateError(
      'invalid_task_type',
      `Cannot ${action} a ${task.type} task: only fill_form and fill_pdf tasks take answers.`,
    );
  }
}

/** Files already attached to the task's file fields, counted per field. */
export function filesByField(files: TaskFileRecord[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of files) if (f.role === 'form' && f.fieldId) out.set(f.fieldId, (out.get(f.fieldId) ?? 0) + 1);
  return out;
}

function parseEmbed(text: string | undefined): Set<TaskEmbed> {
  const out = new Set<TaskEmbed>();
  for (const item of commaList(text) ?? []) {
    if (!EMBEDS.has(item)) {
      throw new InvalidRequestError(
        `Invalid query parameter "embed": "${item}" is not completed_by or signature_zone.`,
      );
    }
    out.add(item as TaskEmbed);
  }
  return out;
}

/** The bytes of an upload, as a task file holds them. */
export function bytesOf(upload: TaskFileBytes): TaskFileBytes {
  return { filename: upload.filename, sha256: upload.sha256, size: upload.size, contentType: upload.contentType };
}

function instant(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const at = parseDateOrDateTime(text);
  if (at === undefined)
    throw new InvalidRequestError(`Invalid query parameter "${name}": expected a date or datetime.`);
  return at;
}

/** The repositories task writes touch: tasks, their process (through `ProcessStore`), and the uploads they consume. */
export interface TasksWork {
  tasks: TasksRepository;
  processes: ProcessStore;
  uploads: UploadsRepository;
  /** The values of datasets that answers of dataset fields name. */
  datasets: DatasetValueLookup;
  /** The process's post-process actions, run when its last task is completed, and the inboxes they send to. */
  postActions: PostProcessActionsRepository;
  inbox: InboxRepository;
}

/** A process that has just ended sends its documents (its tasks' completed files) to its post-process actions. */
async function whenEnded(tx: Audited<TasksWork>, clientId: HrTenantId, processId: string, at: number) {
  if ((await tx.processes.find(clientId, processId))?.state !== 'done') return;
  const tasks = await tx.tasks.ofProcesses(clientId, [processId]);
  const files = await tx.tasks.files(
    clientId,
    tasks.map((t) => t.id),
  );
  const documents = files.filter((f) => f.role === 'result').map(bytesOf);
  await deliverPostProcessActions(tx, clientId, processId, documents, at);
}

/** Tasks of processes (reference §3f.3), their answers and files, and their completion (an Atrium extension). */
export class TasksService {
  private readonly repo: TasksRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<TasksWork>>,
    private readonly uploads: UploadsService,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.tasks;
  }

  /** Presentation data for tasks (files, validation events, and who completed them with `completed_by`). */
  async views(
    clientId: HrTenantId,
    rows: TaskRecord[],
    embed: ReadonlySet<TaskEmbed> = new Set(),
    repo = this.repo,
  ): Promise<TaskView[]> {
    const ids = rows.map((r) => r.id);
    const files = await repo.files(clientId, ids);
    const events = await repo.eventIds(clientId, ids);
    const out: TaskView[] = [];
    for (const row of rows) {
      const view: TaskView = {
        row,
        files: files.filter((f) => f.taskId === row.id),
        eventIds: events.get(row.id) ?? [],
      };
      if (embed.has('completed_by')) view.completedBy = await this.person(clientId, row, repo);
      out.push(view);
    }
    return out;
  }

  private async person(clientId: HrTenantId, row: TaskRecord, repo = this.repo): Promise<PersonView | null> {
    if (row.completedById === null) return null;
    const found =
      row.assignedTo === 'employee'
        ? await repo.employee(clientId, row.completedById)
        : await repo.user(clientId, row.completedById);
    return found
      ? {
          id: found.id,
          firstname: found.firstname,
          lastname: found.lastname,
          email: found.email,
          external_id: found.externalId,
        }
      : null;
  }

  private async row(clientId: HrTenantId, id: string, repo = this.repo): Promise<TaskRecord> {
    const row = await repo.find(clientId, id);
    if (!row) throw new NotFoundError('task', id);
    return row;
  }

  async list(clientId: HrTenantId, query: TaskListQuery, request: PageRequest<TaskSortField>) {
    const q: TaskQuery = {};
    if (query.status !== undefined) q.status = query.status;
    if (query.type !== undefined) q.type = query.type;
    if (query.template_task_id !== undefined) q.templateTaskId = query.template_task_id;
    if (query.process_id !== undefined) q.processId = query.process_id;
    const since = instant('completed_at_since', query.completed_at_since);
    if (since !== undefined) q.completedSince = since;
    const until = instant('completed_at_until', query.completed_at_until);
    if (until !== undefined) q.completedUntil = until;
    if (query.has_requested_changes !== undefined) q.hasRequestedChanges = query.has_requested_changes;
    if (query.has_due_date !== undefined) q.hasDueDate = query.has_due_date;
    const page = await this.repo.page(clientId, q, request);
    return { ...page, items: await this.views(clientId, page.items) } as Page<TaskView>;
  }

  /**
   * Records `action` on the task `id` in the transaction of `tx`, with the task as `GET /tasks/{id}` presents it
   * now (without `embed`); answers its view.
   */
  private async recordTask(
    clientId: HrTenantId,
    tx: Audited<TasksWork>,
    id: string,
    action: (typeof taskEvents.actions)[number],
  ): Promise<TaskView> {
    const [view] = await this.views(clientId, [await this.row(clientId, id, tx.tasks)], new Set(), tx.tasks);
    const task = view as TaskView;
    await tx.audit.record(clientId, taskEvents, action, { id, name: task.row.name, data: presentTask(task) });
    return task;
  }

  async get(clientId: HrTenantId, id: string, embedText?: string): Promise<{ view: TaskView; embed: Set<TaskEmbed> }> {
    const embed = parseEmbed(embedText);
    const [view] = await this.views(clientId, [await this.row(clientId, id)], embed);
    return { view: view as TaskView, embed };
  }

  /** PATCH: the due date and the reminder offset (any status). */
  async patch(clientId: HrTenantId, id: string, input: TaskPatch): Promise<TaskView> {
    return this.work.run(async (tx) => {
      await this.row(clientId, id, tx.tasks);
      const values: TaskChanges = { updatedAt: this.clock.now() };
      if (input.due_date !== undefined) values.dueDate = input.due_date;
      if (input.reminder_offset !== undefined) values.reminderOffset = input.reminder_offset;
      await tx.tasks.update(clientId, id, values);
      return this.recordTask(clientId, tx, id, 'updated');
    });
  }

  /**
   * Checks answers against the task's form (merged over the saved draft), attaches the files they upload, and saves
   * them. `requireAll` for completion.
   */
  private async saveAnswers(
    tx: TasksWork,
    clientId: HrTenantId,
    task: TaskRecord,
    answers: readonly FormAnswer[],
    requireAll: boolean,
    at: number,
  ): Promise<FormAnswer[]> {
    const repo = tx.tasks;
    const files = await repo.files(clientId, [task.id]);
    const checked = checkAnswers(formOf(task), answers, {
      datasetValues: await datasetValuesOf(tx.datasets, clientId, formOf(task), answers),
      path: 'form_data',
      previous: task.formData,
      filesByField: filesByField(files),
      requireAll,
      today: dayOf(at),
    });
    for (const file of checked.files) {
      const upload = await this.uploads.consume(tx.uploads, clientId, file.uploadId, {
        field: file.path,
      });
      await repo.insertFile(clientId, {
        id: randomUUID(),
        taskId: task.id,
        role: 'form',
        fieldId: file.fieldId,
        ...bytesOf(upload),
        createdAt: at,
      });
    }
    return checked.answers;
  }

  /** `POST /tasks/{id}/fill`: saves a draft of answers (checked, but required fields may stay empty). */
  async fill(clientId: HrTenantId, id: string, answers: readonly FormAnswer[]): Promise<TaskView> {
    return this.work.run(async (tx) => {
      const task = await this.row(clientId, id, tx.tasks);
      mustFill(task, 'fill');
      mustBeToDo(task, 'fill');
      const at = this.clock.now();
      const formData = await this.saveAnswers(tx, clientId, task, answers, false, at);
      await tx.tasks.update(clientId, id, { formData, updatedAt: at });
      return this.recordTask(clientId, tx, id, 'filled');
    });
  }

  /**
   * Atrium extension `POST /tasks/{id}/complete`: completes a `to_do` task (a refused validation instead sends the
   * reviewed task back), then unblocks its dependants and recounts the process, all in one transaction.
   */
  async complete(clientId: HrTenantId, id: string, input: TaskComplete): Promise<TaskView> {
    return this.work.run(async (tx) => {
      const repo = tx.tasks;
      const processes = tx.processes;
      const task = await this.row(clientId, id, repo);
      mustBeToDo(task, 'complete');
      const process = await processes.find(clientId, task.processId);
      if (!process) throw new NotFoundError('task', id);
      const errors: FieldError[] = [];
      const refuse = (field: string, types: string) =>
        errors.push({ field, code: 'not_allowed', message: `Only ${types} tasks take ${field}.` });
      if (input.form_data !== undefined && !FILL_TYPES.has(task.type)) refuse('form_data', 'fill_form and fill_pdf');
      if (input.upload_id !== undefined && task.type !== 'fill_pdf' && task.type !== 'signature') {
        refuse('upload_id', 'fill_pdf and signature');
      }
      if (input.state !== undefined && task.type !== 'validation') refuse('state', 'validation');
      if (input.reason !== undefined && task.type !== 'validation') refuse('reason', 'validation');
      if ((task.type === 'fill_pdf' || task.type === 'signature') && input.upload_id === undefined) {
        errors.push({
          field: 'upload_id',
          code: 'required',
          message: `A ${task.type} task is completed with its ${task.type === 'signature' ? 'signed' : 'filled'} document.`,
        });
      }
      const by = input.completed_by_id;
      if (by !== undefined) {
        if (task.assignedTo === 'employee' && by !== process.employeeId) {
          errors.push({
            field: 'completed_by_id',
            code: 'not_assignee',
            message: 'An employee task is completed by the employee of the process.',
          });
        }
        if (task.assignedTo === 'users' && !(await repo.user(clientId, by))) {
          errors.push({ field: 'completed_by_id', code: 'not_found', message: 'No HR user has this id.' });
        }
      }
      if (errors.length) throw new FieldValidationError(errors);

      const at = this.clock.now();
      const values: TaskChanges = {
        status: 'completed',
        completedAt: at,
        completedById: by ?? null,
        updatedAt: at,
      };
      if (FILL_TYPES.has(task.type)) {
        values.formData = await this.saveAnswers(tx, clientId, task, input.form_data ?? [], true, at);
      }
      if (input.upload_id !== undefined) {
        const upload = await this.uploads.consume(tx.uploads, clientId, input.upload_id, {
          field: 'upload_id',
        });
        await repo.insertFile(clientId, {
          id: randomUUID(),
          taskId: task.id,
          role: 'result',
          fieldId: null,
          ...bytesOf(upload),
          createdAt: at,
        });
      }
      const siblings = await repo.ofProcesses(clientId, [task.processId]);
      if (task.type === 'validation') {
        const state = input.state ?? 'accepted';
        await repo.insertEvent(clientId, {
          taskId: task.id,
          reviewedTaskId: task.dependsOnId,
          state,
          reason: input.reason ?? null,
          completedById: by ?? null,
          createdAt: at,
        });
        if (state === 'refused' && task.dependsOnId !== null) {
          // The reviewed task needs changes: it is to do again, and this review waits for it.
          await repo.update(clientId, task.dependsOnId, {
            status: 'to_do',
            completedAt: null,
            completedById: null,
            hasRequestedChanges: true,
            updatedAt: at,
          });
          await repo.update(clientId, task.id, { status: 'blocked', updatedAt: at });
          await refreshProcess(processes, repo, clientId, process, at);
          return this.recordTask(clientId, tx, id, 'refused');
        }
      }
      await repo.update(clientId, task.id, values);
      await unblockDependants(repo, clientId, { ...task, ...values } as TaskRecord, siblings, at);
      await refreshProcess(processes, repo, clientId, process, at);
      await whenEnded(tx, clientId, process.id, at);
      return this.recordTask(clientId, tx, id, 'completed');
    });
  }
}
