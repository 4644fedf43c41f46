/**
 * The SDK's model types are importable by name from the package entry (`atrium/client`). `npm run lint` compiles
 * this file (`tsc --noEmit`), so a missing or renamed type fails the lint; the runtime test only proves the file
 * loads nothing of the server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  AcademyEvent,
  AcademyRegistration,
  AcademyUser,
  CompanyDocument,
  Employee,
  EmployeeDocument,
  EmployeeDocumentType,
  HrClient,
  KbArticle,
  ListParams,
  Organization,
  Process,
  Request,
  Task,
  User,
} from '@atrium/client';

describe('SDK model types by name', () => {
  it('type-check the objects the APIs answer with', () => {
    const organization: Pick<Organization, 'id' | 'name' | 'has_children'> = {
      id: 'paris',
      name: 'Paris',
      has_children: false,
    };
    const employee: Pick<Employee, 'firstname' | 'lastname'> = { firstname: 'Ada', lastname: 'Lovelace' };
    const pick = <T>(value: T) => value;
    const names: string[] = [organization.name, employee.firstname];
    // Field types are the schema's own: a request's status is its union, an event's id a number.
    const status: Request['status'] = 'opened';
    const eventId: AcademyEvent['id'] = 12;
    const userId: AcademyUser['id'] = 101;
    const models: unknown[] = [
      pick<Partial<User>>({}),
      pick<Partial<Process>>({}),
      pick<Partial<Task>>({}),
      pick<Partial<KbArticle>>({}),
      pick<Partial<EmployeeDocument>>({}),
      pick<Partial<CompanyDocument>>({}),
      pick<Partial<EmployeeDocumentType>>({}),
      pick<Partial<AcademyRegistration>>({}),
    ];
    assert.deepEqual(names, ['Paris', 'Ada']);
    assert.equal(status, 'opened');
    assert.equal(eventId + userId, 113);
    assert.equal(models.length, 8);
  });
});

/** The parameters of a list method of the client. */
type ParamsOf<M> = M extends (params?: infer P, ...rest: never[]) => unknown ? NonNullable<P> : never;

describe('comma-separated enum filters are typed as their enums', () => {
  it('accept one value or an array of the values, and refuse others at compile time', () => {
    const requests: ParamsOf<HrClient['requests']['list']> = {
      status: ['opened', 'pending'],
      priority: '3',
      embed: ['creator', 'closed_by'],
      sort: ['-updated_at', 'created_at'],
    };
    // @ts-expect-error: not a request status
    const badStatus: ParamsOf<HrClient['requests']['list']> = { status: ['opened', 'reopened'] };
    // @ts-expect-error: not a sort field of requests
    const badSort: ParamsOf<HrClient['requests']['list']> = { sort: '-colour' };
    const processes: ParamsOf<HrClient['processes']['list']> = { state: ['done', 'cancelled'] };
    // @ts-expect-error: not a process state
    const badState: ParamsOf<HrClient['processes']['list']> = { state: 'finished' };
    const tasks: ParamsOf<HrClient['tasks']['list']> = { sort: '-due_date' };
    const types: ListParams<NonNullable<ParamsOf<HrClient['employeeDocumentTypes']['list']>>> = {
      employee_access_permissions: ['preview', 'dl_original'],
    };
    // @ts-expect-error: not an access permission
    const badType: ParamsOf<HrClient['employeeDocumentTypes']['list']> = { employee_access_permissions: 'print' };
    // Free-text lists (organization codes) still take any strings.
    const free: ParamsOf<HrClient['requests']['list']> = { organization_id: ['paris', 'lyon'] };
    assert.equal([requests, badStatus, badSort, processes, badState, tasks, types, badType, free].length, 9);
  });
});
