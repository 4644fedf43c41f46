import { type Insertable, type Selectable, sql } from 'kysely';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { FormAnswer } from '../../core/forms/schemas.js';
import type { TaskSettings } from '../process-templates/schemas.js';
import type { TaskType } from '../process-templates/tables.js';
import type { HrTaskFilesTable, HrTasksTable, HrTaskValidationEventsTable, TaskStatus } from './tables.js';

type StoredTask = Selectable<HrTasksTable>;

/** A task as the domain sees it: its settings (copied from its template) and saved answers decoded. */
export type TaskRow = Omit<StoredTask, 'settings' | 'form_data'> & { settings: TaskSettings; form_data: FormAnswer[] };

export type NewTask = Omit<Insertable<HrTasksTable>, 'pk' | 'settings' | 'form_data'> & {
  settings: TaskSettings;
  form_data: FormAnswer[];
};

function toColumns<V extends { settings?: TaskSettings; form_data?: FormAnswer[] }>(values: V) {
  const { settings, form_data, ...plain } = values;
  return {
    ...plain,
    ...(settings !== undefined ? { settings: JSON.stringify(settings) } : {}),
    ...(form_data !== undefined ? { form_data: JSON.stringify(form_data) } : {}),
  };
}
export type TaskFileRow = Selectable<HrTaskFilesTable>;
export type NewTaskFile = Omit<Insertable<HrTaskFilesTable>, 'pk'>;
export type ValidationEventRow = Selectable<HrTaskValidationEventsTable>;

/** Parsed, checked filters of `GET /tasks`. */
export interface TaskQuery {
  status?: TaskStatus;
  type?: TaskType;
  templateTaskId?: string;
  processId?: string;
  completedSince?: number;
  completedUntil?: number;
  hasRequestedChanges?: boolean;
  hasDueDate?: boolean;
}

export type TaskSortField = 'completed_at' | 'created_at' | 'due_date';
/** What each sortable field orders by: a missing date sorts as the earliest (never a null key). */
const ORDER: ListOrder<TaskSortField> = {
  fields: {
    completed_at: {
      column: 'completed_at',
      expression: sql`coalesce(completed_at, 0)`,
      key: (r: TaskRow) => Number(r.completed_at ?? 0),
    },
    created_at: 'created_at',
    due_date: { column: 'due_date', expression: sql`coalesce(due_date, '')`, key: (r: TaskRow) => r.due_date ?? '' },
  },
  tiebreak: 'pk',
};

