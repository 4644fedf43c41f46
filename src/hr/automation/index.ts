import { DatasetsRepository } from '../core/datasets/repository.js';
import type { CoreServices } from '../core/index.js';
import { UploadsRepository } from '../core/uploads/repository.js';
import { type HrArea, type HrContext, type HrModule, unitOfWork } from '../module.js';
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
import { TasksRepository } from './tasks/repository.js';
import { taskFileRoutes, taskRoutes } from './tasks/routes.js';
import { Task, TaskFile } from './tasks/schemas.js';
import { TasksService } from './tasks/service.js';

/** Process automation: process templates with their task templates, processes, and their tasks. */
export function createAutomation(ctx: HrContext, core: CoreServices) {
  const { paginator, blobs } = ctx;
  const tasks = new TasksService(
    unitOfWork(ctx, (db) => ({
      tasks: new TasksRepository(db),
      processes: new ProcessesRepository(db),
      uploads: new UploadsRepository(db),
      datasets: new DatasetsRepository(db),
    })),
    core.uploads,
    blobs,
    ctx.clock,
  );
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
      unitOfWork(ctx, (db) => ({ processes: new ProcessesRepository(db), tasks: new TasksRepository(db) })),
      tasks,
      blobs,
      ctx.clock,
    ),
    tasks,
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
        await taskFileRoutes(app, { tasks: s.tasks, blobs });
      },
    },
  ];
  return { services, modules } satisfies HrArea<typeof services>;
}

export type AutomationServices = ReturnType<typeof createAutomation>['services'];
