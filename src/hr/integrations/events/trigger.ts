import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { FieldValidationError, NotFoundError } from '../../../platform/errors.js';
import { actingAs } from '../../audit/actor.js';
import { declareEvents, type EventCatalogue } from '../../audit/catalogue.js';
import type { Audited } from '../../module.js';
import { presentEvent } from './present.js';
import type { EventsRepository } from './repository.js';
import type { Event } from './schemas.js';

/** The webhooks' deliveries, as far as a trigger counts them (webhooks/repository.ts). */
export interface DeliveryCount {
  deliveriesOf(clientId: HrTenantId, eventId: string): Promise<number>;
}

/** What an operator asks for: an event of `type`, about `resourceId` or the tenant's resource of that type. */
export interface TriggerInput {
  type: string;
  resourceId?: string | undefined;
}

/** The event as the trail (`GET /events/{id}`) shows it, and the webhook deliveries it was queued for. */
export interface Triggered {
  event: Event;
  webhooks: number;
}

/**
 * An operator's event (docs/admin.md, "Event triggers"): an event of any type of the catalogue, about a resource of
 * the tenant, recorded by the same audit trail as a write's, so it feeds the webhooks' outbox in its transaction as
 * any event does, and marked `triggered`. Its data and name are the resource's present state, read from the trail
 * (`EventsRepository.stateOf`): what a write of that resource records, so the delivery's body is shaped as a real
 * one's.
 */
export class EventTriggers {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<{ events: EventsRepository; webhooks: DeliveryCount }>>,
    private readonly catalogue: () => EventCatalogue,
  ) {}

  /** Fires the event as the system, named after the operator (`operator`); answers it as `GET /events` shows it. */
  async trigger(clientId: HrTenantId, input: TriggerInput, operator: string): Promise<Triggered> {
    if (!this.catalogue().has(input.type)) {
      throw new FieldValidationError([
        {
          field: 'type',
          code: 'unknown_event_type',
          message: `${JSON.stringify(input.type)} is not an event type; GET /events/filters/actions lists them.`,
        },
      ]);
    }
    const dot = input.type.indexOf('.');
    const resource = input.type.slice(0, dot);
    const action = input.type.slice(dot + 1);
    return actingAs({ type: 'system', name: operator }, () =>
      this.work.run(async (tx) => {
        const state = await tx.events.stateOf(clientId, resource, input.resourceId);
        if (!state) {
          if (input.resourceId !== undefined) throw new NotFoundError(resource, input.resourceId);
          throw new FieldValidationError([
            {
              field: 'type',
              code: 'no_resource',
              message: `This tenant has no ${resource} to build the event from: create one first, or name one with resource_id.`,
            },
          ]);
        }
        const recorded = await tx.audit.record(clientId, declareEvents(resource, [action]), action, {
          id: state.resourceId,
          name: state.name,
          data: state.data,
          triggered: true,
        });
        const event = await tx.events.find(clientId, recorded.id);
        if (!event) throw new Error('the triggered event was not recorded');
        return { event: presentEvent(event), webhooks: await tx.webhooks.deliveriesOf(clientId, recorded.id) };
      }),
    );
  }
}
