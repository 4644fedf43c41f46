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
  KbArticle,
  Organization,
  Process,
  Request,
  Task,
  User,
} from '../../src/client/index.js';

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
