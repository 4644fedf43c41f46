import { buildInfo } from '../../platform/build-info.js';
import type { EventCatalogue } from '../audit/catalogue.js';
import { AuditTrail } from '../audit/trail.js';
import { type HrArea, type HrContext, type HrModule, unitOfWork } from '../module.js';
import { EventsRepository } from './events/repository.js';
import { eventRoutes } from './events/routes.js';
import { Event, EventActor, EventExportLine } from './events/schemas.js';
import { EventsService } from './events/service.js';
import { EventTriggers } from './events/trigger.js';
import { deliveryHandler } from './webhooks/deliverer.js';
import { webhookEvents } from './webhooks/events.js';
import { DELIVERY_QUEUE, deliveryQueue, webhookOutlet } from './webhooks/outbox.js';
import { WebhooksRepository } from './webhooks/repository.js';
import { webhookActionRoutes, webhookRoutes } from './webhooks/routes.js';
import { Webhook, WebhookAttempt } from './webhooks/schemas.js';
import { WebhooksService } from './webhooks/service.js';

/**
 * Integrations: the audit trail (`/events`), which every other area writes to through its units of work, and
 * webhooks, which the trail feeds: each event matching an active webhook is queued in the event's transaction
 * (the outbox) and sent by the job runner. Built last: its catalogue of event types is every module's declarations.
 */
export function createIntegrations(ctx: HrContext, catalogue: () => EventCatalogue) {
  const { paginator, config } = ctx;
  const queue = deliveryQueue(
    {
      retryForMs: config.webhookRetryForSeconds * 1000,
      maxPending: config.maxPendingDeliveries,
      clientNow: () => ctx.clock.now(),
    },
    ctx.wakeJobs,
    () => ctx.clock.wall(),
  );
  ctx.eventOutlets.push(webhookOutlet(queue, () => ctx.clock.now()));
  const services = {
    auditEvents: new EventsService(new EventsRepository(ctx.db), catalogue),
    eventTriggers: new EventTriggers(
      unitOfWork(ctx, (db) => ({ events: new EventsRepository(db), webhooks: new WebhooksRepository(db) })),
      catalogue,
    ),
    webhooks: new WebhooksService(
      unitOfWork(ctx, (db) => ({ webhooks: new WebhooksRepository(db) })),
      ctx.secretBox,
      catalogue,
      ctx.clock,
      queue,
      config.maxActiveWebhooks,
    ),
  };
  const s = services;
  const modules: HrModule[] = [
    {
      schemas: [EventActor, Event, EventExportLine],
      routes: (app) => eventRoutes(app, { events: s.auditEvents, paginator }),
    },
    {
      schemas: [Webhook, WebhookAttempt],
      events: [webhookEvents],
      routes: async (app) => {
        await webhookRoutes(app, { webhooks: s.webhooks, paginator });
        await webhookActionRoutes(app, { webhooks: s.webhooks, paginator });
      },
    },
  ];
  const jobs = {
    [DELIVERY_QUEUE]: {
      handle: deliveryHandler({
        db: ctx.db,
        secrets: ctx.secretBox,
        now: () => ctx.clock.now(),
        settings: {
          timeoutMs: config.webhookTimeoutMs,
          allowPrivate: config.webhookAllowPrivate,
          userAgent: `Atrium/${buildInfo().version} (+webhooks)`,
          deactivateAfter: config.webhookDeactivateAfter,
        },
        audit: (db) => new AuditTrail(db, ctx.clock, ctx.eventOutlets),
      }),
      backoff: { baseMs: config.webhookBackoffBaseMs, factor: 2, capMs: config.webhookBackoffCapMs },
    },
  };
  return { services, modules, jobs } satisfies HrArea<typeof services>;
}

export type IntegrationsServices = ReturnType<typeof createIntegrations>['services'];
