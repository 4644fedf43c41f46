import { randomUUID } from 'node:crypto';
import type { BlobStore } from '../../../platform/blobs/store.js';
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
import { type Clock, DAY_MS, parseDate, parseDateOrDateTime } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import type { PostProcessActionsRepository } from '../post-process-actions/repository.js';
import type { NewTask, TasksRepository } from '../tasks/repository.js';
import type { TasksService } from '../tasks/service.js';
import { refreshProcess, startTasks } from '../tasks/workflow.js';
import { processEvents } from './events.js';
import { type ProcessView, presentProcess } from './present.js';
import type { ProcessesRepository, ProcessQuery, ProcessRecord } from './repository.js';
import { PROCESS_STATES, type ProcessCreate, type ProcessListQuery } from './schemas.js';

/** The repositories process writes touch: the process and its tasks. */
export interface ProcessesWork {
  processes: ProcessesRepository;
  tasks: TasksRepository;
  /** The process's post-process actions, deleted with it. */
  postActions: PostProcessActionsRepository;
}

/** Processes (reference §3f.1): made from a template, published, done when every task is. */
export class ProcessesService {
  private readonly repo: ProcessesRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<ProcessesWork>>,
    private readonly tasks: TasksService,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.processes;
  }

  private async views(clientId: HrTenantId, rows: ProcessRecord[], embed: boolean): Promise<ProcessView[]> {
    const tasks = await this.work.read.tasks.ofProcesses(
      clientId,
      rows.map((r) => r.id),
    );
    const taskViews = embed ? await this.tasks.views(clientId, tasks) : [];
    return rows.map((row) => {
      const own = tasks.filter((t) => t.processId === row.id);
      const view: ProcessView = { row, taskIds: own.map((t) => t.id) };
      if (embed) view.tasks = taskViews.filter((t) => t.row.processId === row.id);
      return view;
    });
  }

  /**
   * Records `action` on the process `id` in the transaction of `tx`, with the process as `GET /processes/{id}`
   * presents it now (with `tasks_ids`; before the deletion, for `deleted`).
   */
  private async recordProcess(
    clientId: HrTenantId,
    tx: Audited<ProcessesWork>,
    id: string,
    action: (typeof processEvents.actions)[number],
  ): Promise<void> {
    const row = await tx.processes.find(clientId, id);
    if (!row) throw new NotFoundError('process', id);
    const taskIds = (await tx.tasks.ofProcesses(clientId, [id])).map((t) => t.id);
    await tx.audit.record(clientId, processEvents, action, {
      id,
      name: row.title,
      data: presentProcess({ row, taskIds }),
    });
  }

  async get(clientId: HrTenantId, id: string, embed = false): Promise<ProcessView> {
    const row = await this.repo.find(clientId, id);
    if (!row) throw new NotFoundError('process', id);
    return (await this.views(clientId, [row], embed))[0] as ProcessView;
  }

  async list(clientId: HrTenantId, query: ProcessListQuery, request: PageRequest): Promise<Page<ProcessView>> {
    const instant = (name: keyof ProcessListQuery, end: boolean) => {
      const text = query[name] as string | undefined;
      if (text === undefined) return undefined;
      const at = parseDateOrDateTime(text);
      if (at === undefined) {
        throw new InvalidRequestError(`Invalid query parameter "${name}": expected a date or a datetime.`);
      }
      return end && parseDate(text) ? at + DAY_MS - 1 : at;
    };
    const q: ProcessQuery = {};
    if (query.employee_id !== undefined) q.employeeId = query.employee_id;
    if (query.template_id !== undefined) q.templateId = query.template_id;
    if (query.creator_id !== undefined) q.creatorId = query.creator_id;
    if (query.publication_date !== undefined) q.publicationDate = query.publication_date;
    if (query.reference !== undefined) q.reference = query.reference;
    if (query.due_date_since !== undefined) q.dueSince = query.due_date_since;
    if (query.due_date_until !== undefined) q.dueUntil = query.due_date_until;
    const states = commaList(query.state);
    if (states !== undefined) {
      const bad = states.find((s) => !(PROCESS_STATES as readonly string[]).includes(s));
      if (bad !== undefined || states.length === 0) {
        throw new InvalidRequestError(
          `Invalid query parameter "state": expected comma-separated ${PROCESS_STATES.join(', ')}.`,
        );
      }
      q.states = states;
    }
    const createdSince = instant('created_at_since', false);
    if (createdSince !== undefined) q.createdSince = createdSince;
    const createdUntil = instant('created_at_until', true);
    if (createdUntil !== undefined) q.createdUntil = createdUntil;
    const completedSince = instant('completed_at_since', false);
    if (completedSince !== undefined) q.completedSince = completedSince;
    const page = await this.repo.page(clientId, q, request);
    return { ...page, items: await this.views(clientId, page.items, query.embed === 'tasks') };
  }

  /**
   * `POST /processes`: a draft process numbered `proc-<n>`, with one `draft` task per task template; `publish`
   * publishes it in the same transaction.
   */
  async create(clientId: HrTenantId, input: ProcessCreate): Promise<ProcessView> {
    const id = randomUUID();
    await this.work.run(async (tx) => {
      const repo = tx.processes;
      const tasks = tx.tasks;
      const errors: FieldError[] = [];
      const template = await repo.processTemplate(clientId, input.process_template_id);
      if (!template) {
        errors.push({ field: 'process_template_id', code: 'not_found', message: 'No process template has this id.' });
      }
      const person = async (
        kind: 'employee' | 'creator',
        byId: string | undefined,
        byExternal: string | undefined,
      ): Promise<string | undefined> => {
        const find = (by: { id: string } | { externalId: string }) =>
          kind === 'employee' ? repo.employeeId(clientId, by) : repo.userId(clientId, by);
        const what = kind === 'employee' ? 'employee' : 'HR user';
        if (byId !== undefined) {
          const found = await find({ id: byId });
          if (!found) errors.push({ field: `${kind}_id`, code: 'not_found', message: `No ${what} has this id.` });
          return found;
        }
        if (byExternal !== undefined) {
          const found = await find({ externalId: byExternal });
          if (!found) {
            errors.push({
              field: `${kind}_external_id`,
              code: 'not_found',
              message: `No ${what} has this external id.`,
            });
          }
          return found;
        }
        errors.push({
          field: `${kind}_id`,
          code: 'required',
          message: `Give ${kind}_id or ${kind}_external_id.`,
        });
        return undefined;
      };
      const employeeId = await person('employee', input.employee_id, input.employee_external_id);
      const creatorId = await person('creator', input.creator_id, input.creator_external_id);
      if (errors.length || !template || !employeeId || !creatorId) throw new FieldValidationError(errors);

      const at = this.clock.now();
      const number = await repo.nextNumber(clientId);
      await repo.insert(clientId, {
        id,
        reference: `proc-${number}`,
        title: input.title ?? template.title,
        publicTitle: template.publicTitle,
        description: input.description !== undefined ? input.description : template.description,
        employeeId,
        creatorId,
        processTemplateId: template.id,
        publicationDate: input.publication_date ?? null,
        dueDate: input.due_date ?? null,
        state: 'draft',
        published: false,
        employeeTasksCount: 0,
        companyTasksCount: 0,
        doneEmployeeTasksCount: 0,
        doneCompanyTasksCount: 0,
        completedAt: null,
        createdAt: at,
        updatedAt: at,
      });
      const templates = await repo.taskTemplates(clientId, template.id);
      const taskIds = new Map(templates.map((t) => [t.id, randomUUID()]));
      const rows: NewTask[] = templates.map((t) => ({
        id: taskIds.get(t.id) as string,
        processId: id,
        templateTaskId: t.id,
        type: t.type,
        name: t.name,
        description: t.description,
        assignedTo: t.assignedTo,
        dependsOnId: t.dependsOnId === null ? null : (taskIds.get(t.dependsOnId) ?? null),
        roleId: t.roleId,
        fetchPreviousData: t.fetchPreviousData,
        status: 'draft',
        dueDate: input.due_date ?? null,
        reminderOffset: null,
        settings: t.settings,
        formData: [],
        hasRequestedChanges: false,
        completedAt: null,
        completedById: null,
        createdAt: at,
        updatedAt: at,
      }));
      await tasks.insert(clientId, rows);
      for (const t of templates) {
        if (t.sha256 === null) continue;
        // The document to acknowledge: the task refers to the template's bytes (one more reference, no copy).
        await tasks.insertFile(clientId, {
          id: randomUUID(),
          taskId: taskIds.get(t.id) as string,
          role: 'document',
          fieldId: null,
          filename: t.filename ?? 'document',
          sha256: t.sha256,
          size: t.size ?? 0,
          contentType: t.contentType ?? 'application/octet-stream',
          createdAt: at,
        });
      }
      const process = (await repo.find(clientId, id)) as ProcessRecord;
      if (input.publish) await this.publishIn(repo, tasks, clientId, process, at);
      else await refreshProcess(repo, tasks, clientId, process, at);
      await this.recordProcess(clientId, tx, id, 'created');
    });
    return this.get(clientId, id);
  }

  private async publishIn(
    repo: ProcessesRepository,
    tasks: TasksRepository,
    clientId: HrTenantId,
    process: ProcessRecord,
    at: number,
  ): Promise<void> {
    if (process.published) {
      throw new StateError('process_already_published', `Process ${process.reference} is already published.`);
    }
    await repo.update(clientId, process.id, { state: 'pending', published: true, updatedAt: at });
    await startTasks(tasks, clientId, await tasks.ofProcesses(clientId, [process.id]), at);
    await refreshProcess(repo, tasks, clientId, { ...process, state: 'pending' }, at);
  }

  /** `PUT /processes/{id}/publish`: draft → pending; tasks become `to_do` or `blocked`. */
  async publish(clientId: HrTenantId, id: string): Promise<void> {
    await this.work.run(async (tx) => {
      const repo = tx.processes;
      const process = await repo.find(clientId, id);
      if (!process) throw new NotFoundError('process', id);
      await this.publishIn(repo, tx.tasks, clientId, process, this.clock.now());
      await this.recordProcess(clientId, tx, id, 'published');
    });
  }

  /** `DELETE /processes/{id}`: the process, its tasks, their files and events; unreferenced bytes are removed. */
  async delete(clientId: HrTenantId, id: string): Promise<void> {
    const blobs = await this.work.run(async (tx) => {
      const repo = tx.processes;
      if (!(await repo.find(clientId, id))) throw new NotFoundError('process', id);
      await this.recordProcess(clientId, tx, id, 'deleted');
      const held = await tx.tasks.deleteOfProcess(clientId, id);
      await tx.postActions.deleteOfProcess(clientId, id);
      await repo.delete(clientId, id);
      return held;
    });
    for (const sha256 of new Set(blobs)) await this.blobs.deleteIfUnreferenced(sha256);
  }
}
