import { PdfWorker } from '../../platform/pdf/runner.js';
import type { HrArea, HrContext, HrModule } from '../module.js';
import { unitOfWork } from '../module.js';
import { AuthRepository } from './auth/repository.js';
import { tokenRoutes } from './auth/routes.js';
import { AuthService } from './auth/service.js';
import { BulkRepository } from './bulk/repository.js';
import { bulkRoutes } from './bulk/routes.js';
import { BulkOperationResult } from './bulk/schemas.js';
import { BULK_QUEUE, BulkService } from './bulk/service.js';
import { customFieldEvents } from './custom-fields/events.js';
import { CustomFieldsRepository } from './custom-fields/repository.js';
import { customFieldRoutes } from './custom-fields/routes.js';
import { CustomFieldsService } from './custom-fields/service.js';
import { datasetImportEvents } from './dataset-imports/events.js';
import { DatasetImportsRepository } from './dataset-imports/repository.js';
import { datasetImportRoutes } from './dataset-imports/routes.js';
import { DatasetImport } from './dataset-imports/schemas.js';
import { DATASET_IMPORT_QUEUE, DatasetImportsService } from './dataset-imports/service.js';
import { DatasetStagingRepository } from './dataset-imports/staging-repository.js';
import { datasetEvents, datasetValueEvents } from './datasets/events.js';
import { DatasetsRepository } from './datasets/repository.js';
import { datasetRoutes, datasetValueRoutes } from './datasets/routes.js';
import { Dataset, DatasetValue } from './datasets/schemas.js';
import { DatasetsService } from './datasets/service.js';
import { employeeEvents } from './employees/events.js';
import { EmployeesRepository } from './employees/repository.js';
import { employeeCollectionRoutes, employeeItemRoutes } from './employees/routes.js';
import {
  Employee,
  EmployeeBulkPatchItem,
  EmployeeBulkPutItem,
  EmployeeBulkStatus,
  EmployeeCreate,
} from './employees/schemas.js';
import { EmployeesService } from './employees/service.js';
import { importEvents } from './imports/events.js';
import { ImportsRepository } from './imports/repository.js';
import { importRoutes } from './imports/routes.js';
import { Import } from './imports/schemas.js';
import { IMPORT_QUEUE, ImportsService } from './imports/service.js';
import { organizationGroupEvents } from './organization-groups/events.js';
import { OrganizationGroupsRepository } from './organization-groups/repository.js';
import { organizationGroupRoutes } from './organization-groups/routes.js';
import { OrganizationGroup } from './organization-groups/schemas.js';
import { OrganizationGroupsService } from './organization-groups/service.js';
import { organizationEvents } from './organizations/events.js';
import { OrganizationsRepository } from './organizations/repository.js';
import { organizationRoutes } from './organizations/routes.js';
import { Organization } from './organizations/schemas.js';
import { OrganizationsService } from './organizations/service.js';
import { OutboxRepository } from './outbox/repository.js';
import { outboxRoutes } from './outbox/routes.js';
import { OutboxMail } from './outbox/schemas.js';
import { OutboxService } from './outbox/service.js';
import { PerimetersRepository } from './perimeters/repository.js';
import { PerimetersService } from './perimeters/service.js';
import { roleEvents } from './roles/events.js';
import { RolesRepository } from './roles/repository.js';
import { roleRoutes } from './roles/routes.js';
import { Role } from './roles/schemas.js';
import { RolesService } from './roles/service.js';
import { samlIdentityProviderEvents } from './saml-identity-providers/events.js';
import { SamlIdentityProvidersRepository } from './saml-identity-providers/repository.js';
import { samlIdentityProviderRoutes } from './saml-identity-providers/routes.js';
import { SamlIdentityProvider } from './saml-identity-providers/schemas.js';
import { SamlIdentityProvidersService } from './saml-identity-providers/service.js';
import { settingsEvents } from './settings/events.js';
import { SettingsRepository } from './settings/repository.js';
import { settingsRoutes } from './settings/routes.js';
import {
  AllSettings,
  CaseManagementSettings,
  ConfigUpdate,
  CoreClient,
  CoreSettings,
  KnowledgeBaseSettings,
  ProcessAutomationSettings,
} from './settings/schemas.js';
import { SettingsService } from './settings/service.js';
import { TenantsRepository } from './tenants/repository.js';
import { TenantsService } from './tenants/service.js';
import { uploadEvents } from './uploads/events.js';
import { UploadsRepository } from './uploads/repository.js';
import { uploadRoutes } from './uploads/routes.js';
import { UploadTextoccurrencesFull } from './uploads/schemas.js';
import { UploadsService } from './uploads/service.js';
import { uploadTextRoutes } from './uploads/text-routes.js';
import { userEvents } from './users/events.js';
import { UsersRepository } from './users/repository.js';
import { userRoutes } from './users/routes.js';
import { User, UserBulkPatchItem, UserBulkPutItem, UserBulkStatus, UserCreate } from './users/schemas.js';
import { UsersService } from './users/service.js';

