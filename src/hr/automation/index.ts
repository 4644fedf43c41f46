import { DatasetsRepository } from '../core/datasets/repository.js';
import type { CoreServices } from '../core/index.js';
import { UploadsRepository } from '../core/uploads/repository.js';
import { InboxRepository } from '../documents/inbox/repository.js';
import { type HrArea, type HrContext, type HrModule, unitOfWork } from '../module.js';
import { EmployeeSettingsRepository } from './employee-settings/repository.js';
import { employeeSettingsRoutes } from './employee-settings/routes.js';
import { EmployeeSettingsProcessAutomation } from './employee-settings/schemas.js';
import { EmployeeSettingsService } from './employee-settings/service.js';
import { pdfTemplateEvents } from './pdf-templates/events.js';
import { PdfTemplatesRepository } from './pdf-templates/repository.js';
import { pdfTemplateRoutes } from './pdf-templates/routes.js';
import { PdfTemplate, PdfTemplateSummary } from './pdf-templates/schemas.js';
import { PdfTemplatesService } from './pdf-templates/service.js';
import { postProcessActionEvents } from './post-process-actions/events.js';
import { PostProcessActionsRepository } from './post-process-actions/repository.js';
import { postProcessActionRoutes } from './post-process-actions/routes.js';
import { PostProcessAction } from './post-process-actions/schemas.js';
import { PostProcessActionsService } from './post-process-actions/service.js';
import { processTemplateEvents, taskTemplateEvents } from './process-templates/events.js';
import { ProcessTemplatesRepository } from './process-templates/repository.js';
import { processTemplateRoutes, taskTemplateRoutes } from './process-templates/routes.js';
import { ProcessTemplate, TaskTemplate } from './process-templates/schemas.js';
import { ProcessTemplatesService } from './process-templates/service.js';
import { processEvents } from './processes/events.js';
import { ProcessesRepository } from './processes/repository.js';
import { processRoutes } from './processes/routes.js';
import { Process } from './processes/schemas.js';
import { ProcessesService } from './processes/service.js';
import { taskEvents, taskFileEvents } from './tasks/events.js';
import { TaskFilesService } from './tasks/files-service.js';
import { TasksRepository } from './tasks/repository.js';
import { taskFileRoutes, taskRoutes } from './tasks/routes.js';
import { Task, TaskFile } from './tasks/schemas.js';
import { TasksService } from './tasks/service.js';

/** Process automation: process templates with their task templates, processes, and their tasks. */
export function createAutomation(ctx: HrContext, core: CoreServices) {
  const { paginator, blobs } = ctx;
  const tasksWork = unitOfWork(ctx, (db) => ({
    tasks: new TasksRepository(db),
    processes: new ProcessesRepository(db),
    uploads: new UploadsRepository(db),
    datasets: new DatasetsRepository(db),
    postActions: new PostProcessActionsRepository(db),
    inbox: new InboxRepository(db),
  }));
  const tasks = new TasksService(tasksWork, core.uploads, ctx.clock);
  const taskFiles = new TaskFilesService(tasksWork, core.uploads, blobs, ctx.clock);
  const services = {
    processTemplates: new ProcessTemplatesService(
      unitOfWork(ctx, (db) => ({
        processTemplates: new ProcessTemplatesRepository(db),
        uploads: new UploadsRepository(db),
      })),
      core.uploads,
      blobs,
      ctx.clock,
    ),
    processes: new ProcessesService(
      unitOfWork(ctx, (db) => ({
        processes: new ProcessesRepository(db),
        tasks: new TasksRepository(db),
        postActions: new PostProcessActionsRepository(db),
      })),
      tasks,
      blobs,
      ctx.clock,
    ),
    tasks,
    taskFiles,
    pdfTemplates: new PdfTemplatesService(
      unitOfWork(ctx, (db) => ({ pdfTemplates: new PdfTemplatesRepository(db), uploads: new UploadsRepository(db) })),
      core.uploads,
      blobs,
      ctx.clock,
    ),
    postProcessActions: new PostProcessActionsService(
      unitOfWork(ctx, (db) => ({ postActions: new PostProcessActionsRepository(db) })),
      ctx.clock,
    ),
    employeeSettings: new EmployeeSettingsService(new EmployeeSettingsRepository(ctx.db)),
  };
  const s = services;
  const modules: HrModule[] = [
    {
      schemas: [ProcessTemplate, TaskTemplate],
      events: [processTemplateEvents, taskTemplateEvents],
      routes: async (app) => {
        await processTemplateRoutes(app, { processTemplates: s.processTemplates, paginator });
        await taskTemplateRoutes(app, { processTemplates: s.processTemplates });
      },
    },
    {
      schemas: [Task, TaskFile, Process],
      events: [processEvents],
      routes: (app) => processRoutes(app, { processes: s.processes, paginator }),
    },
    {
      events: [taskEvents, taskFileEvents],
      routes: async (app) => {
        await taskRoutes(app, { tasks: s.tasks, paginator });
        await taskFileRoutes(app, { files: s.taskFiles, blobs });
      },
    },
    {
      schemas: [PdfTemplateSummary, PdfTemplate],
      events: [pdfTemplateEvents],
      routes: (app) => pdfTemplateRoutes(app, { pdfTemplates: s.pdfTemplates, paginator }),
    },
    {
      schemas: [PostProcessAction],
      events: [postProcessActionEvents],
      routes: (app) => postProcessActionRoutes(app, { postActions: s.postProcessActions }),
    },
    {
      schemas: [EmployeeSettingsProcessAutomation],
      routes: (app) => employeeSettingsRoutes(app, { employeeSettings: s.employeeSettings, blobs }),
    },
  ];
  return { services, modules } satisfies HrArea<typeof services>;
}

export type AutomationServices = ReturnType<typeof createAutomation>['services'];
