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
import { AuthRepository } from './hr/auth/repository.js';
import { AuthService } from './hr/auth/service.js';
import { CustomFieldsRepository } from './hr/custom-fields/repository.js';
import { CustomFieldsService } from './hr/custom-fields/service.js';
import { CustomStatusesRepository } from './hr/custom-statuses/repository.js';
import { CustomStatusesService } from './hr/custom-statuses/service.js';
import { DocumentTypesRepository } from './hr/document-types/repository.js';
import { DocumentTypesService } from './hr/document-types/service.js';
import { DocumentsRepository } from './hr/documents/repository.js';
import { DocumentsService } from './hr/documents/service.js';
import { EmployeesRepository } from './hr/employees/repository.js';
import { EmployeesService } from './hr/employees/service.js';
import { hrErrorBody } from './hr/errors.js';
import { FoldersRepository } from './hr/folders/repository.js';
import { FoldersService } from './hr/folders/service.js';
import { KbArticlesRepository } from './hr/kb-articles/repository.js';
import { KbArticlesService } from './hr/kb-articles/service.js';
import { KbCategoriesRepository } from './hr/kb-categories/repository.js';
import { KbCategoriesService } from './hr/kb-categories/service.js';
import { MacrosRepository } from './hr/macros/repository.js';
import { MacrosService } from './hr/macros/service.js';
import { OrganizationGroupsRepository } from './hr/organization-groups/repository.js';
import { OrganizationGroupsService } from './hr/organization-groups/service.js';
import { OrganizationsRepository } from './hr/organizations/repository.js';
import { OrganizationsService } from './hr/organizations/service.js';
import { CursorCodec } from './hr/pagination/cursor.js';
import { Paginator } from './hr/pagination/pagination.js';
import { PerimetersRepository } from './hr/perimeters/repository.js';
import { PerimetersService } from './hr/perimeters/service.js';
import { HR_PREFIX, type HrServices, hrApi } from './hr/plugin.js';
import { ProcessTemplatesRepository } from './hr/process-templates/repository.js';
import { ProcessTemplatesService } from './hr/process-templates/service.js';
import { ProcessesRepository } from './hr/processes/repository.js';
import { ProcessesService } from './hr/processes/service.js';
import { RequestFormsRepository } from './hr/request-forms/repository.js';
import { RequestFormsService } from './hr/request-forms/service.js';
import { RequestsRepository } from './hr/requests/repository.js';
import { RequestsService } from './hr/requests/service.js';
import { RolesRepository } from './hr/roles/repository.js';
import { RolesService } from './hr/roles/service.js';
import { TasksRepository } from './hr/tasks/repository.js';
import { TasksService } from './hr/tasks/service.js';
import { TenantsRepository } from './hr/tenants/repository.js';
import { TenantsService } from './hr/tenants/service.js';
import { UploadsRepository } from './hr/uploads/repository.js';
import { UploadsService } from './hr/uploads/service.js';
import { UsersRepository } from './hr/users/repository.js';
import { UsersService } from './hr/users/service.js';
import { openBlobStore } from './platform/blobs/open.js';
import type { BlobStore } from './platform/blobs/store.js';
import type { Config } from './platform/config.js';
import { type Database, openDatabase } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrate.js';
import { checkMasterKey, secretSettingOrCreate } from './platform/db/settings.js';
import { type RateLimits, rateLimits } from './platform/http/rate-limit.js';
import { createServer } from './platform/http/server.js';
import { checkPermissions } from './platform/security/permissions.js';
import { loadSecretBox, type SecretBox } from './platform/security/secret-box.js';
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
  /** Encryption at rest of reversible secrets (the master key); webhook keys will use it too. */
  secretBox: SecretBox;
}

export async function createServices(database: Database, config: Config, log?: Logger): Promise<Services> {
  const db = database.db;
  const tenantsRepo = new TenantsRepository(db);
  const clock = new Clock();
  // A master key that is not this database's own fails here, at start, with MasterKeyError (never a 500 later).
  const secretBox = loadSecretBox(config);
  await checkMasterKey(db, secretBox);
  const auth = new AuthService(new AuthRepository(db), tenantsRepo, secretBox, clock, {
    tokenTtlSeconds: config.tokenTtlSeconds,
    refreshMs: config.authRefreshMs,
    ...(log ? { log } : {}),
  });
  // Secrets an earlier release stored in plain text are sealed now (the cursor secret on first read).
  const sealed = await auth.sealPlaintextKeys();
  if (sealed > 0) log?.info({ sealed }, 'signing keys stored in plain text were encrypted with the master key');
  const cursorSecret = await secretSettingOrCreate(db, secretBox, 'cursor_secret', () => newSecret());
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
    secretBox,
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
    organizations: new OrganizationsService(new OrganizationsRepository(db)),
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
  /** The request and failed-authentication limits both APIs share (per process). */
  rateLimits: RateLimits;
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
  for (const finding of checkPermissions(config)) {
    if (!finding.ok) {
      server.log.warn(
        { path: finding.path, mode: finding.mode, expected: finding.expected },
        'readable by other users: restrict it (chmod); see `atrium doctor`',
      );
    }
  }
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
    rateLimits: limits,
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
