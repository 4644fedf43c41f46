import { type Selectable, sql, type Updateable } from 'kysely';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { FormAnswer } from '../../core/forms/schemas.js';
import type { TaskSettings } from '../process-templates/schemas.js';
import type { TaskAssignee, TaskType } from '../process-templates/tables.js';
import type { HrTaskFilesTable, HrTasksTable, HrTaskValidationEventsTable, TaskStatus } from './tables.js';

type StoredTask = Selectable<HrTasksTable>;

/** A task as the domain sees it: its settings (copied from its template) and saved answers decoded. */
export interface TaskRecord {
  pk: number;
  id: string;
  processId: string;
  templateTaskId: string;
  type: TaskType;
  name: string;
  description: string;
  assignedTo: TaskAssignee;
  dependsOnId: string | null;
  roleId: string | null;
  fetchPreviousData: boolean;
  status: TaskStatus;
  dueDate: string | null;
  reminderOffset: number | null;
  settings: TaskSettings;
  formData: FormAnswer[];
  hasRequestedChanges: boolean;
  completedAt: number | null;
  completedById: string | null;
  createdAt: number;
  updatedAt: number;
}

export type NewTask = Omit<TaskRecord, 'pk'>;

/** What changes on a task after its creation. */
export type TaskChanges = Partial<
  Pick<
    TaskRecord,
    | 'status'
    | 'dueDate'
    | 'reminderOffset'
    | 'formData'
    | 'hasRequestedChanges'
    | 'completedAt'
    | 'completedById'
    | 'updatedAt'
  >
>;

function toColumns(values: TaskChanges): Updateable<HrTasksTable> {
  const columns: Updateable<HrTasksTable> = {};
  if (values.status !== undefined) columns.status = values.status;
  if (values.dueDate !== undefined) columns.due_date = values.dueDate;
  if (values.reminderOffset !== undefined) columns.reminder_offset = values.reminderOffset;
  if (values.formData !== undefined) columns.form_data = JSON.stringify(values.formData);
  if (values.hasRequestedChanges !== undefined) columns.has_requested_changes = values.hasRequestedChanges ? 1 : 0;
  if (values.completedAt !== undefined) columns.completed_at = values.completedAt;
  if (values.completedById !== undefined) columns.completed_by_id = values.completedById;
  if (values.updatedAt !== undefined) columns.updated_at = values.updatedAt;
  return columns;
}

/** A file a task holds: the document to acknowledge, a form file, or the completed file. */
export interface TaskFileRecord {
  pk: number;
  id: string;
  taskId: string;
  role: HrTaskFilesTable['role'];
  fieldId: string | null;
  filename: string;
  sha256: string;
  size: number;
  contentType: string;
  createdAt: number;
}
export type NewTaskFile = Omit<TaskFileRecord, 'pk'>;
/** The bytes of a task file (what a replacement changes). */
export type TaskFileBytes = Pick<TaskFileRecord, 'filename' | 'sha256' | 'size' | 'contentType'>;

/** A validation task's review, as it is recorded. */
export interface NewValidationEvent {
  taskId: string;
  reviewedTaskId: string | null;
  state: HrTaskValidationEventsTable['state'];
  reason: string | null;
  completedById: string | null;
  createdAt: number;
}

/** A person a task names (who completed it). */
export interface TaskPersonRecord {
  id: string;
  firstname: string;
  lastname: string;
  email: string | null;
  externalId: string | null;
}

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
      key: (r: StoredTask) => Number(r.completed_at ?? 0),
    },
    created_at: 'created_at',
    due_date: { column: 'due_date', expression: sql`coalesce(due_date, '')`, key: (r: StoredTask) => r.due_date ?? '' },
  },
  tiebreak: 'pk',
};