export function normalizeTask(row: StoredTask): TaskRow {
  return {
    ...row,
    settings: JSON.parse(row.settings) as TaskSettings,
    form_data: JSON.parse(row.form_data) as FormAnswer[],
    completed_at: row.completed_at === null ? null : Number(row.completed_at),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

function normalizeFile(row: TaskFileRow): TaskFileRow {
  return { ...row, size: Number(row.size), created_at: Number(row.created_at) };
}

/** Tasks, the files they hold and their validation events. Every query takes the client first. */
export class TasksRepository extends HrRepository {
  private scoped(clientId: string) {
    return this.tenant(clientId).selectFrom('hr_tasks').selectAll();
  }

  /** A page in the given order (then by insertion, in the first key's direction, to break ties). */
  async page(clientId: string, f: TaskQuery, request: PageRequest<TaskSortField>): Promise<Page<TaskRow>> {
    let q = this.scoped(clientId);
    if (f.status !== undefined) q = q.where('status', '=', f.status);
    if (f.type !== undefined) q = q.where('type', '=', f.type);
    if (f.templateTaskId !== undefined) q = q.where('template_task_id', '=', f.templateTaskId);
    if (f.processId !== undefined) q = q.where('process_id', '=', f.processId);
    if (f.completedSince !== undefined) q = q.where('completed_at', '>=', f.completedSince);
    if (f.completedUntil !== undefined) q = q.where('completed_at', '<', f.completedUntil);
    if (f.hasRequestedChanges !== undefined) q = q.where('has_requested_changes', '=', f.hasRequestedChanges ? 1 : 0);
    if (f.hasDueDate !== undefined) q = q.where('due_date', f.hasDueDate ? 'is not' : 'is', null);
    const page = await listPage(q, ORDER, request);
    return { ...page, items: page.items.map(normalizeTask) };
  }

  async find(clientId: string, id: string): Promise<TaskRow | undefined> {
    const row = await this.scoped(clientId).where('id', '=', id).executeTakeFirst();
    return row ? normalizeTask(row) : undefined;
  }

  async ofProcesses(clientId: string, processIds: string[]): Promise<TaskRow[]> {
    if (processIds.length === 0) return [];
    const rows = await this.scoped(clientId).where('process_id', 'in', processIds).orderBy('pk').execute();
    return rows.map(normalizeTask);
  }

  async insert(rows: NewTask[]): Promise<void> {
    if (rows.length)
      await this.db
        .insertInto('hr_tasks')
        .values(rows.map((r) => toColumns(r) as Insertable<HrTasksTable>))
        .execute();
  }

  async update(clientId: string, id: string, values: Partial<NewTask>): Promise<void> {
    await this.tenant(clientId).updateTable('hr_tasks').set(toColumns(values)).where('id', '=', id).execute();
  }

  /** Deletes the tasks of a process with their files and events; answers the blobs the files held. */
  async deleteOfProcess(clientId: string, processId: string): Promise<string[]> {
    const ids = (
      await this.tenant(clientId).selectFrom('hr_tasks').select('id').where('process_id', '=', processId).execute()
    ).map((r) => r.id);
    if (ids.length === 0) return [];
    const files = await this.tenant(clientId)
      .deleteFrom('hr_task_files')
      .where('task_id', 'in', ids)
      .returning('sha256')
      .execute();
    await this.tenant(clientId).deleteFrom('hr_task_validation_events').where('task_id', 'in', ids).execute();
    await this.tenant(clientId).deleteFrom('hr_tasks').where('id', 'in', ids).execute();
    return files.map((f) => f.sha256);
  }

  // ------------------------------------------------------------ files

  async files(clientId: string, taskIds: string[]): Promise<TaskFileRow[]> {
    if (taskIds.length === 0) return [];
    const rows = await this.tenant(clientId)
      .selectFrom('hr_task_files')
      .selectAll()
      .where('task_id', 'in', taskIds)
      .orderBy('pk')
      .execute();
    return rows.map(normalizeFile);
  }

  async file(clientId: string, taskId: string, id: string): Promise<TaskFileRow | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_task_files')
      .selectAll()
      .where('task_id', '=', taskId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? normalizeFile(row) : undefined;
  }

  async insertFile(row: NewTaskFile): Promise<void> {
    await this.db.insertInto('hr_task_files').values(row).execute();
  }

  async updateFile(clientId: string, id: string, values: Partial<NewTaskFile>): Promise<void> {
    await this.tenant(clientId).updateTable('hr_task_files').set(values).where('id', '=', id).execute();
  }

  async deleteFile(clientId: string, id: string): Promise<void> {
    await this.tenant(clientId).deleteFrom('hr_task_files').where('id', '=', id).execute();
  }

  // ------------------------------------------------------------ validation events

  /** Event ids per task (as the validation task, or as the reviewed one), latest first. */
  async eventIds(clientId: string, taskIds: string[]): Promise<Map<string, number[]>> {
    const out = new Map<string, number[]>();
    if (taskIds.length === 0) return out;
    const rows = await this.tenant(clientId)
      .selectFrom('hr_task_validation_events')
      .select(['id', 'task_id', 'reviewed_task_id'])
      .where((eb) => eb.or([eb('task_id', 'in', taskIds), eb('reviewed_task_id', 'in', taskIds)]))
      .orderBy('id', 'desc')
      .execute();
    for (const r of rows) {
      for (const t of new Set([r.task_id, r.reviewed_task_id])) {
        if (t !== null && taskIds.includes(t)) out.set(t, [...(out.get(t) ?? []), Number(r.id)]);
      }
    }
    return out;
  }

  async insertEvent(row: Omit<Insertable<HrTaskValidationEventsTable>, 'id'>): Promise<void> {
    await this.db.insertInto('hr_task_validation_events').values(row).execute();
  }

  // ------------------------------------------------------------ people

  async user(clientId: string, id: string) {
    return this.tenant(clientId)
      .selectFrom('hr_users')
      .select(['id', 'firstname', 'lastname', 'email', 'external_id'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async employee(clientId: string, id: string) {
    return this.tenant(clientId)
      .selectFrom('hr_employees')
      .select(['id', 'firstname', 'lastname', 'email', 'external_id'])
      .where('id', '=', id)
      .executeTakeFirst();
  }
}
