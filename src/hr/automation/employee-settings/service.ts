import type { HrTenantId } from '../../../platform/db/tenant.js';
import { NotFoundError } from '../../../platform/errors.js';
import type { EmployeeSettingsRepository, OnboardingRecord, WelcomeFileRecord } from './repository.js';

/**
 * `GET /employee_settings/{employee_id}/process_automation` and its welcome file (reference §3a, "Employee
 * settings"): read-only, made of the employee's onboarding process (docs/hr-api.md, "Employee settings").
 */
export class EmployeeSettingsService {
  constructor(private readonly repo: EmployeeSettingsRepository) {}

  async processAutomation(clientId: HrTenantId, employeeId: string): Promise<OnboardingRecord> {
    const found = await this.repo.onboarding(clientId, employeeId);
    if (!found) throw new NotFoundError('employee', employeeId);
    return found;
  }

  /** The welcome file; 404 when the employee has none. */
  async welcomeFile(clientId: HrTenantId, employeeId: string): Promise<WelcomeFileRecord> {
    const { file } = await this.processAutomation(clientId, employeeId);
    if (!file) throw new NotFoundError('welcome file', employeeId);
    return file;
  }
}
