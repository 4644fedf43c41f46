import type { Selectable } from 'kysely';
import type { Tables } from '../../../platform/db/schema.js';
import type { FormAnswer, FormDefinition } from '../../core/forms/schemas.js';
import type { TaskSettings } from '../process-templates/schemas.js';
import type { TaskRow, TasksRepository } from './repository.js';

/** A process as the task rules read it. */
export type ProcessRow = Selectable<Tables['hr_processes']>;

/**
 * What the task rules need of the processes' storage. The processes repository answers it; tasks name only this
 * interface, so tasks never import processes (processes import tasks).
 */
export interface ProcessStore {
  find(clientId: string, id: string): Promise<ProcessRow | undefined>;
  update(clientId: string, id: string, values: Partial<Omit<ProcessRow, 'pk' | 'client_id' | 'id'>>): Promise<void>;
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
export function formOf(task: Pick<TaskRow, 'settings'>): FormDefinition {
  return task.settings.formidable ?? { fields: [], conditions: [] };
}

/** Publication: draft tasks become `to_do`, or `blocked` while their dependency is not completed. */
export async function startTasks(tasks: TasksRepository, clientId: string, rows: TaskRow[], at: number): Promise<void> {
  const status = new Map(rows.map((t) => [t.id, t.status]));
  for (const task of rows) {
    if (task.status !== 'draft') continue;
    const waiting = task.depends_on_id !== null && status.get(task.depends_on_id) !== 'completed';
    await tasks.update(clientId, task.id, { status: waiting ? 'blocked' : 'to_do', updated_at: at });
  }
}

/**
 * After `completed` is completed: the blocked tasks that depend on it become `to_do`. A form task that fetches
 * previous data starts with the answers of the completed task to the fields both forms share (a draft it already
 * has wins).
 */
export async function unblockDependants(
  tasks: TasksRepository,
  clientId: string,
  completed: TaskRow,
  siblings: TaskRow[],
  at: number,
): Promise<void> {
  for (const task of siblings) {
    if (task.depends_on_id !== completed.id || task.status !== 'blocked') continue;
    const values: { status: 'to_do'; updated_at: number; form_data?: FormAnswer[] } = {
      status: 'to_do',
      updated_at: at,
    };
    if (task.fetch_previous_data === 1 && (task.type === 'fill_form' || task.type === 'fill_pdf')) {
      const slugs = new Set(formOf(task).fields.map((f) => f.slug));
      const own = task.form_data;
      const mine = new Set(own.map((a) => a.field_id));
      const inherited = completed.form_data.filter((a) => slugs.has(a.field_id) && !mine.has(a.field_id));
      if (inherited.length) values.form_data = [...own, ...inherited];
    }
    await tasks.update(clientId, task.id, values);
  }
}

/** Recounts the process from its tasks and sets its state; answers the updated row. */
export async function refreshProcess(
  processes: ProcessStore,
  tasks: TasksRepository,
  clientId: string,
  process: ProcessRow,
  at: number,
): Promise<void> {
  const rows = await tasks.ofProcesses(clientId, [process.id]);
  const employee = rows.filter((t) => t.assigned_to === 'employee');
  const company = rows.filter((t) => t.assigned_to === 'users');
  const done = (list: TaskRow[]) => list.filter((t) => t.status === 'completed').length;
  const allDone = rows.every((t) => t.status === 'completed');
  const state = process.state === 'draft' ? 'draft' : allDone ? 'done' : 'pending';
  await processes.update(clientId, process.id, {
    employee_tasks_count: employee.length,
    company_tasks_count: company.length,
    done_employee_tasks_count: done(employee),
    done_company_tasks_count: done(company),
    state,
    completed_at: state === 'done' ? (process.completed_at ?? at) : null,
    updated_at: at,
  });
}
