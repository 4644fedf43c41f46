import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { AcademiesRepository } from './academy/academies/repository.js';
import { AcademiesService } from './academy/academies/service.js';
import { TimezoneRegistry } from './academy/content/timezones.js';
import { DirectoryRepository } from './academy/directory/repository.js';
import { DirectoryService } from './academy/directory/service.js';
import { academyErrorBody } from './academy/errors.js';
import { EventsRepository } from './academy/events/repository.js';
import { EventsService } from './academy/events/service.js';
import { ACADEMY_PREFIX, type AcademyServices, academyApi } from './academy/plugin.js';
import { ProcessTemplatesRepository } from './hr/automation/process-templates/repository.js';
import { ProcessTemplatesService } from './hr/automation/process-templates/service.js';
import { ProcessesRepository } from './hr/automation/processes/repository.js';
import { ProcessesService } from './hr/automation/processes/service.js';
import { TasksRepository } from './hr/automation/tasks/repository.js';
import { TasksService } from './hr/automation/tasks/service.js';
import { AuthRepository } from './hr/core/auth/repository.js';
import { AuthService } from './hr/core/auth/service.js';
import { CustomFieldsRepository } from './hr/core/custom-fields/repository.js';
import { CustomFieldsService } from './hr/core/custom-fields/service.js';
import { EmployeesRepository } from './hr/core/employees/repository.js';
import { EmployeesService } from './hr/core/employees/service.js';
import { OrganizationGroupsRepository } from './hr/core/organization-groups/repository.js';
import { OrganizationGroupsService } from './hr/core/organization-groups/service.js';
import { OrganizationsRepository } from './hr/core/organizations/repository.js';
import { OrganizationsService } from './hr/core/organizations/service.js';
import { PerimetersRepository } from './hr/core/perimeters/repository.js';
import { PerimetersService } from './hr/core/perimeters/service.js';
import { RolesRepository } from './hr/core/roles/repository.js';
import { RolesService } from './hr/core/roles/service.js';
import { TenantsRepository } from './hr/core/tenants/repository.js';
import { TenantsService } from './hr/core/tenants/service.js';
import { UploadsRepository } from './hr/core/uploads/repository.js';
import { UploadsService } from './hr/core/uploads/service.js';
import { UsersRepository } from './hr/core/users/repository.js';
import { UsersService } from './hr/core/users/service.js';
import { DocumentTypesRepository } from './hr/documents/document-types/repository.js';
import { DocumentTypesService } from './hr/documents/document-types/service.js';
import { DocumentsRepository } from './hr/documents/documents/repository.js';
import { DocumentsService } from './hr/documents/documents/service.js';
import { FoldersRepository } from './hr/documents/folders/repository.js';
import { FoldersService } from './hr/documents/folders/service.js';
import { hrErrorBody } from './hr/errors.js';
import { KbArticlesRepository } from './hr/knowledge/kb-articles/repository.js';
import { KbArticlesService } from './hr/knowledge/kb-articles/service.js';
import { KbCategoriesRepository } from './hr/knowledge/kb-categories/repository.js';
import { KbCategoriesService } from './hr/knowledge/kb-categories/service.js';
import { CursorCodec } from './hr/lists/cursor.js';
import { Paginator } from './hr/lists/pagination.js';
import { CustomStatusesRepository } from './hr/people-assist/custom-statuses/repository.js';
import { CustomStatusesService } from './hr/people-assist/custom-statuses/service.js';
import { MacrosRepository } from './hr/people-assist/macros/repository.js';
import { MacrosService } from './hr/people-assist/macros/service.js';
import { RequestFormsRepository } from './hr/people-assist/request-forms/repository.js';
import { RequestFormsService } from './hr/people-assist/request-forms/service.js';
import { RequestsRepository } from './hr/people-assist/requests/repository.js';
import { RequestsService } from './hr/people-assist/requests/service.js';
import { HR_PREFIX, type HrServices, hrApi } from './hr/plugin.js';
import { openBlobStore } from './platform/blobs/open.js';
import type { BlobStore } from './platform/blobs/store.js';
import type { Config } from './platform/config.js';
import { type Database, openDatabase } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrate.js';
import { settingOrCreate } from './platform/db/settings.js';
import { UnitOfWork } from './platform/db/unit-of-work.js';
import { rateLimits } from './platform/http/rate-limit.js';
import { createServer } from './platform/http/server.js';
import { newSecret } from './platform/security/secrets.js';
import { Clock } from './platform/time.js';

/** Every service, wired to one database. The CLI and the server share this. */
export interface Services extends HrServices, AcademyServices {
  tenants: TenantsService;
  /** The clock every time-derived state reads; tests move it. */
  clock: Clock;
  timezones: TimezoneRegistry;
  /** Stored files: a directory with SQLite, chunks in the database with PostgreSQL. */
  blobs: BlobStore;
}