/**
 * The core of the HR API: tenants and authentication, organizations and groups, roles and users, custom fields
 * and employees, uploads, and the rules shared by the areas above (employee perimeters, forms).
 */
export function createCore(ctx: HrContext) {
  const s = coreServices(ctx);
  const { bulk, datasetImports, imports } = s;
  bulk.serve('employees', { apply: (clientId, action, item) => s.employees.applyBulk(clientId, action, item) });
  bulk.serve('users', { apply: (clientId, action, item) => s.users.applyBulk(clientId, action, item) });
  bulk.serve('organizations', {
    apply: (clientId, action, item) => s.organizations.applyBulk(clientId, action, item),
  });
  const modules = coreModules(ctx, s);
  const jobs = {
    [BULK_QUEUE]: bulk.queue(),
    [DATASET_IMPORT_QUEUE]: datasetImports.queue(),
    [IMPORT_QUEUE]: imports.queue(),
  };
  return { services: s, modules, jobs } satisfies HrArea<typeof s>;
}

/** The core's services, each on its own unit of work (the bulk service serves employees, users, organizations). */
function coreServices(ctx: HrContext) {
  const { db, config } = ctx;
  const tenantsRepo = new TenantsRepository(db);
  const auth = new AuthService(
    unitOfWork(ctx, (db) => ({ auth: new AuthRepository(db) })),
    tenantsRepo,
    ctx.secretBox,
    ctx.clock,
    {
      tokenTtlSeconds: config.tokenTtlSeconds,
      refreshMs: config.authRefreshMs,
      viewPasses: ctx.viewPasses,
      ...(ctx.log ? { log: ctx.log } : {}),
    },
  );
  const customFields = new CustomFieldsService(
    unitOfWork(ctx, (db) => ({ customFields: new CustomFieldsRepository(db) })),
    ctx.clock,
  );
  const bulk = new BulkService(
    unitOfWork(ctx, (db) => ({ bulk: new BulkRepository(db) })),
    ctx.clock,
    ctx.wakeJobs,
  );
  const users = new UsersService(
    unitOfWork(ctx, (db) => ({
      users: new UsersRepository(db),
      bulk: new BulkRepository(db),
      outbox: new OutboxRepository(db),
    })),
    ctx.clock,
  );
  const services = {
    auth,
    tenants: new TenantsService(
      unitOfWork(ctx, (db) => ({ tenants: new TenantsRepository(db) })),
      ctx.clock,
    ),
    organizations: new OrganizationsService(
      unitOfWork(ctx, (db) => ({ organizations: new OrganizationsRepository(db), bulk: new BulkRepository(db) })),
      ctx.clock,
    ),
    settings: new SettingsService(
      unitOfWork(ctx, (db) => ({ settings: new SettingsRepository(db) })),
      ctx.clock,
      (clientId) => tenantsRepo.findClient(clientId),
    ),
    organizationGroups: new OrganizationGroupsService(
      unitOfWork(ctx, (db) => ({ organizationGroups: new OrganizationGroupsRepository(db) })),
      ctx.clock,
    ),
    uploads: new UploadsService(
      unitOfWork(ctx, (db) => ({ uploads: new UploadsRepository(db) })),
      ctx.blobs,
      {
        limitBytes: config.uploadLimit,
        ttlSeconds: config.uploadTtlSeconds,
        sweepMs: config.uploadSweepMs,
        stagingStaleMs: config.requestTimeoutMs + 60_000,
        clock: ctx.clock,
        pages: new PdfWorker({ log: ctx.log }),
        renditions: ctx.renditions,
        ...(ctx.log ? { log: ctx.log } : {}),
      },
    ),
    roles: new RolesService(
      unitOfWork(ctx, (db) => ({ roles: new RolesRepository(db) })),
      ctx.clock,
    ),
    users,
    customFields,
    employees: new EmployeesService(
      unitOfWork(ctx, (db) => ({ employees: new EmployeesRepository(db), bulk: new BulkRepository(db) })),
      customFields,
      users,
      ctx.clock,
    ),
    bulk,
    datasets: new DatasetsService(
      unitOfWork(ctx, (db) => ({ datasets: new DatasetsRepository(db) })),
      ctx.clock,
    ),
    samlIdentityProviders: new SamlIdentityProvidersService(
      unitOfWork(ctx, (db) => ({ samlIdentityProviders: new SamlIdentityProvidersRepository(db) })),
      ctx.clock,
    ),
    perimeters: new PerimetersService(new PerimetersRepository(db)),
    outbox: new OutboxService(new OutboxRepository(db)),
  };
  const datasetImports = new DatasetImportsService(
    unitOfWork(ctx, (db) => ({
      datasetImports: new DatasetImportsRepository(db),
      datasets: new DatasetsRepository(db),
      staging: new DatasetStagingRepository(db),
      uploads: new UploadsRepository(db),
    })),
    services.uploads,
    ctx.blobs,
    ctx.clock,
    ctx.wakeJobs,
    ctx.config.maxConcurrentDatasetImports,
  );
  const imports = new ImportsService(
    unitOfWork(ctx, (db) => ({
      imports: new ImportsRepository(db),
      bulk: new BulkRepository(db),
      uploads: new UploadsRepository(db),
      users: new UsersRepository(db),
    })),
    services.uploads,
    bulk,
    ctx.blobs,
    ctx.clock,
    ctx.wakeJobs,
    ctx.config.maxConcurrentImports,
  );
  return { ...services, datasetImports, imports };
}

