import { formatDateTime } from '../../../platform/time.js';
import { presentTask, type TaskView } from '../tasks/present.js';
import type { ProcessRow } from './repository.js';
import type { Process } from './schemas.js';

/** A process with its tasks (embedded) or their ids. */
export interface ProcessView {
  row: ProcessRow;
  taskIds: string[];
  tasks?: TaskView[];
}

export function presentProcess(view: ProcessView): Process {
  const { row } = view;
  return {
    id: row.id,
    title: row.title,
    public_title: row.public_title,
    reference: row.reference,
    employee_id: row.employee_id,
    creator_id: row.creator_id,
    process_template_id: row.process_template_id,
    description: row.description,
    publication_date: row.publication_date,
    due_date: row.due_date,
    state: row.state,
    employee_status: row.done_employee_tasks_count === row.employee_tasks_count ? 'done' : 'pending',
    company_status: row.done_company_tasks_count === row.company_tasks_count ? 'done' : 'pending',
    employee_tasks_count: row.employee_tasks_count,
    company_tasks_count: row.company_tasks_count,
    done_employee_tasks_count: row.done_employee_tasks_count,
    done_company_tasks_count: row.done_company_tasks_count,
    published: row.published === 1,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
    completed_at: row.completed_at === null ? null : formatDateTime(row.completed_at),
    ...(view.tasks ? { tasks: view.tasks.map((t) => presentTask(t)) } : { tasks_ids: view.taskIds }),
  };
}
