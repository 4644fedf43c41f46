import { type HrTenantId, hrTenantId } from '../../platform/db/tenant.js';
import type { Clock } from '../../platform/time.js';
import type { AdminAuditRepository } from '../audit/repository.js';
import type { TenantRef } from '../tenant-ref.js';
import type { EventTrigger } from './schemas.js';

/** The event fired, as the HR API's audit trail shows it, and the webhook deliveries it was queued for. */
export interface TriggeredEvent {
  event: { id: string };
  webhooks: number;
}

/** What the admin API needs of the HR API's audit trail (its EventTriggers, which the composition hands over). */
export interface HrEventTriggers {
  trigger(
    clientId: HrTenantId,
    input: { type: string; resourceId?: string | undefined },
    operator: string,
  ): Promise<TriggeredEvent>;
}

/**
 * An operator's event (docs/admin.md, "Event triggers"): fired by the HR API's own audit trail in the tenant's
 * time, so it reaches the tenant's webhooks through their outbox as any event does. It is audited right after it
 * commits (a crash between the two loses the entry, never the event).
 */
export class AdminEventsService {
  constructor(
    private readonly events: HrEventTriggers,
    private readonly audit: AdminAuditRepository,
    private readonly clock: Clock,
  ) {}

  async trigger(tenant: TenantRef, input: EventTrigger, actor: string): Promise<TriggeredEvent> {
    const fired = await this.clock.runAs(tenant.key, () =>
      this.events.trigger(hrTenantId(tenant.id), { type: input.type, resourceId: input.resource_id }, `admin ${actor}`),
    );
    await this.audit.record({
      at: this.clock.wall(),
      actor,
      action: 'event.triggered',
      target: tenant.key,
      detail: {
        type: input.type,
        resource_id: input.resource_id ?? null,
        event_id: fired.event.id,
        webhooks: fired.webhooks,
      },
    });
    return fired;
  }
}