/** The core's modules, in registration order: each resource's schemas, audit events and routes. */
function coreModules(ctx: HrContext, s: ReturnType<typeof coreServices>): HrModule[] {
  const { paginator } = ctx;
  const { bulk, datasetImports, imports } = s;
  return [
    { public: true, routes: (app, http) => tokenRoutes(app, { auth: s.auth, limits: http.rateLimits }) },
    {
      schemas: [Organization],
      events: [organizationEvents],
      routes: (app) => organizationRoutes(app, { organizations: s.organizations, paginator }),
    },
    {
      schemas: [OrganizationGroup],
      events: [organizationGroupEvents],
      routes: (app) => organizationGroupRoutes(app, { organizationGroups: s.organizationGroups, paginator }),
    },
    {
      schemas: [
        CoreClient,
        CoreSettings,
        ProcessAutomationSettings,
        KnowledgeBaseSettings,
        CaseManagementSettings,
        AllSettings,
        ConfigUpdate,
      ],
      events: [settingsEvents],
      routes: (app) => settingsRoutes(app, { settings: s.settings }),
    },
    { events: [uploadEvents], routes: (app) => uploadRoutes(app, { uploads: s.uploads }) },
    { schemas: [UploadTextoccurrencesFull], routes: (app) => uploadTextRoutes(app, { uploads: s.uploads }) },
    { schemas: [Role], events: [roleEvents], routes: (app) => roleRoutes(app, { roles: s.roles, paginator }) },
    { schemas: [User], events: [userEvents], routes: (app) => userRoutes(app, { users: s.users, paginator }) },
    {
      events: [customFieldEvents],
      routes: (app) => customFieldRoutes(app, { customFields: s.customFields, paginator }),
    },
    {
      schemas: [Employee],
      events: [employeeEvents],
      routes: async (app) => {
        await employeeCollectionRoutes(app, { employees: s.employees, paginator });
        await employeeItemRoutes(app, { employees: s.employees });
      },
    },
    {
      schemas: [Dataset, DatasetValue],
      events: [datasetEvents, datasetValueEvents],
      routes: async (app) => {
        await datasetRoutes(app, { datasets: s.datasets, paginator });
        await datasetValueRoutes(app, { datasets: s.datasets, paginator });
      },
    },
    {
      schemas: [DatasetImport],
      events: [datasetImportEvents],
      routes: (app) => datasetImportRoutes(app, { datasetImports, paginator, blobs: ctx.blobs }),
    },
    {
      schemas: [Import],
      events: [importEvents],
      routes: (app) => importRoutes(app, { imports, paginator, blobs: ctx.blobs }),
    },
    {
      schemas: [SamlIdentityProvider],
      events: [samlIdentityProviderEvents],
      routes: (app) => samlIdentityProviderRoutes(app, { samlIdentityProviders: s.samlIdentityProviders, paginator }),
    },
    { schemas: [OutboxMail], routes: (app) => outboxRoutes(app, { outbox: s.outbox, paginator }) },
    {
      schemas: [BulkOperationResult, EmployeeBulkStatus, UserBulkStatus],
      routes: async (app) => {
        await bulkRoutes(app, {
          bulk,
          target: {
            resource: 'employees',
            path: '/employees/bulk',
            tags: ['Employees'],
            plural: 'employees',
            items: { create: EmployeeCreate, replace: EmployeeBulkPutItem, patch: EmployeeBulkPatchItem },
            status: EmployeeBulkStatus,
          },
        });
        await bulkRoutes(app, {
          bulk,
          target: {
            resource: 'users',
            path: '/users/bulk',
            tags: ['Users'],
            plural: 'users',
            items: { create: UserCreate, replace: UserBulkPutItem, patch: UserBulkPatchItem },
            status: UserBulkStatus,
          },
        });
      },
    },
  ];
}

export type CoreServices = ReturnType<typeof createCore>['services'];
