import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

/** The last `request_number` given out per client. */
export interface PaRequestCountersTable {
  client_id: string;
  last_number: number;
}
export type RequestStatus = 'created' | 'opened' | 'pending' | 'closed' | 'archived';
/** Who wrote something: an HR user or manager (`/users`) or an employee. */
export type PersonKind = 'user' | 'employee';
/** A People Assist request (an employee case). */
export interface PaRequestsTable {
  pk: Generated<number>;
  client_id: string;
  /** UUID v4. */
  id: string;
  request_number: number;
  name: string;
  status: RequestStatus;
  /** The status's place in the lifecycle (created 0 … archived 4): what `sort=status` orders by. */
  status_rank: number;
  /** 1 low, 2 normal, 3 high. */
  priority: number;
  employee_id: string | null;
  creator_id: string | null;
  creator_kind: PersonKind | null;
  closed_by_id: string | null;
  /** JSON array of organization codes (also rows of pa_request_organizations, for the filter). */
  organization_ids: string;
  form_id: string;
  category_id: string;
  /** JSON array of {field_id, values} (file answers live in pa_request_files). */
  form_data: string;
  due_date: string | null;
  custom_status_id: string | null;
  origin: string;
  read_by_employee: number;
  visible_by_employee: number;
  public_comment_count: number;
  internal_comment_count: number;
  attachment_count: number;
  /** Lower-case text `q` searches: name, answers, request number, employee numbers. */
  search_text: string;
  created_at: number;
  updated_at: number;
  closed_at: number | null;
  archived_at: number | null;
}
export interface PaRequestOrganizationsTable {
  client_id: string;
  request_id: string;
  organization_id: string;
}
export interface PaRequestCommentsTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  request_id: string;
  creator_id: string | null;
  creator_kind: PersonKind | null;
  content: string;
  is_internal: number;
  is_informative: number;
  comment_source: string;
  created_at: number;
}
/** A file of a request: an attachment (maybe added with a comment) or a form-field file. Holds a blob. */
export interface PaRequestFilesTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  request_id: string;
  kind: 'attachment' | 'form_file';
  comment_id: string | null;
  field_id: string | null;
  filename: string;
  sha256: string;
  size: number;
  content_type: string;
  created_at: number;
}
export interface PaRequestAssigneesTable {
  pk: Generated<number>;
  client_id: string;
  request_id: string;
  user_id: string;
  created_at: number;
}
/** A link between two requests, stored in both directions. */
export interface PaRequestLinksTable {
  client_id: string;
  request_id: string;
  linked_id: string;
  created_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    pa_request_counters: PaRequestCountersTable;
    pa_requests: PaRequestsTable;
    pa_request_organizations: PaRequestOrganizationsTable;
    pa_request_comments: PaRequestCommentsTable;
    pa_request_files: PaRequestFilesTable;
    pa_request_assignees: PaRequestAssigneesTable;
    pa_request_links: PaRequestLinksTable;
  }
}
