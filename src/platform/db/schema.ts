import type { Generated } from 'kysely';

/**
 * Column types of every table, as Kysely sees them. Instants are epoch
 * milliseconds (bigint columns, read back as numbers on both dialects);
 * booleans are 0/1 integers so both dialects store them alike.
 */
export interface Tables {
  settings: SettingsTable;
  signing_keys: SigningKeysTable;
  auth_events: AuthEventsTable;
  hr_clients: HrClientsTable;
  hr_applications: HrApplicationsTable;
  hr_organizations: HrOrganizationsTable;
  hr_organization_groups: HrOrganizationGroupsTable;
  hr_organization_group_members: HrOrganizationGroupMembersTable;
  hr_roles: HrRolesTable;
  hr_role_permissions: HrRolePermissionsTable;
  hr_users: HrUsersTable;
  hr_user_profiles: HrUserProfilesTable;
  hr_custom_fields: HrCustomFieldsTable;
  hr_employees: HrEmployeesTable;
  hr_employee_registrations: HrEmployeeRegistrationsTable;
  hr_employee_custom_values: HrEmployeeCustomValuesTable;
  academies: AcademiesTable;
  academy_api_keys: AcademyApiKeysTable;
  academy_users: AcademyUsersTable;
  academy_categories: AcademyCategoriesTable;
  academy_courses: AcademyCoursesTable;
  academy_curriculums: AcademyCurriculumsTable;
  academy_venues: AcademyVenuesTable;
  academy_events: AcademyEventsTable;
  academy_event_instructors: AcademyEventInstructorsTable;
  academy_registrations: AcademyRegistrationsTable;
  blobs: BlobsTable;
  blob_chunks: BlobChunksTable;
  blob_staging: BlobStagingTable;
  hr_uploads: HrUploadsTable;
  hr_folders: HrFoldersTable;
  hr_document_types: HrDocumentTypesTable;
  hr_documents: HrDocumentsTable;
  hr_document_organizations: HrDocumentOrganizationsTable;
  hr_process_templates: HrProcessTemplatesTable;
  hr_task_templates: HrTaskTemplatesTable;
  hr_process_counters: HrProcessCountersTable;
  hr_processes: HrProcessesTable;
  hr_tasks: HrTasksTable;
  hr_task_files: HrTaskFilesTable;
  hr_task_validation_events: HrTaskValidationEventsTable;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface SigningKeysTable {
  kid: string;
  secret: string;
  created_at: number;
  retired_at: number | null;
}

/** Append-only log that every process polls to keep its auth caches current. */
export interface AuthEventsTable {
  seq: Generated<number>;
  kind: 'token_revoked' | 'application_revoked' | 'signing_key_rotated';
  ref: string;
  expires_at: number | null;
  created_at: number;
}

export interface HrClientsTable {
  id: string;
  name: string;
  created_at: number;
}

export interface HrApplicationsTable {
  id: string;
  client_id: string;
  name: string;
  secret_hash: string;
  read_only: number;
  revoked_at: number | null;
  created_at: number;
}

export interface HrOrganizationsTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  name: string;
  description: string | null;
  parent_organization_id: string | null;
  corporate_name: string | null;
  address1: string | null;
  address2: string | null;
  zip_code: string | null;
  city: string | null;
  country: string | null;
  contact_firstname: string | null;
  contact_lastname: string | null;
  contact_email: string | null;
  contact_phone_number: string | null;
  created_at: number;
  updated_at: number;
}

export interface HrOrganizationGroupsTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  name: string;
  created_at: number;
  updated_at: number;
}

export interface HrOrganizationGroupMembersTable {
  client_id: string;
  group_id: string;
  organization_id: string;
  position: number;
}

export interface AcademiesTable {
  id: Generated<number>;
  name: string;
  super_admin_id: number;
  created_at: number;
}

