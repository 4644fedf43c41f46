import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import type { BlobStore } from '../platform/blobs/store.js';
import type { RateLimits } from '../platform/http/rate-limit.js';
import { bearerGuard } from './auth/guard.js';
import { tokenRoutes } from './auth/routes.js';
import type { AuthService } from './auth/service.js';
import { customFieldRoutes } from './custom-fields/routes.js';
import type { CustomFieldsService } from './custom-fields/service.js';
import { customStatusRoutes } from './custom-statuses/routes.js';
import { CustomStatus } from './custom-statuses/schemas.js';
import type { CustomStatusesService } from './custom-statuses/service.js';
import { documentTypeRoutes } from './document-types/routes.js';
import { CompanyDocumentType, EmployeeDocumentType } from './document-types/schemas.js';
import type { DocumentTypesService } from './document-types/service.js';
import { documentRoutes } from './documents/routes.js';
import { CompanyDocument, EmployeeDocument } from './documents/schemas.js';
import type { DocumentsService } from './documents/service.js';
import { employeeRoutes } from './employees/routes.js';
import type { EmployeesService } from './employees/service.js';
import { ErrorBody, HrError, sendHrError } from './errors.js';
import { folderRoutes } from './folders/routes.js';
import { Folder } from './folders/schemas.js';
import type { FoldersService } from './folders/service.js';
import { kbArticleRoutes } from './kb-articles/routes.js';
import { KbArticle, KbTag } from './kb-articles/schemas.js';
import type { KbArticlesService } from './kb-articles/service.js';
import { kbCategoryRoutes } from './kb-categories/routes.js';
import { KbCategory } from './kb-categories/schemas.js';
import type { KbCategoriesService } from './kb-categories/service.js';
import { macroRoutes } from './macros/routes.js';
import { MacroDetail, MacroList } from './macros/schemas.js';
import type { MacrosService } from './macros/service.js';
import { organizationGroupRoutes } from './organization-groups/routes.js';
import { OrganizationGroup } from './organization-groups/schemas.js';
import type { OrganizationGroupsService } from './organization-groups/service.js';
import { organizationRoutes } from './organizations/routes.js';
import { Organization } from './organizations/schemas.js';
import type { OrganizationsService } from './organizations/service.js';
import type { Paginator } from './pagination/pagination.js';
import { processTemplateRoutes } from './process-templates/routes.js';
import { ProcessTemplate, TaskTemplate } from './process-templates/schemas.js';
import type { ProcessTemplatesService } from './process-templates/service.js';
import { processRoutes } from './processes/routes.js';
import { Process } from './processes/schemas.js';
import type { ProcessesService } from './processes/service.js';
import { requestFormRoutes } from './request-forms/routes.js';
import { RequestForm } from './request-forms/schemas.js';
import type { RequestFormsService } from './request-forms/service.js';
import { requestRoutes } from './requests/routes.js';
import {
  EmployeeSimplified,
  RequestComment,
  RequestFull,
  RequestFullWithAttachments,
  UserSimplified,
} from './requests/schemas.js';
import type { RequestsService } from './requests/service.js';
import { roleRoutes } from './roles/routes.js';
import { Role } from './roles/schemas.js';
import type { RolesService } from './roles/service.js';
import { taskRoutes } from './tasks/routes.js';
import { Task, TaskFile } from './tasks/schemas.js';
import type { TasksService } from './tasks/service.js';
import { uploadRoutes } from './uploads/routes.js';
import type { UploadsService } from './uploads/service.js';
import { userRoutes } from './users/routes.js';
import { User } from './users/schemas.js';
import type { UsersService } from './users/service.js';

export const HR_PREFIX = '/api/v2/client';

export interface HrServices {
  auth: AuthService;
  paginator: Paginator;
  organizations: OrganizationsService;
  organizationGroups: OrganizationGroupsService;
  uploads: UploadsService;
  roles: RolesService;
  users: UsersService;
  customFields: CustomFieldsService;
  employees: EmployeesService;
  folders: FoldersService;
  documentTypes: DocumentTypesService;
  documents: DocumentsService;
  processTemplates: ProcessTemplatesService;
  processes: ProcessesService;
  tasks: TasksService;
  kbCategories: KbCategoriesService;
  kbArticles: KbArticlesService;
  customStatuses: CustomStatusesService;
  macros: MacrosService;
  requestForms: RequestFormsService;
  requests: RequestsService;
  blobs: BlobStore;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** Rejects a query parameter given more than once: the spec calls that an invalid request. */
async function rejectRepeatedParameters(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query) return;
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) throw new HrError(400, 'invalid_request', `Query parameter "${name}" is repeated.`);
  }
}

