/**
 * The SDK's model types, by name: every object the two APIs answer with, as the server's schemas define it
 * (`Organization`, `Employee`, `AcademyEvent`, … as `import type` from `@atrium/client`). Types only; they are the
 * server's schema types, copied into `schemas/` by the server's scripts/client-types.ts.
 */
import type {
  Category as AcademyCategoryType,
  Course as AcademyCourseType,
  Curriculum as AcademyCurriculumType,
  User as AcademyUserType,
  Venue as AcademyVenueType,
} from './schemas/academy/directory.js';
import type { EventDetail, EventListItem, RegistrationOut } from './schemas/academy/events.js';
import type {
  ProcessTemplate as ProcessTemplateModel,
  TaskTemplate as TaskTemplateModel,
} from './schemas/hr/automation/process-templates.js';
import type { Process as ProcessModel } from './schemas/hr/automation/processes.js';
import type { TaskFile as TaskFileModel, Task as TaskModel } from './schemas/hr/automation/tasks.js';
import type { CustomField as CustomFieldModel } from './schemas/hr/core/custom-fields.js';
import type { Employee as EmployeeModel } from './schemas/hr/core/employees.js';
import type { OrganizationGroup as OrganizationGroupModel } from './schemas/hr/core/organization-groups.js';
import type { Organization as OrganizationModel } from './schemas/hr/core/organizations.js';
import type { Role as RoleModel } from './schemas/hr/core/roles.js';
import type { UploadDocument } from './schemas/hr/core/uploads.js';
import type { User as UserModel } from './schemas/hr/core/users.js';
import type {
  CompanyDocumentType as CompanyDocumentTypeSchema,
  EmployeeDocumentType as EmployeeDocumentTypeSchema,
} from './schemas/hr/documents/document-types.js';
import type {
  CompanyDocument as CompanyDocumentModel,
  EmployeeDocument as EmployeeDocumentModel,
} from './schemas/hr/documents/documents.js';
import type { Folder as FolderModel } from './schemas/hr/documents/folders.js';
import type {
  EventActions as EventActionsModel,
  EventExportLine as EventExportLineModel,
  Event as EventModel,
} from './schemas/hr/integrations/events.js';
import type {
  WebhookAttempt as WebhookAttemptModel,
  Webhook as WebhookModel,
} from './schemas/hr/integrations/webhooks.js';
import type { KbArticle as KbArticleModel, KbTag as KbTagModel } from './schemas/hr/knowledge/kb-articles.js';
import type { KbCategory as KbCategoryModel } from './schemas/hr/knowledge/kb-categories.js';
import type { CustomStatus as CustomStatusModel } from './schemas/hr/people-assist/custom-statuses.js';
import type { MacroDetail, MacroList } from './schemas/hr/people-assist/macros.js';
import type { RequestForm as RequestFormModel } from './schemas/hr/people-assist/request-forms.js';
import type {
  EmployeeSimplified as EmployeeSimplifiedModel,
  RequestComment as RequestCommentModel,
  RequestFull,
  RequestFullWithAttachments,
  UserSimplified as UserSimplifiedModel,
} from './schemas/hr/people-assist/requests.js';

/** A company document (`/company_documents`). */
export type CompanyDocument = CompanyDocumentModel;
/** A custom employee attribute (`/custom_fields`). */
export type CustomField = CustomFieldModel;
/** A custom status of requests (`/custom_status`). */
export type CustomStatus = CustomStatusModel;
/** An employee (`/employees`), with registrations and custom field values. */
export type Employee = EmployeeModel;
/** An employee document (`/employee_documents`). */
export type EmployeeDocument = EmployeeDocumentModel;
/** An employee as a request names it. */
export type EmployeeSimplified = EmployeeSimplifiedModel;
/** A folder of employee or company documents. */
export type Folder = FolderModel;
/** A knowledge-base article (`/kb_articles`). */
export type KbArticle = KbArticleModel;
/** A knowledge-base category (`/kb_categories`). */
export type KbCategory = KbCategoryModel;
/** A knowledge-base tag (`/kb_tags`). */
export type KbTag = KbTagModel;
/** An organization (`/organizations`). */
export type Organization = OrganizationModel;
/** An organization group (`/organization_groups`). */
export type OrganizationGroup = OrganizationGroupModel;
/** A process (`/processes`). */
export type Process = ProcessModel;
/** A process template (`/process_templates`). */
export type ProcessTemplate = ProcessTemplateModel;
/** A comment of a request. */
export type RequestComment = RequestCommentModel;
/** A request form (`/request_forms`). */
export type RequestForm = RequestFormModel;
/** A role (`/roles`). */
export type Role = RoleModel;
/** A task of a process (`/tasks`). */
export type Task = TaskModel;
/** A file of a task. */
export type TaskFile = TaskFileModel;
/** A task template of a process template. */
export type TaskTemplate = TaskTemplateModel;
/** An HR user (`/users`). */
export type User = UserModel;
/** An HR user as a request names it. */
export type UserSimplified = UserSimplifiedModel;

/** An employee document type (`/employee_document_types`). */
export type EmployeeDocumentType = EmployeeDocumentTypeSchema;
/** A company document type (`/company_document_types`). */
export type CompanyDocumentType = CompanyDocumentTypeSchema;
/** A request (`/requests`), as the list and GET answer it. */
export type Request = RequestFull;
/** A request with its attachments. */
export type RequestWithAttachments = RequestFullWithAttachments;
/** A macro as the list answers it. */
export type Macro = MacroList;
/** A macro with its actions (`GET /macros/{id}?embed=actions`). */
export type MacroWithActions = MacroDetail;
/** An upload (`POST /uploads`). */
export type Upload = UploadDocument;
/**
 * An audit event (`/events`): `{resource_type}.{action}`, who made it, and the resource as `GET` presents it. Also
 * the body of each webhook callback (`verifyWebhookSignature` answers it).
 */
export type AuditEvent = EventModel;
/** Who made an audit event. */
export type AuditEventActor = EventModel['actor'];
/** One line of `GET /events/export` (`hr.events.export`): its keys hold spaces (`Trigger Type`, `Item Type`). */
export type AuditEventExportLine = EventExportLineModel;
/** The actions each resource type records (`GET /events/filters/actions`). */
export type AuditEventActions = EventActionsModel;
/** A webhook (`/webhooks`), with its `signature_key`. */
export type Webhook = WebhookModel;
/** One attempt of a webhook delivery (`GET /webhooks/{id}/deliveries`, an Atrium extension). */
export type WebhookDeliveryAttempt = WebhookAttemptModel;

/** An Academy event, as `GET /v1/events/{ilt|vc}/{id}` answers it. */
export type AcademyEvent = EventDetail;
/** An Academy event as a list answers it. */
export type AcademyEventSummary = EventListItem;
/** A registration of a user to an Academy event. */
export type AcademyRegistration = RegistrationOut;
/** A user of an academy's directory. */
export type AcademyUser = AcademyUserType;
/** A category of an academy's directory. */
export type AcademyCategory = AcademyCategoryType;
/** A course of an academy's directory. */
export type AcademyCourse = AcademyCourseType;
/** A learning path (curriculum) of an academy's directory. */
export type AcademyCurriculum = AcademyCurriculumType;
/** A venue of an academy's directory. */
export type AcademyVenue = AcademyVenueType;