export interface AcademyApiKeysTable {
  id: Generated<number>;
  academy_id: number;
  key_hash: string;
  created_at: number;
  /** Null while the key is current; set on rotation to the end of its grace period. */
  expires_at: number | null;
}

export interface AcademyUsersTable {
  academy_id: number;
  id: number;
  firstname: string;
  middlename: string | null;
  lastname: string;
  preferred_name: string | null;
  email: string;
  role: string;
  active: number;
  external_id: string | null;
  hired_date: string | null;
  joined_date: string | null;
  image: string | null;
  /** JSON array of {id, name}. */
  units: string;
  created_at: number;
  updated_at: number;
}

export interface AcademyCategoriesTable {
  academy_id: number;
  id: number;
  name: string;
}

export interface AcademyCoursesTable {
  academy_id: number;
  id: number;
  title: string;
  description: string;
  /** JSON array of academy category ids, the first being the course's main category. */
  category_ids: string;
  external_id: string | null;
}

export interface AcademyCurriculumsTable {
  academy_id: number;
  id: number;
  title: string;
  description: string;
  category_id: number | null;
  external_id: string | null;
}

export interface AcademyVenuesTable {
  academy_id: number;
  id: number;
  name: string;
  seats: number;
  address: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface AcademyEventsTable {
  id: Generated<number>;
  academy_id: number;
  kind: 'ilt' | 'vc';
  title: string;
  description: string;
  bundle_title: string | null;
  picture: string | null;
  time_offset: number | null;
  timezone_id: number | null;
  registration_deadline: number;
  based: number;
  auto_approved: number;
  max_attendees: number;
  block_reservations: number;
  visible: number;
  category_id: number | null;
  course_id: number | null;
  curriculum_id: number | null;
  part_of_course: number;
  part_of_curriculum: number;
  custom_cal_message: string | null;
  auto_archive: number;
  passing_score: number;
  completion_percentage: number;
  venue_id: number | null;
  venue_seats: number | null;
  location: string | null;
  latitude: number | null;
  longitude: number | null;
  canceled: number;
  /** JSON array of stored sessions (local date, minutes from midnight, segments). */
  sessions: string;
  /** JSON array of names. */
  external_instructors: string;
  /** The bundle's main event (itself for the main event); null when not bundled. */
  bundle_id: number | null;
  can_multi: 'no' | 'yes' | 'all' | null;
  must_retake: number;
  retake_every: number;
  start_at: number;
  end_at: number;
  created_at: number;
  updated_at: number;
}

export interface AcademyEventInstructorsTable {
  event_id: number;
  user_id: number;
  is_primary: number;
  position: number;
}

export interface AcademyRegistrationsTable {
  event_id: number;
  user_id: number;
  approval: 'Yes' | 'Pending';
  state: 'registered' | 'waitlisted' | 'cancelled' | 'absent' | 'completed';
  attendance_minutes: number;
  registered_at: number;
  completed_at: number | null;
  updated_at: number;
}

export interface HrCustomFieldsTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  label: string;
  type: 'bool' | 'string' | 'list' | 'int';
  /** JSON array of {value, label, code?}. */
  authorized_values: string;
  hierarchical: number;
  default_value: string | null;
  /** JSON array of {language_code, value}. */
  localized_labels: string;
  visible: number;
  allow_access_restrictions: number;
  created_at: number;
  updated_at: number;
}

export interface HrEmployeesTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  external_id: string | null;
  firstname: string;
  lastname: string;
  email: string | null;
  language: string | null;
  maidenname: string | null;
  middlename: string | null;
  country: string | null;
  starting_date: string | null;
  mobile_phone_number: string | null;
  birth_date: string | null;
  address1: string | null;
  address2: string | null;
  address3: string | null;
  zip_code: string | null;
  city: string | null;
  state: string | null;
  /** SHA-256 of the write-only saml_token. */
  saml_token_hash: string | null;
  synchronized_at: number | null;
  synchronization_application: string | null;
  created_at: number;
  updated_at: number;
}

