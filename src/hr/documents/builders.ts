/**
 * The parts of the Document manager that createDocuments (index.ts) composes: the services of folders, document
 * types and documents, those of the scans, vaults, subscriptions and distributions, and the per-kind modules of
 * folders, document types and documents.
 */
import { buildInfo } from '../../platform/build-info.js';
import { send } from '../../platform/http/outbound.js';
import { PdfWorker } from '../../platform/pdf/runner.js';
import type { CoreServices } from '../core/index.js';
import { OutboxRepository } from '../core/outbox/repository.js';
import { UploadsRepository } from '../core/uploads/repository.js';
import { type HrContext, type HrModule, unitOfWork } from '../module.js';
import { DistributionsRepository } from './distributions/repository.js';
import { DistributionsService } from './distributions/service.js';
import { DistributionStepsService } from './distributions/steps-service.js';
import { documentTypeEvents } from './document-types/events.js';
import { DocumentTypesRepository } from './document-types/repository.js';
import { documentTypeRoutes } from './document-types/routes.js';
import { DocumentTypesService } from './document-types/service.js';
import { DocumentPermissions } from './documents/access.js';
import { documentEvents } from './documents/events.js';
import { DocumentLifecycleService } from './documents/lifecycle-service.js';
import { DocumentReadsService } from './documents/reads-service.js';
import { DocumentsRepository } from './documents/repository.js';
import {
  documentCollectionRoutes,
  documentFileRoutes,
  documentLifecycleRoutes,
  documentRenditionRoutes,
  documentRoutes,
  documentSearchRoutes,
} from './documents/routes.js';
import { DocumentsService } from './documents/service.js';
import { FoldersRepository } from './folders/repository.js';
import { folderRoutes } from './folders/routes.js';
import { FoldersService } from './folders/service.js';
import { ScansRepository } from './scans/repository.js';
import { ScansService } from './scans/service.js';
import { SubscriptionsService } from './subscriptions/service.js';
import { VaultsRepository } from './vaults/repository.js';
import { VaultsService } from './vaults/service.js';

/** Folders, document types and documents: what the area's other resources build on. */
export function documentServices(ctx: HrContext, core: CoreServices) {
  const folders = new FoldersService(
    unitOfWork(ctx, (db) => ({ folders: new FoldersRepository(db) })),
    ctx.clock,
  );
  const documentsWork = unitOfWork(ctx, (db) => ({
    documents: new DocumentsRepository(db),
    uploads: new UploadsRepository(db),
  }));
  const permissions = new DocumentPermissions(documentsWork.read.documents, core.users, ctx.clock);
  return {
    folders,
    documentTypes: new DocumentTypesService(
      unitOfWork(ctx, (db) => ({ documentTypes: new DocumentTypesRepository(db) })),
      folders,
      ctx.clock,
    ),
    documents: new DocumentsService(documentsWork, permissions, core.uploads, ctx.clock),
    documentReads: new DocumentReadsService(documentsWork, permissions, ctx.clock),
    documentLifecycle: new DocumentLifecycleService(documentsWork, permissions, ctx.blobs, ctx.clock),
  };
}

/** Antivirus-scanned uploads, electronic vaults and their subscriptions, distributions. */
export function resourceServices(ctx: HrContext, core: CoreServices, documents: DocumentsService) {
  const { blobs } = ctx;
  const scans = new ScansService(
    unitOfWork(ctx, (db) => ({ scans: new ScansRepository(db), uploads: new UploadsRepository(db) })),
    {
      blobs,
      clock: ctx.clock,
      wakeJobs: ctx.wakeJobs,
      limitBytes: core.uploads.limitBytes,
      uploadTtlSeconds: core.uploads.ttlSeconds,
      pages: new PdfWorker({ log: ctx.log }),
      callbacks: {
        send: (url, body) =>
          send({
            url,
            body,
            headers: { 'content-type': 'application/json', 'user-agent': `Atrium/${buildInfo().version} (+scans)` },
            timeoutMs: ctx.config.webhookTimeoutMs,
            allowPrivate: ctx.config.webhookAllowPrivate,
            now: () => performance.now(),
          }),
        retryForMs: ctx.config.webhookRetryForSeconds * 1000,
      },
      ...(ctx.log ? { log: ctx.log } : {}),
    },
  );
  const vaults = new VaultsService(
    unitOfWork(ctx, (db) => ({
      vaults: new VaultsRepository(db),
      documents: new DocumentsRepository(db),
      uploads: new UploadsRepository(db),
      outbox: new OutboxRepository(db),
    })),
    { uploads: core.uploads, documents, clock: ctx.clock, wakeJobs: ctx.wakeJobs },
  );
  const subscriptions = new SubscriptionsService(
    unitOfWork(ctx, (db) => ({ vaults: new VaultsRepository(db), documentTypes: new DocumentTypesRepository(db) })),
  );
  const distributionsWork = unitOfWork(ctx, (db) => ({
    distributions: new DistributionsRepository(db),
    uploads: new UploadsRepository(db),
    documents: new DocumentsRepository(db),
  }));
  const distributions = new DistributionsService(distributionsWork, {
    uploads: core.uploads,
    clock: ctx.clock,
    wakeJobs: ctx.wakeJobs,
  });
  const distributionSteps = new DistributionStepsService(distributionsWork, {
    documents,
    blobs,
    // Its own worker: a long file's text and split take longer than a preview's render.
    pdf: new PdfWorker({ log: ctx.log, renderTimeoutMs: 60_000, heapMb: 512 }),
    clock: ctx.clock,
    ...(ctx.log ? { log: ctx.log } : {}),
  });
  return { scans, vaults, subscriptions, distributions, distributionSteps };
}

/** The modules of folders, document types and documents, for each kind. */
export function documentModules(ctx: HrContext, s: ReturnType<typeof documentServices>): HrModule[] {
  const { paginator, blobs } = ctx;
  const modules: HrModule[] = [];
  for (const kind of ['employee', 'company'] as const) {
    const documentOptions = {
      documents: s.documents,
      reads: s.documentReads,
      lifecycle: s.documentLifecycle,
      paginator,
      blobs,
      renditions: ctx.renditions,
      clock: ctx.clock,
      kind,
    };
    modules.push(
      { routes: (app) => folderRoutes(app, { folders: s.folders, paginator, kind }) },
      {
        routes: (app) => documentTypeRoutes(app, { documentTypes: s.documentTypes, paginator, kind }),
        events: [documentTypeEvents[kind]],
      },
      {
        routes: async (app) => {
          await documentSearchRoutes(app, documentOptions);
          await documentCollectionRoutes(app, documentOptions);
          await documentRoutes(app, documentOptions);
          await documentLifecycleRoutes(app, documentOptions);
          await documentFileRoutes(app, documentOptions);
          await documentRenditionRoutes(app, documentOptions);
        },
        events: [documentEvents[kind]],
      },
    );
  }
  return modules;
}
