import type { EventCatalogue } from '../audit/catalogue.js';
import type { HrArea, HrContext, HrModule } from '../module.js';
import { EventsRepository } from './events/repository.js';
import { eventRoutes } from './events/routes.js';
import { Event, EventActor, EventExportLine } from './events/schemas.js';
import { EventsService } from './events/service.js';

/**
 * Integrations: the audit trail (`/events`), which every other area writes to through its units of work, and, on
 * it, webhooks. Built last: its catalogue of event types is every module's declarations.
 */
export function createIntegrations(ctx: HrContext, catalogue: () => EventCatalogue) {
  const { paginator } = ctx;
  const services = {
    auditEvents: new EventsService(new EventsRepository(ctx.db), catalogue),
  };
  const s = services;
  const modules: HrModule[] = [
    {
      schemas: [EventActor, Event, EventExportLine],
      routes: (app) => eventRoutes(app, { events: s.auditEvents, paginator }),
    },
  ];
  return { services, modules } satisfies HrArea<typeof services>;
}

export type IntegrationsServices = ReturnType<typeof createIntegrations>['services'];
