import { formatDateTime } from '../../../platform/time.js';
import type { DocumentView } from './repository.js';
import type { CompanyDocument, EmployeeDocument } from './schemas.js';

export function presentDocument({ row, organizationIds, expired }: DocumentView): EmployeeDocument & CompanyDocument {
  return {
    id: row.id,
    ...(row.kind === 'employee'
      ? { employee_id: row.employeeId as string, employee_external_id: row.employeeExternalId }
      : ({} as { employee_id: string; employee_external_id: null })),
    document_type_id: row.documentTypeId,
    title: row.title,
    name: row.filename,
    date: row.date,
    organization_ids: organizationIds,
    metadata: row.metadata,
    external_reference: row.externalReference,
    origin: row.origin as EmployeeDocument['origin'],
    origin_details: row.originDetails,
    sender_id: row.senderId,
    trashed: row.trashedAt !== null,
    expired,
    expiry_date: row.expiryDate,
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}
