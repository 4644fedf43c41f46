import { formatDateTime } from '../../../platform/time.js';
import type { ProcessTemplateRow, TaskTemplateRow } from './repository.js';
import type { ProcessTemplate, TaskSettings, TaskTemplate } from './schemas.js';

export function presentProcessTemplate(row: ProcessTemplateRow): ProcessTemplate {
  return {
    id: row.id,
    title: row.title,
    public_title: row.public_title,
    description: row.description,
    automatic_archiving: row.automatic_archiving === 1,
    restrictions: row.restrictions,
    created_at: formatDateTime(row.created_at),
    created_by: row.created_by,
    updated_at: formatDateTime(row.updated_at),
    updated_by: row.updated_by,
  };
}

export function presentTaskTemplate(row: TaskTemplateRow): TaskTemplate {
  const { settings } = row;
  return {
    id: row.id,
    process_template_id: row.process_template_id,
    type: row.type,
    name: row.name,
    description: row.description,
    assigned_to: row.assigned_to,
    depends_on_id: row.depends_on_id,
    fetch_previous_data: row.fetch_previous_data === 1,
    role_id: row.role_id,
    email_notifications: row.email_notifications,
    ...(settings.message !== undefined ? { message: settings.message } : {}),
    ...(settings.formidable !== undefined ? { process_form_id: row.id, formidable: settings.formidable } : {}),
    ...(settings.pdf_template_id !== undefined ? { pdf_template_id: settings.pdf_template_id } : {}),
    ...(settings.signature_zone_id !== undefined ? { signature_zone_id: settings.signature_zone_id } : {}),
    ...(row.filename !== null ? { uploaded_document: row.filename } : {}),
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}
