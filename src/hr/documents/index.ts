import { buildInfo } from '../../platform/build-info.js';
import { send } from '../../platform/http/outbound.js';
import { PdfWorker } from '../../platform/pdf/runner.js';
import type { CoreServices } from '../core/index.js';
import { OutboxRepository } from '../core/outbox/repository.js';
import { UploadsRepository } from '../core/uploads/repository.js';
import { type HrArea, type HrContext, type HrModule, unitOfWork } from '../module.js';
import { distributionEvents, distributionProjectEvents } from './distributions/events.js';
import { DistributionsRepository } from './distributions/repository.js';
import { distributionProjectRoutes, distributionRoutes } from './distributions/routes.js';
import { Distribution, DistributionProject } from './distributions/schemas.js';
import { DistributionsService } from './distributions/service.js';
import { DistributionStepsService } from './distributions/steps-service.js';
import { documentTypeEvents } from './document-types/events.js';
import { DocumentTypesRepository } from './document-types/repository.js';
import { documentTypeRoutes } from './document-types/routes.js';
import { CompanyDocumentType, EmployeeDocumentType } from './document-types/schemas.js';
import { DocumentTypesService } from './document-types/service.js';
import { DocumentPermissions } from './documents/access.js';
import { documentEvents } from './documents/events.js';
import { DocumentLifecycleService } from './documents/lifecycle-service.js';
import { DocumentReadsService } from './documents/reads-service.js';
import { DocumentsRepository } from './documents/repository.js';
import {
  documentFileRoutes,
  documentLifecycleRoutes,
  documentRenditionRoutes,
  documentRoutes,
  documentSearchRoutes,
} from './documents/routes.js';
import { CompanyDocument, EmployeeDocument } from './documents/schemas.js';
import { DocumentsService } from './documents/service.js';
import { FoldersRepository } from './folders/repository.js';
import { folderRoutes } from './folders/routes.js';
import { Folder } from './folders/schemas.js';
import { FoldersService } from './folders/service.js';
import { inboxItemEvents } from './inbox/events.js';
import { InboxRepository } from './inbox/repository.js';
import { inboxRoutes } from './inbox/routes.js';
import { InboxItem } from './inbox/schemas.js';
import { InboxService } from './inbox/service.js';
import { redirectionUrlRoutes } from './redirection-urls/routes.js';
import { RedirectionUrlsService } from './redirection-urls/service.js';
import { ScansRepository } from './scans/repository.js';
import { scanRoutes } from './scans/routes.js';
import { ScansService } from './scans/service.js';
import { signatureEvents, signerEvents } from './signatures/events.js';
import { SigningLinks } from './signatures/links.js';
import { signingPageRoutes } from './signatures/page.js';
import { SignaturesRepository } from './signatures/repository.js';
import { signatureProcessRoutes } from './signatures/routes.js';
import { SignatureProcess, SignatureType, Signer } from './signatures/schemas.js';
import { SignaturesService } from './signatures/service.js';
import { signerRoutes } from './signatures/signer-routes.js';
import { subscriptionRoutes } from './subscriptions/routes.js';
import { EmployeeSubscription, Subscription } from './subscriptions/schemas.js';
import { SubscriptionsService } from './subscriptions/service.js';
import { vaultEvents } from './vaults/events.js';
import { VaultsRepository } from './vaults/repository.js';
import { vaultRoutes } from './vaults/routes.js';
import { ElectronicVault } from './vaults/schemas.js';
import { VaultsService } from './vaults/service.js';

