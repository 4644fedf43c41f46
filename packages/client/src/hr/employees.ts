/** Employees (`/employees`), with search, upsert by external id and bulk calls. */

import type { RequestOptions } from '../http.js';
import type { AutoPager } from '../pagination.js';
import type {
  Employee,
  EmployeeBulkPatchItem,
  EmployeeBulkPutItem,
  EmployeeBulkStatus,
  EmployeeByExternalId,
  EmployeeCreate,
  EmployeeListQuery,
  EmployeePatch,
  EmployeeSearchBody,
} from '../schemas/hr/core/employees.js';
import { bulkCalls } from './bulk.js';
import { enc, type HrCore, type Id, type Verbs } from './core.js';

/** `hr.employees`. */
export function employees(core: HrCore, v: Verbs) {
  const path = '/employees';
  return {
    list: v.list<Employee, EmployeeListQuery>(path),
    create: v.create<EmployeeCreate, Employee>(path),
    /** `POST /employees/search`: filters in the body; pages follow `next_cursor`. */
    search: (body?: Omit<EmployeeSearchBody, 'next_cursor'>, options?: RequestOptions): AutoPager<Employee> =>
      core.searchPager<Employee>(`${path}/search`, body as Record<string, unknown>, options),
    retrieve: v.retrieve<Employee>(path),
    upsert: v.upsert<EmployeeCreate, Employee>(path),
    update: v.update<EmployeePatch, Employee>(path),
    /** `PUT /employees/by_external_id/{external_id}`: creates (201) or replaces the employee with that id. */
    upsertByExternalId: (externalId: Id, body: EmployeeByExternalId, options?: RequestOptions): Promise<Employee> =>
      core.json('PUT', `${path}/by_external_id/${enc(externalId)}`, { body }, options),
    /** Mails the portal invitation (a follow-up when one was sent): the outbox. */
    portalInvite: async (id: Id, options?: RequestOptions): Promise<void> => {
      await core.json<undefined>('POST', `${path}/${enc(id)}/portal_invite`, {}, options);
    },
    /** `/employees/bulk`: up to 1000 employees a call, applied in the background; `waitFor` polls the result. */
    bulk: bulkCalls<EmployeeCreate, EmployeeBulkPutItem, EmployeeBulkPatchItem, EmployeeBulkStatus>(
      core,
      `${path}/bulk`,
    ),
  };
}
