import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

/** A process template (People Assist process automation); its id is chosen by the client. */
export interface HrProcessTemplatesTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  title: string;
  public_title: string | null;
  description: string | null;
  automatic_archiving: number;
  /** JSON array of {organizations: [{id, operator}]}. */
  restrictions: string;
  /** JSON {origin, id}. */
  created_by: string;
  updated_by: string;
  created_at: number;
  updated_at: number;
}
export type TaskType = 'acknowledgment' | 'basic' | 'fill_form' | 'fill_pdf' | 'signature' | 'validation';
export type TaskAssignee = 'users' | 'employee';
/** A task template of a process template; an acknowledgment template holds its document as a blob. */
export interface HrTaskTemplatesTable {
  pk: Generated<number>;
  client_id: string;
  process_template_id: string;
  id: string;
  type: TaskType;
  name: string;
  description: string;
  assigned_to: TaskAssignee;
  /** Another task template of the same process template. */
  depends_on_id: string | null;
  fetch_previous_data: number;
  role_id: string | null;
  /** JSON array (at most one) of {subject, body, role_ids}. */
  email_notifications: string;
  /** JSON of the type's own fields (message, formidable, pdf_template_id, signature_zone_id). */
  settings: string;
  /** The document to acknowledge (acknowledgment templates): listed in BLOB_REFERENCES. */
  filename: string | null;
  sha256: string | null;
  size: number | null;
  content_type: string | null;
  created_at: number;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_process_templates: HrProcessTemplatesTable;
    hr_task_templates: HrTaskTemplatesTable;
  }
}
