import { formatDateTime } from '../../../platform/time.js';
import type { OrganizationRecord } from './repository.js';
import type { Organization } from './schemas.js';

/** An organization on the wire (reference §3b). */
export function presentOrganization(row: OrganizationRecord): Organization {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    parent_organization_id: row.parent_organization_id,
    corporate_name: row.corporate_name,
    address1: row.address1,
    address2: row.address2,
    zip_code: row.zip_code,
    city: row.city,
    country: row.country,
    contact_firstname: row.contact_firstname,
    contact_lastname: row.contact_lastname,
    contact_email: row.contact_email,
    contact_phone_number: row.contact_phone_number,
    has_children: row.has_children,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}
