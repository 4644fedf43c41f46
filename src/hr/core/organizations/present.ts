import { formatDateTime } from '../../../platform/time.js';
import type { OrganizationRecord } from './repository.js';
import type { Organization } from './schemas.js';

/** An organization on the wire (reference §3b). */
export function presentOrganization(row: OrganizationRecord): Organization {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    parent_organization_id: row.parentOrganizationId,
    corporate_name: row.corporateName,
    address1: row.address1,
    address2: row.address2,
    zip_code: row.zipCode,
    city: row.city,
    country: row.country,
    contact_firstname: row.contactFirstname,
    contact_lastname: row.contactLastname,
    contact_email: row.contactEmail,
    contact_phone_number: row.contactPhoneNumber,
    has_children: row.hasChildren,
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}
