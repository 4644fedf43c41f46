import { formatDateTime } from '../../../platform/time.js';
import type { OrganizationGroupRecord } from './repository.js';
import type { OrganizationGroup } from './schemas.js';

/** An organization group on the wire (reference §3b). */
export function presentOrganizationGroup(row: OrganizationGroupRecord): OrganizationGroup {
  return {
    id: row.id,
    name: row.name,
    organizations_ids: row.organizations_ids,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}
