import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { OutboxFilter, OutboxMail, OutboxRepository } from './repository.js';

/**
 * The outbox (docs/hr-api.md, "Outbox"): Atrium sends no mail. What it would send (signature invitations,
 * reminders, signed documents) is recorded here, in the transaction of the change that sends it, so an integrator
 * can see what would have gone out. Read with `GET /outbox` (an Atrium extension) or `atrium hr outbox`.
 */
export class OutboxService {
  constructor(private readonly repo: OutboxRepository) {}

  list(clientId: HrTenantId, filter: OutboxFilter, request: PageRequest): Promise<Page<OutboxMail>> {
    return this.repo.page(clientId, filter, request);
  }
}