function toRecord(row: StoredTask): TaskRecord {
  return {
    pk: row.pk,
    id: row.id,
    processId: row.process_id,
    templateTaskId: row.template_task_id,
    type: row.type,
    name: row.name,
    description: row.description,
    assignedTo: row.assigned_to,
    dependsOnId: row.depends_on_id,
    roleId: row.role_id,
    fetchPreviousData: row.fetch_previous_data === 1,
    status: row.status,
    dueDate: row.due_date,
    reminderOffset: row.reminder_offset,
    settings: JSON.parse(row.settings) as TaskSettings,
    formData: JSON.parse(row.form_data) as FormAnswer[],
    hasRequestedChanges: row.has_requested_changes === 1,
    completedAt: row.completed_at === null ? null : Number(row.completed_at),
    completedById: row.completed_by_id,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toFileRecord(row: Selectable<HrTaskFilesTable>): TaskFileRecord {
  return {
    pk: row.pk,
    id: row.id,
    taskId: row.task_id,
    role: row.role,
    fieldId: row.field_id,
    filename: row.filename,
    sha256: row.sha256,
    size: Number(row.size),
    contentType: row.content_type,
    createdAt: Number(row.created_at),
  };
}

function toPersonRecord(row: TaskPersonRow): TaskPersonRecord {
  return {
    id: row.id,
    firstname: row.firstname,
    lastname: row.lastname,
    email: row.email,
    externalId: row.external_id,
  };
}

interface TaskPersonRow {
  id: string;
  firstname: string;
  lastname: string;
  email: string | null;
  external_id: string | null;
}

function fileBytesColumns(bytes: TaskFileBytes) {
  return { filename: bytes.filename, sha256: bytes.sha256, size: bytes.size, content_type: bytes.contentType };
}

/** Tasks, the files they hold and their validation events. Every query takes the client first. */
export class TasksRepository extends HrRepository {
  private scoped(clientId: HrTenantId) {
    return this.tenant(clientId).selectFrom('hr_tasks').selectAll();
  }

  /** A page in the given order (then by insertion, in the first key's direction, to break ties). */
  async page(clientId: HrTenantId, f: TaskQuery, request: PageRequest<TaskSortField>): Promise<Page<TaskRecord>> {
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
    return { ...page, items: page.items.map(toRecord) };
  }

  async find(clientId: HrTenantId, id: string): Promise<TaskRecord | undefined> {
    const row = await this.scoped(clientId).where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async ofProcesses(clientId: HrTenantId, processIds: string[]): Promise<TaskRecord[]> {
    if (processIds.length === 0) return [];
    const rows = await this.scoped(clientId).where('process_id', 'in', processIds).orderBy('pk').execute();
    return rows.map(toRecord);
  }

  async insert(clientId: HrTenantId, tasks: NewTask[]): Promise<void> {
    if (tasks.length)
      await this.tenant(clientId)
        .insertInto(
          'hr_tasks',
          tasks.map((t) => ({
            id: t.id,
            process_id: t.processId,
            template_task_id: t.templateTaskId,
            type: t.type,
            name: t.name,
            description: t.description,
            assigned_to: t.assignedTo,
            depends_on_id: t.dependsOnId,
            role_id: t.roleId,
            fetch_previous_data: t.fetchPreviousData ? 1 : 0,
            status: t.status,
            due_date: t.dueDate,
            reminder_offset: t.reminderOffset,
            settings: JSON.stringify(t.settings),
            form_data: JSON.stringify(t.formData),
            has_requested_changes: t.hasRequestedChanges ? 1 : 0,
            completed_at: t.completedAt,
            completed_by_id: t.completedById,
            created_at: t.createdAt,
            updated_at: t.updatedAt,
          })),
        )
        .execute();
  }

  async update(clientId: HrTenantId, id: string, values: TaskChanges): Promise<void> {
    await this.tenant(clientId).updateTable('hr_tasks').set(toColumns(values)).where('id', '=', id).execute();
  }

  /** Deletes the tasks of a process with their files and events; answers the blobs the files held. */
  async deleteOfProcess(clientId: HrTenantId, processId: string): Promise<string[]> {
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

  async files(clientId: HrTenantId, taskIds: string[]): Promise<TaskFileRecord[]> {
    if (taskIds.length === 0) return [];
    const rows = await this.tenant(clientId)
      .selectFrom('hr_task_files')
      .selectAll()
      .where('task_id', 'in', taskIds)
      .orderBy('pk')
      .execute();
    return rows.map(toFileRecord);
  }

  async file(clientId: HrTenantId, taskId: string, id: string): Promise<TaskFileRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_task_files')
      .selectAll()
      .where('task_id', '=', taskId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toFileRecord(row) : undefined;
  }

  async insertFile(clientId: HrTenantId, file: NewTaskFile): Promise<void> {
    await this.tenant(clientId)
      .insertInto('hr_task_files', {
        id: file.id,
        task_id: file.taskId,
        role: file.role,
        field_id: file.fieldId,
        ...fileBytesColumns(file),
        created_at: file.createdAt,
      })
      .execute();
  }

  async updateFile(clientId: HrTenantId, id: string, bytes: TaskFileBytes): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_task_files')
      .set(fileBytesColumns(bytes))
      .where('id', '=', id)
      .execute();
  }

  async deleteFile(clientId: HrTenantId, id: string): Promise<void> {
    await this.tenant(clientId).deleteFrom('hr_task_files').where('id', '=', id).execute();
  }

  // ------------------------------------------------------------ validation events

  /** Event ids per task (as the validation task, or as the reviewed one), latest first. */
  async eventIds(clientId: HrTenantId, taskIds: string[]): Promise<Map<string, number[]>> {
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

  async insertEvent(clientId: HrTenantId, event: NewValidationEvent): Promise<void> {
    await this.tenant(clientId)
      .insertInto('hr_task_validation_events', {
        task_id: event.taskId,
        reviewed_task_id: event.reviewedTaskId,
        state: event.state,
        reason: event.reason,
        completed_by_id: event.completedById,
        created_at: event.createdAt,
      })
      .execute();
  }

  // ------------------------------------------------------------ people

  async user(clientId: HrTenantId, id: string): Promise<TaskPersonRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_users')
      .select(['id', 'firstname', 'lastname', 'email', 'external_id'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toPersonRecord(row) : undefined;
  }

  async employee(clientId: HrTenantId, id: string): Promise<TaskPersonRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_employees')
      .select(['id', 'firstname', 'lastname', 'email', 'external_id'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toPersonRecord(row) : undefined;
  }
}
