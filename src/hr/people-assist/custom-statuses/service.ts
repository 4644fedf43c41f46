import type { KeysetPosition, Page } from '../../../platform/db/keyset.js';
import { NotFoundError } from '../../../platform/errors.js';
import { now } from '../../../platform/time.js';
import type { SortKey } from '../../lists/sort.js';
import type { CustomStatusesRepository, CustomStatusFilter, CustomStatusRow } from './repository.js';
import type { CustomStatusPut } from './schemas.js';

/** Custom statuses (reference §3d.8): the client's own workflow steps of requests, set by macros. */
export class CustomStatusesService {
  constructor(private readonly repo: CustomStatusesRepository) {}

  list(
    clientId: string,
    filter: CustomStatusFilter,
    sort: SortKey<'name' | 'created_at' | 'updated_at'>[],
    limit: number,
    at: { position?: KeysetPosition; offset?: number },
  ): Promise<Page<CustomStatusRow>> {
    return this.repo.page(clientId, filter, sort, limit, at);
  }

  count(clientId: string, filter: CustomStatusFilter): Promise<number> {
    return this.repo.count(clientId, filter);
  }

  async get(clientId: string, id: string): Promise<CustomStatusRow> {
    const row = await this.repo.find(clientId, id);
    if (!row) throw new NotFoundError('custom status', id);
    return row;
  }

  /** PUT: creates the status at `id` or replaces its name and activity. */
  async put(
    clientId: string,
    id: string,
    input: CustomStatusPut,
  ): Promise<{ status: CustomStatusRow; created: boolean }> {
    const attrs = { name: input.name, is_active: input.is_active === false ? 0 : 1 };
    return this.repo.transaction(async (repo) => {
      const at = now();
      const created = await repo.insertIfAbsent(clientId, id, attrs, at);
      if (!created) await repo.update(clientId, id, attrs, at);
      return { status: (await repo.find(clientId, id)) as CustomStatusRow, created };
    });
  }

  existingIds(clientId: string, ids: readonly string[]): Promise<Set<string>> {
    return this.repo.existingIds(clientId, ids);
  }
}
