import type { HrTenantId } from '../../../platform/db/tenant.js';
import { type FieldError, FieldValidationError, NotFoundError } from '../../../platform/errors.js';
import type { EmployeesService } from '../../core/employees/service.js';
import type { DocumentTypesService } from '../document-types/service.js';

/** What the redirections are about: each id checked to exist in the client. */
export interface RedirectionTargets {
  employeeId: string | null;
  /** `doctype_id` when it is an employee document type. */
  employeeDocumentTypeId: string | null;
  /** `doctype_id` when it is a company document type. */
  companyDocumentTypeId: string | null;
}

async function exists(lookup: Promise<unknown>): Promise<boolean> {
  try {
    await lookup;
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}

/**
 * `GET /redirection_urls` (reference §3c.6; docs/hr-api.md, "Redirection URLs"): checks what the query names; the
 * URLs themselves are the client API's own (present.ts).
 */
export class RedirectionUrlsService {
  constructor(private readonly deps: { employees: EmployeesService; documentTypes: DocumentTypesService }) {}

  async targets(clientId: HrTenantId, query: { employeeId?: string; doctypeId?: string }): Promise<RedirectionTargets> {
    const errors: FieldError[] = [];
    const { employeeId, doctypeId } = query;
    if (employeeId !== undefined && !(await exists(this.deps.employees.get(clientId, employeeId)))) {
      errors.push({ field: 'employee_id', code: 'not_found', message: 'No employee has this id.' });
    }
    let employeeType = false;
    let companyType = false;
    if (doctypeId !== undefined) {
      employeeType = await exists(this.deps.documentTypes.get(clientId, 'employee', doctypeId));
      companyType = await exists(this.deps.documentTypes.get(clientId, 'company', doctypeId));
      if (!employeeType && !companyType) {
        errors.push({
          field: 'doctype_id',
          code: 'not_found',
          message: 'No employee or company document type has this id.',
        });
      }
    }
    if (errors.length > 0) throw new FieldValidationError(errors);
    return {
      employeeId: employeeId ?? null,
      employeeDocumentTypeId: employeeType ? (doctypeId as string) : null,
      companyDocumentTypeId: companyType ? (doctypeId as string) : null,
    };
  }
}
