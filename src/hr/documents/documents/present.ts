import { formatDateTime } from '../../../platform/time.js';
import type { DocumentView } from './repository.js';
import type { CompanyDocument, EmployeeDocument } from './schemas.js';

export function presentDocument({ row, organizationIds, expired }: DocumentView): EmployeeDocument & CompanyDocument {
  return {
    id: row.id,
    ...(row.kind === 'employee'
      ? { employee_id: row.employee_id as string, employee_external_id: row.employee_external_id }
      : ({} as { employee_id: string; employee_external_id: null })),
    document_type_id: row.document_type_id,
    title: row.title,
    name: row.filename,
    date: row.date,
    organization_ids: organizationIds,
    metadata: row.metadata,
    external_reference: row.external_reference,
    origin: row.origin as EmployeeDocument['origin'],
    origin_details: row.origin_details,
    sender_id: row.sender_id,
    trashed: row.trashed_at !== null,
    expired,
    expiry_date: row.expiry_date,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}