export async function createServices(database: Database, config: Config, log?: Logger): Promise<Services> {
  const db = database.db;
  const tenantsRepo = new TenantsRepository(db);
  const auth = new AuthService(new AuthRepository(db), tenantsRepo, {
    tokenTtlSeconds: config.tokenTtlSeconds,
    refreshMs: config.authRefreshMs,
    ...(log ? { log } : {}),
  });
  const cursorSecret = await settingOrCreate(db, 'cursor_secret', () => newSecret());
  const clock = new Clock();
  const customFields = new CustomFieldsService(new CustomFieldsRepository(db));
  const timezones = new TimezoneRegistry();
  const blobs = openBlobStore(database, { dataDir: config.dataDir, ...(log ? { log } : {}) });
  const uploads = new UploadsService(new UploadsRepository(db), blobs, {
    limitBytes: config.uploadLimit,
    ttlSeconds: config.uploadTtlSeconds,
    sweepMs: config.uploadSweepMs,
    clock,
    ...(log ? { log } : {}),
  });
  const folders = new FoldersService(new FoldersRepository(db));
  const documentTypes = new DocumentTypesService(new DocumentTypesRepository(db), folders);
  const users = new UsersService(new UsersRepository(db));
  const processesRepo = new ProcessesRepository(db);
  const tasksRepo = new TasksRepository(db);
  const tasks = new TasksService(tasksRepo, processesRepo, uploads, blobs);
  // The knowledge base's repository reads the facts employee perimeters need (organizations, groups, fields).
  const kbArticlesRepo = new KbArticlesRepository(db, database.dialect);
  const requestForms = new RequestFormsService(
    new RequestFormsRepository(db),
    new PerimetersService(new PerimetersRepository(db)),
  );
  const macros = new MacrosService(new MacrosRepository(db));
  return {
    clock,
    timezones,
    blobs,
    uploads,
    folders,
    documentTypes,
    documents: new DocumentsService(new DocumentsRepository(db), uploads, blobs, users),
    processTemplates: new ProcessTemplatesService(new ProcessTemplatesRepository(db), uploads, blobs),
    processes: new ProcessesService(processesRepo, tasksRepo, tasks, blobs),
    tasks,
    events: new EventsService(new EventsRepository(db, database.dialect), timezones, clock),
    academies: new AcademiesService(new AcademiesRepository(db), clock, config.keyGraceSeconds),
    directory: new DirectoryService(new DirectoryRepository(db), clock),
    auth,
    tenants: new TenantsService(tenantsRepo),
    paginator: new Paginator(new CursorCodec(cursorSecret)),
    organizations: new OrganizationsService(
      new UnitOfWork(db, (db) => ({ organizations: new OrganizationsRepository(db) })),
    ),
    organizationGroups: new OrganizationGroupsService(new OrganizationGroupsRepository(db)),
    roles: new RolesService(new RolesRepository(db)),
    users,
    customFields,
    employees: new EmployeesService(new EmployeesRepository(db), customFields),
    kbCategories: new KbCategoriesService(new KbCategoriesRepository(db)),
    kbArticles: new KbArticlesService(kbArticlesRepo),
    customStatuses: new CustomStatusesService(new CustomStatusesRepository(db)),
    macros,
    requestForms,
    requests: new RequestsService(new RequestsRepository(db), requestForms, macros, uploads, blobs),
  };
}

export interface App {
  server: FastifyInstance;
  database: Database;
  services: Services;
  close(): Promise<void>;
}

/** Opens the database, applies migrations, and builds the HTTP server with both APIs. */
export async function buildApp(config: Config, options: { logger?: Logger; database?: Database } = {}): Promise<App> {
  const database = options.database ?? openDatabase(config);
  await migrateToLatest(database);
  const server = await createServer({
    config,
    database,
    clientErrorBody: (path, status, message) =>
      path.startsWith(ACADEMY_PREFIX) ? academyErrorBody(status, message) : hrErrorBody(status, message),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const services = await createServices(database, config, server.log as unknown as Logger);
  await services.auth.start();
  services.uploads.start();
  // One set of limits for both APIs: failed authentications count per client address whichever API they hit.
  const limits = rateLimits(config.rateLimit, config.authFailureLimit, () => services.clock.now());
  await server.register(hrApi, { prefix: HR_PREFIX, ...services, rateLimits: limits });
  await server.register(academyApi, {
    prefix: ACADEMY_PREFIX,
    corsOrigins: config.corsOrigins,
    rateLimit: config.academyRateLimit,
    ...services,
    rateLimits: limits,
  });
  let closed = false;
  return {
    server,
    database,
    services,
    async close() {
      if (closed) return;
      closed = true;
      services.auth.stop();
      await services.uploads.stop();
      await server.close();
      await database.close();
    },
  };
}
