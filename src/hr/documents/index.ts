import { buildInfo } from '../../platform/build-info.js';
import { send } from '../../platform/http/outbound.js';
import { PdfWorker } from '../../platform/pdf/runner.js';
import type { CoreServices } from '../core/index.js';
import { OutboxRepository } from '../core/outbox/repository.js';
import { UploadsRepository } from '../core/uploads/repository.js';
import { type HrArea, type HrContext, type HrModule, unitOfWork } from '../module.js';
import { documentModules, documentServices, resourceServices } from './builders.js';
import { predictionRunEvents } from './classification/events.js';
import { PredictionRunsRepository } from './classification/repository.js';
import { predictionRunRoutes } from './classification/routes.js';
import { PredictionRun } from './classification/schemas.js';
import { PredictionRunsService } from './classification/service.js';
import { distributionEvents, distributionProjectEvents } from './distributions/events.js';
import { distributionProjectRoutes, distributionRoutes } from './distributions/routes.js';
import { Distribution, DistributionProject } from './distributions/schemas.js';
import { CompanyDocumentType, EmployeeDocumentType } from './document-types/schemas.js';
import { DocumentsRepository } from './documents/repository.js';
import { CompanyDocument, EmployeeDocument } from './documents/schemas.js';
import { Folder } from './folders/schemas.js';
import { inboxItemEvents } from './inbox/events.js';
import { InboxRepository } from './inbox/repository.js';
import { inboxRoutes } from './inbox/routes.js';
import { InboxItem } from './inbox/schemas.js';
import { InboxService } from './inbox/service.js';
import { redirectionUrlRoutes } from './redirection-urls/routes.js';
import { RedirectionUrlsService } from './redirection-urls/service.js';
import { scanRoutes } from './scans/routes.js';
import { SignerCodeAttemptsRepository } from './signatures/code-attempts.js';
import { signatureEvents, signerEvents } from './signatures/events.js';
import { SignatureJobs } from './signatures/jobs-service.js';
import { SigningLinks } from './signatures/links.js';
import { signingPageRoutes } from './signatures/page.js';
import { SignaturesRepository } from './signatures/repository.js';
import { processDocumentRoutes, signatureProcessRoutes } from './signatures/routes.js';
import { SignatureProcess, SignatureType, Signer } from './signatures/schemas.js';
import { SignaturesService } from './signatures/service.js';
import { signerRoutes, signerSigningRoutes } from './signatures/signer-routes.js';
import { SignersService } from './signatures/signers-service.js';
import { SigningService } from './signatures/signing-service.js';
import { signatureTypeRoutes } from './signatures/type-routes.js';
import { subscriptionRoutes } from './subscriptions/routes.js';
import { EmployeeSubscription, Subscription } from './subscriptions/schemas.js';
import { vaultEvents } from './vaults/events.js';
import { vaultRoutes } from './vaults/routes.js';
import { ElectronicVault } from './vaults/schemas.js';

/** The Document manager: folders, document types and documents, each for employees and for the company. */
export function createDocuments(ctx: HrContext, core: CoreServices) {
  const { paginator, blobs } = ctx;
  const services = documentServices(ctx, core);
  const documents = services.documents;
  const signatureWork = unitOfWork(ctx, (db) => ({
    signatures: new SignaturesRepository(db),
    codeAttempts: new SignerCodeAttemptsRepository(db),
    uploads: new UploadsRepository(db),
    documents: new DocumentsRepository(db),
    outbox: new OutboxRepository(db),
  }));
  const links = new SigningLinks(ctx.secretBox.deriveKey('signing-links'));
  const callbacks = {
    send: (url: string, body: string) =>
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
  };
  const signatures = new SignaturesService(signatureWork, {
    uploads: core.uploads,
    documents,
    blobs,
    links,
    clock: ctx.clock,
    wakeJobs: ctx.wakeJobs,
  });
  const signers = new SignersService(signatureWork, { links, clock: ctx.clock });
  const signing = new SigningService(signatureWork, { links, clock: ctx.clock, wakeJobs: ctx.wakeJobs, callbacks });
  const signatureJobs = new SignatureJobs(signatureWork, {
    blobs,
    pdf: new PdfWorker({ log: ctx.log }),
    clock: ctx.clock,
    wakeJobs: ctx.wakeJobs,
    callbacks,
  });
  const inbox = new InboxService(
    unitOfWork(ctx, (db) => ({
      inbox: new InboxRepository(db),
      uploads: new UploadsRepository(db),
      outbox: new OutboxRepository(db),
    })),
    core.uploads,
    ctx.clock,
  );
  const { scans, vaults, subscriptions, distributions, distributionSteps } = resourceServices(ctx, core, documents);
  const predictions = new PredictionRunsService(
    unitOfWork(ctx, (db) => ({ predictions: new PredictionRunsRepository(db) })),
    {
      blobs,
      // Its own worker, with a distribution's time: a long document's text takes longer than a preview's render.
      pdf: new PdfWorker({ log: ctx.log, renderTimeoutMs: 60_000, heapMb: 512 }),
      clock: ctx.clock,
      wakeJobs: ctx.wakeJobs,
      ...(ctx.log ? { log: ctx.log } : {}),
    },
  );
  const redirections = new RedirectionUrlsService({ employees: core.employees, documentTypes: services.documentTypes });
  const s = {
    ...services,
    signatures,
    signers,
    signing,
    inbox,
    scans,
    redirections,
    vaults,
    subscriptions,
    distributions,
    predictions,
  };
  const modules: HrModule[] = [
    {
      schemas: [Folder, EmployeeDocumentType, CompanyDocumentType, EmployeeDocument, CompanyDocument],
      routes: async () => {},
    },
  ];
  modules.push(...documentModules(ctx, s));
  modules.push(
    {
      schemas: [SignatureProcess, Signer, SignatureType],
      events: [signatureEvents, signerEvents],
      routes: async (app) => {
        await signatureProcessRoutes(app, { signatures, paginator });
        await processDocumentRoutes(app, { signatures, blobs, renditions: ctx.renditions });
        await signatureTypeRoutes(app, { paginator });
        await signerRoutes(app, { signers, signing });
        await signerSigningRoutes(app, { signing });
      },
    },
    {
      public: true,
      routes: (app, http) => signingPageRoutes(app, { signatures, signing, blobs, limits: http.rateLimits }),
    },
    { schemas: [InboxItem], events: [inboxItemEvents], routes: (app) => inboxRoutes(app, { inbox, paginator }) },
    { routes: (app) => scanRoutes(app, { scans }) },
    { routes: (app) => redirectionUrlRoutes(app, { redirections }) },
    {
      schemas: [PredictionRun],
      events: [predictionRunEvents],
      routes: (app) => predictionRunRoutes(app, { predictions }),
    },
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
    jobs: {
      ...signatureJobs.queues(),
      ...scans.queues(),
      ...vaults.queues(),
      ...distributionSteps.queues(),
      ...predictions.queues(),
    },
  } satisfies HrArea<typeof s>;
}

export type DocumentsServices = ReturnType<typeof createDocuments>['services'];
