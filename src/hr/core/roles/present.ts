import { formatDateTime } from '../../../platform/time.js';
import type { RoleRow } from './repository.js';
import type { Role } from './schemas.js';

export function presentRole(row: RoleRow): Role {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}
