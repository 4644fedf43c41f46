import { convertDocument, findOffice } from '../../platform/docgen/convert.js';
import { DocgenWorker } from '../../platform/docgen/runner.js';
import type { Job } from '../../platform/jobs/index.js';
import { OutboxRepository } from '../core/outbox/repository.js';
import { UploadsRepository } from '../core/uploads/repository.js';
import { DocumentsRepository } from '../documents/documents/repository.js';
import type { DocumentsServices } from '../documents/index.js';
import { VaultsRepository } from '../documents/vaults/repository.js';
import { type HrArea, type HrContext, type HrModule, unitOfWork } from '../module.js';
import type { OfficeConverter } from './generations/compose.js';
import { DeliveryService } from './generations/delivery-service.js';
import { generationEvents } from './generations/events.js';
import { GenerationsRepository } from './generations/repository.js';
import { generationActionRoutes, generationRequestRoutes, generationRoutes } from './generations/routes.js';
import { Generation, GenerationRequest, GenerationWithErrors } from './generations/schemas.js';
import { GENERATION_QUEUE, type GenerationJob, GenerationsService } from './generations/service.js';
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
  const s = {
    documentGenerationTemplates: templates,
    documentGenerationVersions: versions,
    documentGenerations: generations,
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
  ];
  return {
    services: s,
    modules,
    jobs: {
      [GENERATION_QUEUE]: {
        handle: (job: Job<GenerationJob>) =>
          clock.runAs(`hr:${job.payload.clientId}`, () => generations.runJob(job.payload)),
        maxAttempts: 5,
      },
    },
  } satisfies HrArea<typeof s>;
}
