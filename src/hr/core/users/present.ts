import { formatDateTime } from '../../../platform/time.js';
import type { UserWithProfiles } from './repository.js';
import type { User } from './schemas.js';

export function presentUser(row: UserWithProfiles): User {
  return {
    id: row.id,
    external_id: row.external_id,
    firstname: row.firstname,
    lastname: row.lastname,
    middlename: row.middlename,
    email: row.email,
    language: row.language,
    timezone: row.timezone,
    mobile_phone_number: row.mobile_phone_number,
    profiles: row.profiles,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}
