import { DatasetsRepository } from '../core/datasets/repository.js';
import type { CoreServices } from '../core/index.js';
import { UploadsRepository } from '../core/uploads/repository.js';
import { type HrArea, type HrContext, type HrModule, unitOfWork } from '../module.js';
import { customStatusEvents } from './custom-statuses/events.js';
import { CustomStatusesRepository } from './custom-statuses/repository.js';
import { customStatusRoutes } from './custom-statuses/routes.js';
import { CustomStatus } from './custom-statuses/schemas.js';
import { CustomStatusesService } from './custom-statuses/service.js';
import { macroEvents } from './macros/events.js';
import { MacrosRepository } from './macros/repository.js';
import { macroRoutes } from './macros/routes.js';
import { MacroDetail, MacroList } from './macros/schemas.js';
import { MacrosService } from './macros/service.js';
import { requestFormEvents } from './request-forms/events.js';
import { RequestFormsRepository } from './request-forms/repository.js';
import { requestFormRoutes } from './request-forms/routes.js';
import { DetailError, RequestForm } from './request-forms/schemas.js';
import { RequestFormsService } from './request-forms/service.js';
import { RequestCommentsService } from './requests/comments-service.js';
import { requestCommentEvents, requestEvents } from './requests/events.js';
import { RequestFilesService } from './requests/files-service.js';
import { RequestLinksService } from './requests/links-service.js';
import { RequestMacrosService } from './requests/macros-service.js';
import { RequestsRepository } from './requests/repository.js';
import {
  requestCommentRoutes,
  requestFileRoutes,
  requestLinkRoutes,
  requestMacroRoutes,
  requestPdfRoutes,
  requestRoutes,
} from './requests/routes.js';
import {
  EmployeeSimplified,
  RequestComment,
  RequestFull,
  RequestFullWithAttachments,
  UserSimplified,
} from './requests/schemas.js';
import { RequestsService } from './requests/service.js';

/** People Assist: custom statuses, macros, request forms, and requests with their comments, files and links. */
export function createPeopleAssist(ctx: HrContext, core: CoreServices) {
  const { paginator, blobs } = ctx;
  const requestForms = new RequestFormsService(
    unitOfWork(ctx, (db) => ({ requestForms: new RequestFormsRepository(db) })),
    core.perimeters,
    ctx.clock,
  );
  const macros = new MacrosService(
    unitOfWork(ctx, (db) => ({ macros: new MacrosRepository(db) })),
    ctx.clock,
  );
  const requestsWork = unitOfWork(ctx, (db) => ({
    requests: new RequestsRepository(db),
    uploads: new UploadsRepository(db),
    datasets: new DatasetsRepository(db),
  }));
  const services = {
    customStatuses: new CustomStatusesService(
      unitOfWork(ctx, (db) => ({ customStatuses: new CustomStatusesRepository(db) })),
      ctx.clock,
    ),
    macros,
    requestForms,
    requests: new RequestsService(requestsWork, requestForms, core.uploads, blobs, ctx.clock),
    requestComments: new RequestCommentsService(requestsWork, core.uploads, ctx.clock),
    requestFiles: new RequestFilesService(requestsWork, blobs, ctx.clock),
    requestLinks: new RequestLinksService(requestsWork, ctx.clock),
    requestMacros: new RequestMacrosService(requestsWork, macros, ctx.clock),
  };
  const s = services;
  const modules: HrModule[] = [
    {
      schemas: [CustomStatus],
      events: [customStatusEvents],
      routes: (app) => customStatusRoutes(app, { customStatuses: s.customStatuses, paginator }),
    },
    {
      schemas: [MacroList, MacroDetail],
      events: [macroEvents],
      routes: (app) => macroRoutes(app, { macros: s.macros, paginator }),
    },
    {
      schemas: [RequestForm, DetailError],
      events: [requestFormEvents],
      routes: (app) => requestFormRoutes(app, { requestForms: s.requestForms, paginator }),
    },
    {
      schemas: [UserSimplified, EmployeeSimplified, RequestFull, RequestFullWithAttachments, RequestComment],
      events: [requestEvents, requestCommentEvents],
      routes: async (app) => {
        const { renditions } = ctx;
        await requestRoutes(app, { requests: s.requests, paginator });
        await requestCommentRoutes(app, { comments: s.requestComments, paginator });
        await requestFileRoutes(app, { files: s.requestFiles, blobs, renditions });
        await requestPdfRoutes(app, { comments: s.requestComments, renditions, clock: ctx.clock });
        await requestLinkRoutes(app, { links: s.requestLinks, paginator });
        await requestMacroRoutes(app, { macros: s.requestMacros });
      },
    },
  ];
  return { services, modules } satisfies HrArea<typeof services>;
}

export type PeopleAssistServices = ReturnType<typeof createPeopleAssist>['services'];
