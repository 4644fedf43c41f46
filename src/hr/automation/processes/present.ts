import { formatDateTime } from '../../../platform/time.js';
import { presentTask, type TaskView } from '../tasks/present.js';
import type { ProcessRecord } from './repository.js';
import type { Process } from './schemas.js';

/** A process with its tasks (embedded) or their ids. */
export interface ProcessView {
  row: ProcessRecord;
  taskIds: string[];
  tasks?: TaskView[];
}

export function presentProcess(view: ProcessView): Process {
  const { row } = view;
  return {
    id: row.id,
    title: row.title,
    public_title: row.publicTitle,
    reference: row.reference,
    employee_id: row.employeeId,
    creator_id: row.creatorId,
    process_template_id: row.processTemplateId,
    description: row.description,
    publication_date: row.publicationDate,
    due_date: row.dueDate,
    state: row.state,
    employee_status: row.doneEmployeeTasksCount === row.employeeTasksCount ? 'done' : 'pending',
    company_status: row.doneCompanyTasksCount === row.companyTasksCount ? 'done' : 'pending',
    employee_tasks_count: row.employeeTasksCount,
    company_tasks_count: row.companyTasksCount,
    done_employee_tasks_count: row.doneEmployeeTasksCount,
    done_company_tasks_count: row.doneCompanyTasksCount,
    published: row.published,
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
    completed_at: row.completedAt === null ? null : formatDateTime(row.completedAt),
    ...(view.tasks ? { tasks: view.tasks.map((t) => presentTask(t)) } : { tasks_ids: view.taskIds }),
  };
}
