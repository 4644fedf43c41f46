import { formatDateTime } from '../../../platform/time.js';
import type { RoleRecord } from './repository.js';
import type { Role } from './schemas.js';

export function presentRole(row: RoleRecord): Role {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}
