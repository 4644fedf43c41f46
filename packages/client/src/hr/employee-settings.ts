/** Employee settings (`/employee_settings/{employee_id}/process_automation`). */

import type { RequestOptions } from '../http.js';
import type { EmployeeSettingsProcessAutomation } from '../schemas/hr/automation/employee-settings.js';
import { type DownloadResponse, enc, type HrCore, type Id } from './core.js';

/** `hr.employeeSettings`. */
export function employeeSettings(core: HrCore) {
  const path = (employeeId: Id) => `/employee_settings/${enc(employeeId)}/process_automation`;
  return {
    /** The employee's process automation settings: the onboarding welcome. */
    processAutomation: (employeeId: Id, options?: RequestOptions): Promise<EmployeeSettingsProcessAutomation> =>
      core.json('GET', path(employeeId), {}, options),
    /** Downloads the welcome file (raw `Response`; 404 when there is none). */
    welcomeFile: (employeeId: Id, options?: RequestOptions): Promise<DownloadResponse> =>
      core.download(`${path(employeeId)}/welcome_file`, options),
  };
}
