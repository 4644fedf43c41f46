import { formatDateTime } from '../../../platform/time.js';
import type { UserRecord } from './repository.js';
import type { User } from './schemas.js';

export function presentUser(row: UserRecord): User {
  return {
    id: row.id,
    external_id: row.externalId,
    firstname: row.firstname,
    lastname: row.lastname,
    middlename: row.middlename,
    email: row.email,
    language: row.language,
    timezone: row.timezone,
    mobile_phone_number: row.mobilePhoneNumber,
    profiles: row.profiles.map((p) => ({ id: p.id, role_id: p.roleId, employees_perimeter: p.employeesPerimeter })),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}
