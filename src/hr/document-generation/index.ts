import type { Transaction } from 'kysely';
import type { Tables } from '../../platform/db/schema.js';
import { convertDocument, findOffice } from '../../platform/docgen/convert.js';
import { DocgenWorker } from '../../platform/docgen/runner.js';
import type { Job, JobContext } from '../../platform/jobs/index.js';
import { PdfWorker } from '../../platform/pdf/runner.js';
import { OutboxRepository } from '../core/outbox/repository.js';
import { UploadsRepository } from '../core/uploads/repository.js';
import { DocumentsRepository } from '../documents/documents/repository.js';
import type { DocumentsServices } from '../documents/index.js';
import { VaultsRepository } from '../documents/vaults/repository.js';
import { type HrArea, type HrContext, type HrModule, unitOfWork } from '../module.js';
import { campaignEvents } from './campaigns/events.js';
import { CampaignJobs } from './campaigns/job.js';
import { CampaignsRepository } from './campaigns/repository.js';
import { campaignCsvRoutes, campaignRoutes } from './campaigns/routes.js';
import { Campaign, CampaignDetails } from './campaigns/schemas.js';
import { CAMPAIGN_QUEUE, type CampaignJob, CampaignsService } from './campaigns/service.js';
import type { OfficeConverter } from './generations/compose.js';
import { DeliveryService } from './generations/delivery-service.js';
import { generationEvents } from './generations/events.js';
import { GenerationsRepository } from './generations/repository.js';
import { generationActionRoutes, generationRequestRoutes, generationRoutes } from './generations/routes.js';
import { Generation, GenerationRequest, GenerationWithErrors } from './generations/schemas.js';
import { GENERATION_QUEUE, type GenerationJob, GenerationsService } from './generations/service.js';
import { migrationEvents } from './syntax-migration/events.js';
import { MigrationsRepository } from './syntax-migration/repository.js';
import { migrationRoutes } from './syntax-migration/routes.js';
import { MigrationCampaign, MigrationStatus } from './syntax-migration/schemas.js';
import { MIGRATION_QUEUE, type MigrationJob, MigrationService } from './syntax-migration/service.js';
import { templateEvents, templateVersionEvents } from './templates/events.js';
import { TemplatesRepository } from './templates/repository.js';
import { templateRoutes } from './templates/routes.js';
import { Template } from './templates/schemas.js';
import { TemplatesService } from './templates/service.js';
import { templateUploadRoutes, versionFileRoutes, versionRoutes } from './versions/routes.js';
import { DocFields, FieldSet, TemplateVersion } from './versions/schemas.js';
import { VersionsService } from './versions/service.js';

/** The office converter of the configuration: found once, at start. */
function officeConverter(ctx: HrContext): OfficeConverter {
  const path = findOffice(ctx.config.soffice);
  return {
    path,
    convert: async (docx, to) => {
      if (path === undefined) return { ok: false, reason: 'missing', message: 'no office converter' };
      return convertDocument(path, docx, to, { timeoutMs: ctx.config.sofficeTimeoutMs });
    },
  };
}

/**
 * Document generation, the Document manager's part that writes documents (docs/hr-api.md, "Document generation"):
 * templates and their versions, generations (sync and async) and their requests. Built on the documents area
 * (archive files an employee document, vault drops it in the employee's vault).
 */
