import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { InvalidRequestError, NotFoundError } from '../../../platform/errors.js';
import { DAY_MS, parseDate, parseDateOrDateTime } from '../../../platform/time.js';
import type { EventCatalogue } from '../../audit/catalogue.js';
import type { EventFilter, EventRecord, EventsRepository } from './repository.js';
import type { EventExportQuery } from './schemas.js';

/** The audit trail, read (reference §4.4): the events every write of the API recorded (`audit/trail.ts`). */
export class EventsService {
  constructor(
    private readonly repo: EventsRepository,
    private readonly catalogue: () => EventCatalogue,
  ) {}

  private filter(query: EventExportQuery): EventFilter {
    const instant = (name: 'created_at_since' | 'created_at_until', end: boolean) => {
      const text = query[name];
      if (text === undefined) return undefined;
      const at = parseDateOrDateTime(text);
      if (at === undefined) {
        throw new InvalidRequestError(`Invalid query parameter "${name}": expected a date or a datetime.`);
      }
      return end && parseDate(text) ? at + DAY_MS - 1 : at;
    };
    const filter: EventFilter = {};
    if (query.resource_type !== undefined) filter.resourceType = query.resource_type;
    if (query.action !== undefined) filter.action = query.action;
    if (query.resource_id !== undefined) filter.resourceId = query.resource_id;
    if (query.actor_type !== undefined) filter.actorType = query.actor_type;
    if (query.actor_id !== undefined) filter.actorId = query.actor_id;
    const since = instant('created_at_since', false);
    const until = instant('created_at_until', true);
    if (since !== undefined) filter.since = since;
    if (until !== undefined) filter.until = until;
    return filter;
  }

  list(clientId: HrTenantId, query: EventExportQuery, request: PageRequest): Promise<Page<EventRecord>> {
    return this.repo.page(clientId, this.filter(query), request);
  }

  async get(clientId: HrTenantId, id: string): Promise<EventRecord> {
    const event = await this.repo.find(clientId, id);
    if (!event) throw new NotFoundError('event', id);
    return event;
  }

  /** Every matching event, newest first, a batch at a time. The filters are checked before the first batch. */
  export(clientId: HrTenantId, query: EventExportQuery): AsyncGenerator<EventRecord[]> {
    return this.repo.all(clientId, this.filter(query));
  }

  /** Deletes the events older than the retention (`ATRIUM_EVENT_RETENTION_DAYS`); answers how many. */
  sweep(now: number, retentionDays: number): Promise<number> {
    return this.repo.sweep(now - retentionDays * DAY_MS);
  }

  /** The resource types and their actions, from the resources' own declarations. */
  actions(): { resource: string; actions: string[] }[] {
    return this.catalogue().resources();
  }
}
