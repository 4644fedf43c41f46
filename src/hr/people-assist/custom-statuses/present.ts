import { formatDateTime } from '../../../platform/time.js';
import type { CustomStatusRecord } from './repository.js';
import type { CustomStatus } from './schemas.js';

/** A custom status on the wire (reference §3d.8). */
export function presentCustomStatus(status: CustomStatusRecord): CustomStatus {
  return {
    id: status.id,
    name: status.name,
    is_active: status.isActive,
    created_at: formatDateTime(status.createdAt),
    updated_at: formatDateTime(status.updatedAt),
  };
}
