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
  pa_custom_statuses: PaCustomStatusesTable;
  pa_macros: PaMacrosTable;
  pa_request_forms: PaRequestFormsTable;
  pa_request_counters: PaRequestCountersTable;
  pa_requests: PaRequestsTable;
  pa_request_organizations: PaRequestOrganizationsTable;
  pa_request_comments: PaRequestCommentsTable;
  pa_request_files: PaRequestFilesTable;
  pa_request_assignees: PaRequestAssigneesTable;
  pa_request_links: PaRequestLinksTable;
  pa_kb_categories: PaKbCategoriesTable;
  pa_kb_articles: PaKbArticlesTable;
  pa_kb_article_versions: PaKbArticleVersionsTable;
  pa_kb_article_categories: PaKbArticleCategoriesTable;
  pa_kb_article_tags: PaKbArticleTagsTable;
  pa_kb_article_perimeters: PaKbArticlePerimetersTable;
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

/** A client-defined workflow step of People Assist requests (`/custom_status`). */
export interface PaCustomStatusesTable {
  pk: Generated<number>;
  client_id: string;
  /** A slug of the name, or the id the client chose in `PUT /custom_status/{id}`. */
  id: string;
  name: string;
  is_active: number;
  created_at: number;
  updated_at: number;
}

/** A macro: named actions HR runs on a request (`/macros`). */
export interface PaMacrosTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  name: string;
  label: string;
  description: string;
  active: number;
  /** JSON arrays of ids: the forms, roles and custom statuses the macro is offered for (empty: any). */
  forms: string;
  roles: string;
  custom_statuses: string;
  /** JSON array of {label, template, data}. */
  actions: string;
  created_at: number;
  updated_at: number;
}

/** A request form (request type): its settings and its `formidable` definition. */
export interface PaRequestFormsTable {
  pk: Generated<number>;
  client_id: string;
  /** The slug. */
  id: string;
  name: string;
  /** A knowledge-base category id. */
  category_id: string;
  language_code: string;
  is_default: number;
  featured: number;
  keywords: string;
  /** JSON object of the remaining RequestForm settings (flags, restrictions, group). */
  settings: string;
  /** JSON: the form definition (DFForm). */
  formidable: string;
  last_hits: number;
  created_at: number;
  updated_at: number;
}

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

/** A knowledge-base category (People Assist); `id` is a client-chosen UUID. */
export interface PaKbCategoriesTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  slug: string;
  /** The category's `order` (a float). */
  sort_order: number;
  /** `sort_order` as 16 hex digits that sort like the number (lists are keyset-paged by it). */
  order_key: string;
  original_language_code: string;
  icon_class: string | null;
  disable_default_form: number;
  default_form_id: string | null;
  visible_to_employee: number;
  /** JSON array of {language_code, value}. */
  localized_name: string;
  /** JSON array of {language_code, value}. */
  localized_description: string;
  created_at: number;
  updated_at: number;
}

/** A knowledge-base article; `id` is a client-chosen UUID. Its full-text row is `pa_kb_article_fts` (raw SQL). */
export interface PaKbArticlesTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  slug: string;
  author_id: string | null;
  last_updater_id: string | null;
  last_hits: number;
  total_hits: number;
  featured_on_employee_homepage: number;
  once_on_employee_homepage: number;
  permanent_on_employee_homepage: number;
  /** YYYY-MM-DD. */
  expiration_date: string | null;
  /** YYYY-MM-DD. */
  scheduled_publication_date: string | null;
  status: 'draft' | 'published' | 'scheduled';
  accessible_by_hr: number;
  accessible_by_employee: number;
  /** JSON array of role ids. */
  role_restrictions: string;
  /** JSON array of {language_code, value}. */
  localized_search_keywords: string;
  /** The first version's title in lower case (the `title` sort). */
  sort_title: string;
  created_at: number;
  updated_at: number;
}

/** One language version of an article (one per language). */
export interface PaKbArticleVersionsTable {
  client_id: string;
  article_pk: number;
  id: string;
  language_code: string;
  position: number;
  title: string;
  /** HTML. */
  body: string;
  creator_id: string | null;
  updator_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface PaKbArticleCategoriesTable {
  client_id: string;
  article_pk: number;
  category_id: string;
  position: number;
}

export interface PaKbArticleTagsTable {
  client_id: string;
  article_pk: number;
  language_code: string;
  label: string;
  /** `label` in lower case: tags match and sort ignoring case. */
  label_key: string;
  position: number;
}

/** One employees perimeter of an article (`EmployeesPerimeterBase`). */
export interface PaKbArticlePerimetersTable {
  client_id: string;
  article_pk: number;
  position: number;
  operator: '=' | '<=';
  organization_id: string | null;
  organization_group_id: string | null;
  /** JSON array of {custom_field_id, operator, value}. */
  custom_field_filters: string;
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
