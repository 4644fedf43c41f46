import { formatDateTime } from '../../../platform/time.js';
import type { ProcessTemplateRecord, TaskTemplateRecord } from './repository.js';
import type { ProcessTemplate, TaskTemplate } from './schemas.js';

export function presentProcessTemplate(row: ProcessTemplateRecord): ProcessTemplate {
  return {
    id: row.id,
    title: row.title,
    public_title: row.publicTitle,
    description: row.description,
    automatic_archiving: row.automaticArchiving,
    restrictions: row.restrictions,
    created_at: formatDateTime(row.createdAt),
    created_by: row.createdBy,
    updated_at: formatDateTime(row.updatedAt),
    updated_by: row.updatedBy,
  };
}

export function presentTaskTemplate(row: TaskTemplateRecord): TaskTemplate {
  const { settings } = row;
  return {
    id: row.id,
    process_template_id: row.processTemplateId,
    type: row.type,
    name: row.name,
    description: row.description,
    assigned_to: row.assignedTo,
    depends_on_id: row.dependsOnId,
    fetch_previous_data: row.fetchPreviousData,
    role_id: row.roleId,
    email_notifications: row.emailNotifications,
    ...(settings.message !== undefined ? { message: settings.message } : {}),
    ...(settings.formidable !== undefined ? { process_form_id: row.id, formidable: settings.formidable } : {}),
    ...(settings.pdf_template_id !== undefined ? { pdf_template_id: settings.pdf_template_id } : {}),
    ...(settings.signature_zone_id !== undefined ? { signature_zone_id: settings.signature_zone_id } : {}),
    ...(row.filename !== null ? { uploaded_document: row.filename } : {}),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}