/**
 * The HR service delivery client API, as one encapsulated Fastify plugin
 * with its own error format, not-found and method-not-allowed answers, and
 * bearer guard. No CORS: its tokens are for server-to-server use only.
 */
export async function hrApi(
  app: FastifyInstance,
  services: HrServices & { rateLimits?: RateLimits | undefined },
): Promise<void> {
  app.addSchema(ErrorBody);
  app.addSchema(Organization);
  app.addSchema(OrganizationGroup);
  app.addSchema(Role);
  app.addSchema(User);
  for (const schema of [Folder, EmployeeDocumentType, CompanyDocumentType, EmployeeDocument, CompanyDocument]) {
    app.addSchema(schema);
  }
  for (const schema of [ProcessTemplate, TaskTemplate, Task, TaskFile, Process]) app.addSchema(schema);
  for (const schema of [KbCategory, KbArticle, KbTag]) app.addSchema(schema);
  for (const schema of [
    CustomStatus,
    MacroList,
    MacroDetail,
    RequestForm,
    UserSimplified,
    EmployeeSimplified,
    RequestFull,
    RequestFullWithAttachments,
    RequestComment,
  ]) {
    app.addSchema(schema);
  }

  // Knows every path of this API, to tell an unknown path (404) from a wrong method (405).
  const router = FindMyWay({ ignoreTrailingSlash: true });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      try {
        router.on(method as 'GET', route.url, () => {});
      } catch {
        // Already known (Fastify's automatic HEAD twin).
      }
    }
  });

  app.setErrorHandler((error, request, reply) => sendHrError(error as Error, request, reply));
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?', 1)[0] as string;
    const allowed = METHODS.filter((m) => router.find(m, path) !== null);
    if (allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      return sendHrError(
        new HrError(405, 'method_not_allowed', `${request.method} is not allowed here; use ${allowed.join(', ')}.`),
        request,
        reply,
      );
    }
    return sendHrError(new HrError(404, 'not_found', `No resource at ${path}.`), request, reply);
  });
  app.addHook('preValidation', rejectRepeatedParameters);

  await app.register(tokenRoutes, { auth: services.auth, limits: services.rateLimits });
  await app.register(async (guarded) => {
    guarded.addHook('onRequest', bearerGuard(services.auth, services.rateLimits));
    const { paginator } = services;
    await guarded.register(organizationRoutes, { organizations: services.organizations, paginator });
    await guarded.register(organizationGroupRoutes, { organizationGroups: services.organizationGroups, paginator });
    await guarded.register(uploadRoutes, { uploads: services.uploads });
    await guarded.register(roleRoutes, { roles: services.roles, paginator });
    await guarded.register(userRoutes, { users: services.users, paginator });
    await guarded.register(customFieldRoutes, { customFields: services.customFields, paginator });
    await guarded.register(employeeRoutes, { employees: services.employees, paginator });
    for (const kind of ['employee', 'company'] as const) {
      await guarded.register(folderRoutes, { folders: services.folders, paginator, kind });
      await guarded.register(documentTypeRoutes, { documentTypes: services.documentTypes, paginator, kind });
      await guarded.register(documentRoutes, { documents: services.documents, paginator, blobs: services.blobs, kind });
    }
    await guarded.register(processTemplateRoutes, { processTemplates: services.processTemplates, paginator });
    await guarded.register(processRoutes, { processes: services.processes, paginator });
    await guarded.register(taskRoutes, { tasks: services.tasks, paginator, blobs: services.blobs });
    await guarded.register(kbCategoryRoutes, { kbCategories: services.kbCategories, paginator });
    await guarded.register(kbArticleRoutes, { kbArticles: services.kbArticles, paginator });
    await guarded.register(customStatusRoutes, { customStatuses: services.customStatuses, paginator });
    await guarded.register(macroRoutes, { macros: services.macros, paginator });
    await guarded.register(requestFormRoutes, { requestForms: services.requestForms, paginator });
    await guarded.register(requestRoutes, { requests: services.requests, paginator, blobs: services.blobs });
  });
}
