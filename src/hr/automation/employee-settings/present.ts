import type { OnboardingRecord } from './repository.js';
import type { EmployeeSettingsProcessAutomation } from './schemas.js';

export function presentEmployeeSettings(row: OnboardingRecord): EmployeeSettingsProcessAutomation {
  return {
    employee_id: row.employeeId,
    onboarding: {
      welcome_message: row.welcomeMessage,
      welcome_file_filename: row.file?.filename ?? null,
      welcome_file_title: row.file?.title ?? null,
    },
  };
}
