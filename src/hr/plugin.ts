import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import type { BlobStore } from '../platform/blobs/store.js';
import type { RateLimits } from '../platform/http/rate-limit.js';
import { processTemplateRoutes } from './automation/process-templates/routes.js';
import { ProcessTemplate, TaskTemplate } from './automation/process-templates/schemas.js';
import type { ProcessTemplatesService } from './automation/process-templates/service.js';
import { processRoutes } from './automation/processes/routes.js';
import { Process } from './automation/processes/schemas.js';
import type { ProcessesService } from './automation/processes/service.js';
import { taskRoutes } from './automation/tasks/routes.js';
import { Task, TaskFile } from './automation/tasks/schemas.js';
import type { TasksService } from './automation/tasks/service.js';
import { bearerGuard } from './core/auth/guard.js';
import { tokenRoutes } from './core/auth/routes.js';
import type { AuthService } from './core/auth/service.js';
import { customFieldRoutes } from './core/custom-fields/routes.js';
import type { CustomFieldsService } from './core/custom-fields/service.js';
import { employeeRoutes } from './core/employees/routes.js';
import type { EmployeesService } from './core/employees/service.js';
import { organizationGroupRoutes } from './core/organization-groups/routes.js';
import { OrganizationGroup } from './core/organization-groups/schemas.js';
import type { OrganizationGroupsService } from './core/organization-groups/service.js';
import { organizationRoutes } from './core/organizations/routes.js';
import { Organization } from './core/organizations/schemas.js';
import type { OrganizationsService } from './core/organizations/service.js';
import { roleRoutes } from './core/roles/routes.js';
import { Role } from './core/roles/schemas.js';
import type { RolesService } from './core/roles/service.js';
import { uploadRoutes } from './core/uploads/routes.js';
import type { UploadsService } from './core/uploads/service.js';
import { userRoutes } from './core/users/routes.js';
import { User } from './core/users/schemas.js';
import type { UsersService } from './core/users/service.js';
import { documentTypeRoutes } from './documents/document-types/routes.js';
import { CompanyDocumentType, EmployeeDocumentType } from './documents/document-types/schemas.js';
import type { DocumentTypesService } from './documents/document-types/service.js';
import { documentRoutes } from './documents/documents/routes.js';
import { CompanyDocument, EmployeeDocument } from './documents/documents/schemas.js';
import type { DocumentsService } from './documents/documents/service.js';
import { folderRoutes } from './documents/folders/routes.js';
import { Folder } from './documents/folders/schemas.js';
import type { FoldersService } from './documents/folders/service.js';
import { ErrorBody, HrError, sendHrError } from './errors.js';
import { kbArticleRoutes } from './knowledge/kb-articles/routes.js';
import { KbArticle, KbTag } from './knowledge/kb-articles/schemas.js';
import type { KbArticlesService } from './knowledge/kb-articles/service.js';
import { kbCategoryRoutes } from './knowledge/kb-categories/routes.js';
import { KbCategory } from './knowledge/kb-categories/schemas.js';
import type { KbCategoriesService } from './knowledge/kb-categories/service.js';
import type { Paginator } from './lists/pagination.js';
import { customStatusRoutes } from './people-assist/custom-statuses/routes.js';
import { CustomStatus } from './people-assist/custom-statuses/schemas.js';
import type { CustomStatusesService } from './people-assist/custom-statuses/service.js';
import { macroRoutes } from './people-assist/macros/routes.js';
import { MacroDetail, MacroList } from './people-assist/macros/schemas.js';
import type { MacrosService } from './people-assist/macros/service.js';
import { requestFormRoutes } from './people-assist/request-forms/routes.js';
import { RequestForm } from './people-assist/request-forms/schemas.js';
import type { RequestFormsService } from './people-assist/request-forms/service.js';
import { requestRoutes } from './people-assist/requests/routes.js';
import {
  EmployeeSimplified,
  RequestComment,
  RequestFull,
  RequestFullWithAttachments,
  UserSimplified,
} from './people-assist/requests/schemas.js';
import type { RequestsService } from './people-assist/requests/service.js';

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