export interface HrEmployeeRegistrationsTable {
  client_id: string;
  employee_id: string;
  organization_id: string;
  employee_number: string;
  active: number;
  departure_date: string | null;
  position: number;
  created_at: number;
  updated_at: number;
}

export interface HrEmployeeCustomValuesTable {
  client_id: string;
  employee_id: string;
  custom_field_id: string;
  value: string;
}

export interface HrRolesTable {
  pk: Generated<number>;
  client_id: string;
  /** Client-chosen code: letters, digits, `_` and `-`. */
  id: string;
  name: string;
  description: string | null;
  created_at: number;
  updated_at: number;
}

/** One row per permission a role is granted; a permission without a row is false. */
export interface HrRolePermissionsTable {
  client_id: string;
  role_id: string;
  module: 'core' | 'efm' | 'audit' | 'webhook';
  permission: string;
}

export interface HrUsersTable {
  pk: Generated<number>;
  client_id: string;
  /** UUID v4, generated by the server. */
  id: string;
  external_id: string | null;
  firstname: string;
  lastname: string;
  middlename: string | null;
  email: string;
  language: string | null;
  timezone: string | null;
  mobile_phone_number: string | null;
  /** SHA-256 of the write-only saml_token. */
  saml_token_hash: string | null;
  /** When the user first logged in; null until then (the `active` filter). */
  first_login_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A profile: one role of a user on one employee perimeter. */
export interface HrUserProfilesTable {
  client_id: string;
  /** UUID v4, generated by the server. */
  id: string;
  user_id: string;
  position: number;
  role_id: string;
  operator: '=' | '<=';
  organization_id: string | null;
  organization_group_id: string | null;
  /** JSON array of {custom_field_id, operator, value}. */
  custom_field_filters: string;
}

/** One row per stored content (see docs/storage.md): the bytes live in files or in `blob_chunks`. */
export interface BlobsTable {
  /** Lower-case hex SHA-256 of the bytes: the blob's identity. */
  sha256: string;
  size: number;
  /** Sniffed from the bytes, `application/octet-stream` when unknown. */
  content_type: string;
  created_at: number;
}

/** The bytes of a blob on PostgreSQL, in chunks of 256 KiB (the last one shorter). */
export interface BlobChunksTable {
  sha256: string;
  /** Zero-based chunk number. */
  seq: number;
  data: Buffer;
}

/** Chunks of a PostgreSQL write in progress, before its checksum is known. */
export interface BlobStagingTable {
  staging_id: string;
  seq: number;
  data: Buffer;
  created_at: number;
}

/** A temporary file of the HR API (`POST /uploads`, `POST /document`), until it is consumed or expires. */
export interface HrUploadsTable {
  /** UUID v4, generated by the server. */
  id: string;
  client_id: string;
  /** As sent by the client, cleaned for display; never used as a path. */
  filename: string;
  sha256: string;
  size: number;
  content_type: string;
  created_at: number;
  expires_at: number;
  /** When a document (or other object) took the file; it then no longer holds the blob. */
  consumed_at: number | null;
}

/** Employee or company: the two families of the Document manager share their tables. */
export type DocumentKind = 'employee' | 'company';

/** A folder of one kind; its id is a dotted path (`certificates.employment-certificates`). */
export interface HrFoldersTable {
  pk: Generated<number>;
  client_id: string;
  kind: DocumentKind;
  id: string;
  parent_folder_id: string | null;
  label: string;
  /** JSON array of {language_code, value}. */
  localized_labels: string;
  created_at: number;
}

/** A document type of one kind. */
export interface HrDocumentTypesTable {
  pk: Generated<number>;
  client_id: string;
  kind: DocumentKind;
  id: string;
  label: string;
  /** JSON array of {language_code, value}. */
  localized_labels: string;
  folder_id: string;
  /** JSON object of every other attribute of the type (permissions, metadata definitions, policies, …). */
  settings: string;
  created_at: number;
  updated_at: number;
}

/** An employee or company document: its bytes are the blob `sha256` (listed in BLOB_REFERENCES). */
export interface HrDocumentsTable {
  pk: Generated<number>;
  client_id: string;
  kind: DocumentKind;
  /** UUID v4, generated by the server. */
  id: string;
  /** The owner (employee documents only). */
  employee_id: string | null;
  document_type_id: string;
  title: string | null;
  /** The uploaded file's name, cleaned: the document's `name`; never used as a path. */
  filename: string;
  sha256: string;
  size: number;
  content_type: string;
  /** YYYY-MM-DD. */
  date: string | null;
  /** `date`, or the upload day when it is null (YYYY-MM-DD): what the date filters compare. */
  effective_date: string;
  /** JSON array of {code, value}. */
  metadata: string;
  external_reference: string | null;
  origin: string;
  origin_details: string | null;
  sender_id: string | null;
  /** When it went to the trash; null when not trashed. */
  trashed_at: number | null;
  /** End of the retention period (YYYY-MM-DD). */
  expiry_date: string | null;
  /** End of validity (YYYY-MM-DD). */
  expiration_date: string | null;
  created_at: number;
  updated_at: number;
}

export interface HrDocumentOrganizationsTable {
  client_id: string;
  document_id: string;
  organization_id: string;
}

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
export type TaskStatus = 'draft' | 'blocked' | 'to_do' | 'completed' | 'canceled';

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

/** The last process number of a client: `reference` is `proc-<n>`. */
export interface HrProcessCountersTable {
  client_id: string;
  last_number: number;
}

export type ProcessState = 'draft' | 'pending' | 'done';

export interface HrProcessesTable {
  pk: Generated<number>;
  client_id: string;
  /** UUID v4, generated by the server. */
  id: string;
  reference: string;
  title: string;
  public_title: string | null;
  description: string | null;
  employee_id: string;
  creator_id: string;
  process_template_id: string;
  publication_date: string | null;
  due_date: string | null;
  state: ProcessState;
  published: number;
  employee_tasks_count: number;
  company_tasks_count: number;
  done_employee_tasks_count: number;
  done_company_tasks_count: number;
  completed_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A task of a process, made from a task template when the process is created. */
export interface HrTasksTable {
  pk: Generated<number>;
  client_id: string;
  /** UUID v4, generated by the server. */
  id: string;
  process_id: string;
  template_task_id: string;
  type: TaskType;
  name: string;
  description: string;
  assigned_to: TaskAssignee;
  /** Another task of the same process. */
  depends_on_id: string | null;
  role_id: string | null;
  fetch_previous_data: number;
  status: TaskStatus;
  due_date: string | null;
  reminder_offset: number | null;
  /** JSON of the template's type fields at creation (message, formidable, pdf_template_id, signature_zone_id). */
  settings: string;
  /** JSON array of {field_id, values}: the saved answers (fill_form, fill_pdf). */
  form_data: string;
  has_requested_changes: number;
  completed_at: number | null;
  completed_by_id: string | null;
  created_at: number;
  updated_at: number;
}

/** A file a task holds: the document to acknowledge, a form file, or the completed file. Listed in BLOB_REFERENCES. */
export interface HrTaskFilesTable {
  pk: Generated<number>;
  client_id: string;
  /** UUID v4, generated by the server. */
  id: string;
  task_id: string;
  role: 'document' | 'form' | 'result';
  field_id: string | null;
  filename: string;
  sha256: string;
  size: number;
  content_type: string;
  created_at: number;
}

/** A review of a validation task: accepted or refused. */
export interface HrTaskValidationEventsTable {
  id: Generated<number>;
  client_id: string;
  task_id: string;
  reviewed_task_id: string | null;
  state: 'accepted' | 'refused';
  reason: string | null;
  completed_by_id: string | null;
  created_at: number;
}
