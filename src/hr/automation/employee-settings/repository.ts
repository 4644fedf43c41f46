import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';

/** The welcome file: the document of an acknowledgment task, with the task's name. */
export interface WelcomeFileRecord {
  title: string;
  filename: string;
  sha256: string;
  size: number;
  contentType: string;
}

/** The onboarding of an employee: their latest published process, and its first acknowledgment document. */
export interface OnboardingRecord {
  employeeId: string;
  welcomeMessage: string | null;
  file: WelcomeFileRecord | null;
}

/** Reads what an employee's process automation settings are made of. Every query takes the client first. */
export class EmployeeSettingsRepository extends HrRepository {
  /** Undefined when the client has no such employee. */
  async onboarding(clientId: HrTenantId, employeeId: string): Promise<OnboardingRecord | undefined> {
    const t = this.tenant(clientId);
    const employee = await t.selectFrom('hr_employees').select('id').where('id', '=', employeeId).executeTakeFirst();
    if (!employee) return undefined;
    const process = await t
      .selectFrom('hr_processes')
      .select(['id', 'description'])
      .where('employee_id', '=', employeeId)
      .where('published', '=', 1)
      .orderBy('created_at', 'desc')
      .orderBy('pk', 'desc')
      .executeTakeFirst();
    if (!process) return { employeeId, welcomeMessage: null, file: null };
    const task = await t
      .selectFrom('hr_tasks')
      .select(['id', 'name'])
      .where('process_id', '=', process.id)
      .where('type', '=', 'acknowledgment')
      .orderBy('pk')
      .executeTakeFirst();
    const file = task
      ? await t
          .selectFrom('hr_task_files')
          .select(['filename', 'sha256', 'size', 'content_type'])
          .where('task_id', '=', task.id)
          .where('role', '=', 'document')
          .orderBy('pk')
          .executeTakeFirst()
      : undefined;
    return {
      employeeId,
      welcomeMessage: process.description,
      file:
        task && file
          ? {
              title: task.name,
              filename: file.filename,
              sha256: file.sha256,
              size: Number(file.size),
              contentType: file.content_type,
            }
          : null,
    };
  }
}
