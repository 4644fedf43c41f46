import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { FieldError } from '../../../platform/errors.js';
import {
  type CustomFieldFacts,
  coversEmployee,
  type EmployeeFacts,
  type EmployeesPerimeter,
  type PerimeterInput,
  perimeterErrors,
  perimeterReferences,
  storedPerimeter,
} from './rules.js';

/** The facts perimeter rules read: which objects exist, and what decides an employee's coverage. */
export interface PerimeterFacts {
  existingOrganizations(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>>;
  existingGroups(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>>;
  customFields(clientId: HrTenantId, ids: readonly string[]): Promise<Map<string, CustomFieldFacts>>;
  employeeFacts(clientId: HrTenantId, employeeId: string): Promise<EmployeeFacts | undefined>;
}

/** Employee perimeters for resources that restrict something to some employees (request forms, …). */
export class PerimetersService {
  constructor(private readonly facts: PerimeterFacts) {}

  /** Checks perimeters as sent; answers them as stored, with field errors under `path`. */
  async check(
    clientId: HrTenantId,
    path: string,
    list: readonly PerimeterInput[],
  ): Promise<{ perimeters: EmployeesPerimeter[]; errors: FieldError[] }> {
    const refs = perimeterReferences(list);
    const known = {
      organizations: await this.facts.existingOrganizations(clientId, refs.organizations),
      groups: await this.facts.existingGroups(clientId, refs.groups),
      fields: await this.facts.customFields(clientId, refs.fields),
    };
    return {
      perimeters: list.map(storedPerimeter),
      errors: list.flatMap((p, i) => perimeterErrors(`${path}.${i}`, p, known)),
    };
  }

  /** Whether any perimeter covers the employee (an empty list covers everyone); undefined: no such employee. */
  async covers(
    clientId: HrTenantId,
    employeeId: string,
    perimeters: readonly EmployeesPerimeter[],
  ): Promise<boolean | undefined> {
    const facts = await this.facts.employeeFacts(clientId, employeeId);
    if (!facts) return undefined;
    return perimeters.length === 0 || perimeters.some((p) => coversEmployee(p, facts));
  }
}