export function createDocumentGeneration(ctx: HrContext, documents: DocumentsServices) {
  const { paginator, blobs, clock, renditions } = ctx;
  const engine = new DocgenWorker({ log: ctx.log });
  const office = officeConverter(ctx);
  const templatesWork = unitOfWork(ctx, (db) => ({ templates: new TemplatesRepository(db) }));
  const templates = new TemplatesService(templatesWork, { clock, blobs });
  const versions = new VersionsService(templatesWork, { clock, blobs, engine });
  const generationsWork = unitOfWork(ctx, (db) => ({
    generations: new GenerationsRepository(db),
    templates: new TemplatesRepository(db),
    documents: new DocumentsRepository(db),
    outbox: new OutboxRepository(db),
    vaults: new VaultsRepository(db),
    uploads: new UploadsRepository(db),
  }));
  const generations = new GenerationsService(generationsWork, {
    clock,
    blobs,
    engine,
    office,
    wakeJobs: ctx.wakeJobs,
  });
  const delivery = new DeliveryService(generationsWork, {
    clock,
    documents: documents.documents,
    vault: (tx, clientId, file) => documents.vaults.dropFile(tx, clientId, file),
  });
  const { campaigns, campaignJobs, migration } = campaignServices(ctx, documents, engine, office);
  const s = {
    documentGenerationTemplates: templates,
    documentGenerationVersions: versions,
    documentGenerations: generations,
    documentGenerationCampaigns: campaigns,
    documentGenerationSyntaxMigration: migration,
  };
  const modules: HrModule[] = [
    {
      schemas: [Template, TemplateVersion, DocFields, FieldSet, Generation, GenerationWithErrors, GenerationRequest],
      events: [templateEvents, templateVersionEvents],
      routes: async (app) => {
        await templateRoutes(app, { templates, paginator });
        await versionRoutes(app, { versions, paginator });
        await versionFileRoutes(app, { versions, blobs, renditions });
      },
    },
    { routes: (app) => templateUploadRoutes(app, { versions }) },
    {
      events: [generationEvents],
      routes: async (app) => {
        await generationRoutes(app, { generations, blobs, renditions });
        await generationActionRoutes(app, { delivery });
        await generationRequestRoutes(app, { generations, paginator });
      },
    },
    {
      schemas: [Campaign, CampaignDetails, MigrationStatus, MigrationCampaign],
      events: [campaignEvents, migrationEvents],
      routes: async (app) => {
        await campaignRoutes(app, { campaigns, blobs, paginator });
        await migrationRoutes(app, { migration, paginator });
      },
    },
    { routes: (app) => campaignCsvRoutes(app) },
  ];
  return {
    services: s,
    modules,
    jobs: {
      [GENERATION_QUEUE]: {
        handle: (job: Job<GenerationJob>) =>
          clock.runAs(`hr:${job.payload.clientId}`, () => generations.runJob(job.payload)),
        maxAttempts: 5,
        onGiveUp: (job: Job<GenerationJob>, trx: Transaction<Tables>) =>
          clock.runAs(`hr:${job.payload.clientId}`, () => generations.gaveUp(job.payload, trx)),
      },
      [CAMPAIGN_QUEUE]: {
        handle: (job: Job<CampaignJob>, context: JobContext) =>
          clock.runAs(`hr:${job.payload.clientId}`, () => campaignJobs.run(job.payload, context)),
        maxAttempts: 5,
        onGiveUp: (job: Job<CampaignJob>, trx: Transaction<Tables>) =>
          clock.runAs(`hr:${job.payload.clientId}`, () => campaignJobs.gaveUp(job.payload, trx)),
      },
      [MIGRATION_QUEUE]: {
        handle: (job: Job<MigrationJob>) =>
          clock.runAs(`hr:${job.payload.clientId}`, () => migration.runJob(job.payload)),
        maxAttempts: 5,
        onGiveUp: (job: Job<MigrationJob>, trx: Transaction<Tables>) =>
          clock.runAs(`hr:${job.payload.clientId}`, () => migration.gaveUp(job.payload, trx)),
      },
    },
  } satisfies HrArea<typeof s>;
}

/** Campaigns (their service and their job) and the syntax migration, on the area's engine. */
function campaignServices(ctx: HrContext, documents: DocumentsServices, engine: DocgenWorker, office: OfficeConverter) {
  const { blobs, clock } = ctx;
  const pdf = new PdfWorker({ log: ctx.log });
  const campaignsWork = unitOfWork(ctx, (db) => ({
    campaigns: new CampaignsRepository(db),
    templates: new TemplatesRepository(db),
    documents: new DocumentsRepository(db),
    uploads: new UploadsRepository(db),
  }));
  const campaigns = new CampaignsService(campaignsWork, {
    clock,
    blobs,
    wakeJobs: ctx.wakeJobs,
    maxConcurrent: ctx.config.maxConcurrentCampaigns,
  });
  const campaignJobs = new CampaignJobs(campaignsWork, {
    clock,
    blobs,
    engine,
    office,
    documents: documents.documents,
    zip: (entries) => engine.zip(entries),
    concat: (parts) => pdf.concat(parts),
  });
  const migrationWork = unitOfWork(ctx, (db) => ({
    migrations: new MigrationsRepository(db),
    templates: new TemplatesRepository(db),
  }));
  const migration = new MigrationService(migrationWork, { clock, blobs, engine, wakeJobs: ctx.wakeJobs });
  return { campaigns, campaignJobs, migration };
}