/** The Document manager: folders, document types and documents, each for employees and for the company. */
export function createDocuments(ctx: HrContext, core: CoreServices) {
  const { paginator, blobs } = ctx;
  const folders = new FoldersService(unitOfWork(ctx, (db) => ({ folders: new FoldersRepository(db) })));
  const documentsWork = unitOfWork(ctx, (db) => ({
    documents: new DocumentsRepository(db),
    uploads: new UploadsRepository(db),
  }));
  const permissions = new DocumentPermissions(documentsWork.read.documents, core.users);
  const services = {
    folders,
    documentTypes: new DocumentTypesService(
      unitOfWork(ctx, (db) => ({ documentTypes: new DocumentTypesRepository(db) })),
      folders,
    ),
    documents: new DocumentsService(documentsWork, permissions, core.uploads),
    documentReads: new DocumentReadsService(documentsWork, permissions),
    documentLifecycle: new DocumentLifecycleService(documentsWork, permissions, blobs),
  };
  const documents = services.documents;
  const signatures = new SignaturesService(
    unitOfWork(ctx, (db) => ({
      signatures: new SignaturesRepository(db),
      uploads: new UploadsRepository(db),
      documents: new DocumentsRepository(db),
      outbox: new OutboxRepository(db),
    })),
    {
      uploads: core.uploads,
      documents,
      blobs,
      pdf: new PdfWorker({ log: ctx.log }),
      links: new SigningLinks(ctx.secretBox.deriveKey('signing-links')),
      clock: ctx.clock,
      wakeJobs: ctx.wakeJobs,
      callbacks: {
        send: (url, body) =>
          send({
            url,
            body,
            headers: {
              'content-type': 'application/json',
              'user-agent': `Atrium/${buildInfo().version} (+signatures)`,
            },
            timeoutMs: ctx.config.webhookTimeoutMs,
            allowPrivate: ctx.config.webhookAllowPrivate,
            now: () => performance.now(),
          }),
        retryForMs: ctx.config.webhookRetryForSeconds * 1000,
      },
    },
  );
  const inbox = new InboxService(
    unitOfWork(ctx, (db) => ({
      inbox: new InboxRepository(db),
      uploads: new UploadsRepository(db),
      outbox: new OutboxRepository(db),
    })),
    core.uploads,
  );
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
  const redirections = new RedirectionUrlsService({ employees: core.employees, documentTypes: services.documentTypes });
  const s = { ...services, signatures, inbox, scans, redirections, vaults, subscriptions, distributions };
  const modules: HrModule[] = [
    {
      schemas: [Folder, EmployeeDocumentType, CompanyDocumentType, EmployeeDocument, CompanyDocument],
      routes: async () => {},
    },
  ];
  for (const kind of ['employee', 'company'] as const) {
    const documents = {
      documents: s.documents,
      reads: s.documentReads,
      lifecycle: s.documentLifecycle,
      paginator,
      blobs,
      renditions: ctx.renditions,
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
          await documentSearchRoutes(app, documents);
          await documentRoutes(app, documents);
          await documentLifecycleRoutes(app, documents);
          await documentFileRoutes(app, documents);
          await documentRenditionRoutes(app, documents);
        },
        events: [documentEvents[kind]],
      },
    );
  }
  modules.push(
    {
      schemas: [SignatureProcess, Signer, SignatureType],
      events: [signatureEvents, signerEvents],
      routes: async (app) => {
        await signatureProcessRoutes(app, { signatures, paginator, blobs, renditions: ctx.renditions });
        await signerRoutes(app, { signatures });
      },
    },
    { public: true, routes: (app) => signingPageRoutes(app, { signatures, blobs }) },
    { schemas: [InboxItem], events: [inboxItemEvents], routes: (app) => inboxRoutes(app, { inbox, paginator }) },
    { routes: (app) => scanRoutes(app, { scans }) },
    { routes: (app) => redirectionUrlRoutes(app, { redirections }) },
    { schemas: [ElectronicVault], events: [vaultEvents], routes: (app) => vaultRoutes(app, { vaults, paginator }) },
    {
      schemas: [Subscription, EmployeeSubscription],
      routes: (app) => subscriptionRoutes(app, { subscriptions, paginator }),
    },
    {
      schemas: [DistributionProject, Distribution],
      events: [distributionProjectEvents, distributionEvents],
      routes: async (app) => {
        await distributionProjectRoutes(app, { distributions, paginator });
        await distributionRoutes(app, { distributions, paginator });
      },
    },
  );
  return {
    services: s,
    modules,
    jobs: { ...signatures.queues(), ...scans.queues(), ...vaults.queues(), ...distributionSteps.queues() },
  } satisfies HrArea<typeof s>;
}

export type DocumentsServices = ReturnType<typeof createDocuments>['services'];
