import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { FormDefinition } from '../../core/forms/schemas.js';
import type { TaskChanges, TaskRecord, TasksRepository } from './repository.js';

/** A process as the task rules read it (the processes repository's record answers it). */
export interface ProcessFacts {
  id: string;
  employeeId: string;
  state: Tables['hr_processes']['state'];
  completedAt: number | null;
}

/** What the task rules change on a process: its state and counters. */
export interface ProcessCounts {
  employeeTasksCount: number;
  companyTasksCount: number;
  doneEmployeeTasksCount: number;
  doneCompanyTasksCount: number;
  state: Tables['hr_processes']['state'];
  completedAt: number | null;
  updatedAt: number;
}

/**
 * What the task rules need of the processes' storage. The processes repository answers it; tasks name only this
 * interface, so tasks never import processes (processes import tasks).
 */
export interface ProcessStore {
  find(clientId: HrTenantId, id: string): Promise<ProcessFacts | undefined>;
  update(clientId: HrTenantId, id: string, values: ProcessCounts): Promise<void>;
}

/**
 * The state rules of a process and its tasks, run inside the transaction of
 * the change that calls them (so a process never shows counters or a state
 * its tasks contradict):
 *
 * - publishing turns every `draft` task into `blocked` (it depends on a task
 *   not completed yet) or `to_do`;
 * - completing a task turns the `blocked` tasks that depend on it into `to_do`;
 * - the process's counters and statuses are recounted from its tasks, and it is
 *   `done` (with `completed_at`) once every task is completed.
 */

/** The form a fill task asks to fill; a fill_pdf task without one has no fields. */
export function formOf(task: Pick<TaskRecord, 'settings'>): FormDefinition {
  return task.settings.formidable ?? { fields: [], conditions: [] };
}

/** Publication: draft tasks become `to_do`, or `blocked` while their dependency is not completed. */
export async function startTasks(
  tasks: TasksRepository,
  clientId: HrTenantId,
  rows: TaskRecord[],
  at: number,
): Promise<void> {
  const status = new Map(rows.map((t) => [t.id, t.status]));
  for (const task of rows) {
    if (task.status !== 'draft') continue;
    const waiting = task.dependsOnId !== null && status.get(task.dependsOnId) !== 'completed';
    await tasks.update(clientId, task.id, { status: waiting ? 'blocked' : 'to_do', updatedAt: at });
  }
}

/**
 * After `completed` is completed: the blocked tasks that depend on it become `to_do`. A form task that fetches
 * previous data starts with the answers of the completed task to the fields both forms share (a draft it already
 * has wins).
 */
export async function unblockDependants(
  tasks: TasksRepository,
  clientId: HrTenantId,
  completed: TaskRecord,
  siblings: TaskRecord[],
  at: number,
): Promise<void> {
  for (const task of siblings) {
    if (task.dependsOnId !== completed.id || task.status !== 'blocked') continue;
    const values: TaskChanges = { status: 'to_do', updatedAt: at };
    if (task.fetchPreviousData && (task.type === 'fill_form' || task.type === 'fill_pdf')) {
      const slugs = new Set(formOf(task).fields.map((f) => f.slug));
      const own = task.formData;
      const mine = new Set(own.map((a) => a.field_id));
      const inherited = completed.formData.filter((a) => slugs.has(a.field_id) && !mine.has(a.field_id));
      if (inherited.length) values.formData = [...own, ...inherited];
    }
    await tasks.update(clientId, task.id, values);
  }
}

/** Recounts the process from its tasks and sets its state; answers the updated row. */
export async function refreshProcess(
  processes: ProcessStore,
  tasks: TasksRepository,
  clientId: HrTenantId,
  process: ProcessFacts,
  at: number,
): Promise<void> {
  const rows = await tasks.ofProcesses(clientId, [process.id]);
  const employee = rows.filter((t) => t.assignedTo === 'employee');
  const company = rows.filter((t) => t.assignedTo === 'users');
  const done = (list: TaskRecord[]) => list.filter((t) => t.status === 'completed').length;
  const allDone = rows.every((t) => t.status === 'completed');
  const state = process.state === 'draft' ? 'draft' : allDone ? 'done' : 'pending';
  await processes.update(clientId, process.id, {
    employeeTasksCount: employee.length,
    companyTasksCount: company.length,
    doneEmployeeTasksCount: done(employee),
    doneCompanyTasksCount: done(company),
    state,
    completedAt: state === 'done' ? (process.completedAt ?? at) : null,
    updatedAt: at,
  });
}
