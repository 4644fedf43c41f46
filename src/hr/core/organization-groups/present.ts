import { formatDateTime } from '../../../platform/time.js';
import type { OrganizationGroupRecord } from './repository.js';
import type { OrganizationGroup } from './schemas.js';

/** An organization group on the wire (reference §3b). */
export function presentOrganizationGroup(row: OrganizationGroupRecord): OrganizationGroup {
  return {
    id: row.id,
    name: row.name,
    organizations_ids: row.organizationIds,
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}
