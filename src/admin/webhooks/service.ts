import type { HrTenantId } from '../../platform/db/tenant.js';
import { hrTenantId } from '../../platform/db/tenant.js';
import { NotFoundError } from '../../platform/errors.js';
import type { Clock } from '../../platform/time.js';
import type { AdminAuditRepository } from '../audit/repository.js';
import type { TenantRef } from '../tenant-ref.js';

/** What the admin API needs of the HR API's webhooks (its WebhooksService, which the composition hands over). */
export interface HrWebhooks {
  redeliver(clientId: HrTenantId, webhookId: string, deliveryId: string): Promise<void>;
}

/**
 * An operator's hand on a tenant's webhooks (docs/admin.md, "Webhooks"): a redelivery, queued by the HR API's own
 * service exactly as the tenant's `POST /webhooks/{id}/deliveries/{delivery_id}/redeliver` queues it, in the
 * tenant's time. It is audited right after it commits (a crash between the two loses the entry, never the
 * delivery).
 */
export class AdminWebhooksService {
  constructor(
    private readonly webhooks: HrWebhooks,
    private readonly audit: AdminAuditRepository,
    private readonly clock: Clock,
  ) {}

  async redeliver(tenant: TenantRef, webhookId: string, deliveryId: string, actor: string): Promise<void> {
    if (tenant.kind !== 'hr') throw new NotFoundError('webhook', webhookId, 'An academy has no webhooks.');
    await this.clock.runAs(tenant.key, () => this.webhooks.redeliver(hrTenantId(tenant.id), webhookId, deliveryId));
    await this.audit.record({
      at: this.clock.wall(),
      actor,
      action: 'webhook.redelivered',
      target: tenant.key,
      detail: { webhook_id: webhookId, delivery_id: deliveryId },
    });
  }
}
