import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { NotFoundError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import { customStatusEvents } from './events.js';
import { presentCustomStatus } from './present.js';
import type { CustomStatusesRepository, CustomStatusFilter, CustomStatusRecord } from './repository.js';
import type { CustomStatusPut, WorkflowSortField } from './schemas.js';

/** The repositories custom statuses work with. */
export interface CustomStatusesWork {
  customStatuses: CustomStatusesRepository;
}

/** Custom statuses (reference §3d.8): the client's own workflow steps of requests, set by macros. */
export class CustomStatusesService {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<CustomStatusesWork>>,
    private readonly clock: Clock,
  ) {}

  list(
    clientId: HrTenantId,
    filter: CustomStatusFilter,
    request: PageRequest<WorkflowSortField>,
  ): Promise<Page<CustomStatusRecord>> {
    return this.work.read.customStatuses.page(clientId, filter, request);
  }

  count(clientId: HrTenantId, filter: CustomStatusFilter): Promise<number> {
    return this.work.read.customStatuses.count(clientId, filter);
  }

  async get(clientId: HrTenantId, id: string): Promise<CustomStatusRecord> {
    const row = await this.work.read.customStatuses.find(clientId, id);
    if (!row) throw new NotFoundError('custom status', id);
    return row;
  }

  /** PUT: creates the status at `id` or replaces its name and activity. */
  async put(
    clientId: HrTenantId,
    id: string,
    input: CustomStatusPut,
  ): Promise<{ status: CustomStatusRecord; created: boolean }> {
    const attrs = { name: input.name, isActive: input.is_active !== false };
    return this.work.run(async ({ customStatuses, audit }) => {
      const at = this.clock.now();
      const created = await customStatuses.insertIfAbsent(clientId, id, attrs, at);
      if (!created) await customStatuses.update(clientId, id, attrs, at);
      const status = (await customStatuses.find(clientId, id)) as CustomStatusRecord;
      await audit.record(clientId, customStatusEvents, created ? 'created' : 'updated', {
        id,
        name: status.name,
        data: presentCustomStatus(status),
      });
      return { status, created };
    });
  }

  existingIds(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>> {
    return this.work.read.customStatuses.existingIds(clientId, ids);
  }
}
