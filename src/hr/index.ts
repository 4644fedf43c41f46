import { EventCatalogue } from './audit/catalogue.js';
import { createAutomation } from './automation/index.js';
import { createCore } from './core/index.js';
import { createDocumentGeneration } from './document-generation/index.js';
import { createDocuments } from './documents/index.js';
import { createIntegrations } from './integrations/index.js';
import { createKnowledge } from './knowledge/index.js';
import type { HrContext, HrModule } from './module.js';
import { createPeopleAssist } from './people-assist/index.js';

/**
 * The HR API's areas, stacked: core first, then the areas built on it. Adding an area is one line here;
 * adding a resource is a line in its area's index.
 */
export function createHr(context: Omit<HrContext, 'eventOutlets'>) {
  const ctx: HrContext = { ...context, eventOutlets: [] };
  const core = createCore(ctx);
  const documents = createDocuments(ctx, core.services);
  const generation = createDocumentGeneration(ctx, documents.services);
  const knowledge = createKnowledge(ctx);
  const peopleAssist = createPeopleAssist(ctx, core.services);
  const automation = createAutomation(ctx, core.services);
  // The event types are every module's declarations, the integrations area's own included.
  let catalogue: EventCatalogue | undefined;
  const integrations = createIntegrations(ctx, () => {
    catalogue ??= new EventCatalogue(modules.flatMap((m) => m.events ?? []));
    return catalogue;
  });
  const modules: HrModule[] = [
    ...core.modules,
    ...documents.modules,
    ...generation.modules,
    ...knowledge.modules,
    ...peopleAssist.modules,
    ...automation.modules,
    ...integrations.modules,
  ];
  return {
    services: {
      ...core.services,
      ...documents.services,
      ...generation.services,
      ...knowledge.services,
      ...peopleAssist.services,
      ...automation.services,
      ...integrations.services,
    },
    modules,
    /** The background job queues of the API, by name. */
    jobs: { ...core.jobs, ...documents.jobs, ...generation.jobs, ...integrations.jobs },
  };
}

export type HrServices = ReturnType<typeof createHr>['services'];
