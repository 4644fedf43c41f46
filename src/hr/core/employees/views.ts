/** Employees as their responses show them: registrations, labelled custom values, status (read by the service). */

import type { HrTenantId } from '../../../platform/db/tenant.js';
import { type Clock, dayOf } from '../../../platform/time.js';
import type { CustomFieldDef } from '../custom-fields/service.js';
import type { EmployeeRecord, EmployeesRepository, EmployeeView, RegistrationRecord } from './repository.js';

export function today(clock: Clock): string {
  return dayOf(clock.now());
}

/**
 * Employees as their responses show them, read through `repo` (the read repository, or a unit of work's inside its
 * transaction) with the client's custom field definitions `defs`.
 */
export async function viewsOf(
  repo: EmployeesRepository,
  clientId: HrTenantId,
  rows: EmployeeRecord[],
  defs: Map<string, CustomFieldDef>,
  clock: Clock,
): Promise<EmployeeView[]> {
  const ids = rows.map((r) => r.id);
  const [regs, values] = await Promise.all([repo.registrations(clientId, ids), repo.customValues(clientId, ids)]);
  const day = today(clock);
  return rows.map((row) => viewOf(row, regs.get(row.id) ?? [], labelled(values.get(row.id), defs), day));
}

/**
 * Custom values with their labels: the field's authorized value's label, else the field's label, else its id. The
 * employee GET reads the same rule in SQL (`findWithDetails` in the repository); a test compares the two.
 */
function labelled(values: Map<string, string> | undefined, defs: Map<string, CustomFieldDef>) {
  return [...(values ?? new Map<string, string>())].map(([code, value]) => {
    const def = defs.get(code);
    const label = def?.authorizedValues.find((v) => v.value === value)?.label ?? def?.row.label ?? code;
    return { code, value, label };
  });
}

/** An employee as its responses show it, from its rows and its labelled custom values. */
export function viewOf(
  row: EmployeeRecord,
  registrations: RegistrationRecord[],
  customFields: EmployeeView['customFields'],
  day: string,
): EmployeeView {
  const terminated = !registrations.some((r) => r.active);
  const departures = registrations.map((r) => r.departureDate).filter((d): d is string => d !== null);
  const departureDate = terminated && departures.length ? (departures.sort().at(-1) as string) : null;
  const status = terminated ? 'terminated' : row.startingDate && row.startingDate > day ? 'pre_hired' : 'active';
  return { row, registrations, customFields, status, terminated, departureDate };
}
