import type { Selectable } from 'kysely';
import { existingIds } from '../../../platform/db/existing.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listCount, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import { containsText } from '../../../platform/db/search.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { WorkflowSortField } from './schemas.js';
import type { PaCustomStatusesTable } from './tables.js';

/** A custom status as the domain sees it. */
export interface CustomStatusRecord {
  pk: number;
  id: string;
  name: string;
  isActive: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface CustomStatusAttributes {
  name: string;
  isActive: boolean;
}

export interface CustomStatusFilter {
  q?: string;
}

/** The order of the workflow lists (custom statuses and macros): the sorted field, then the internal key. */
export const WORKFLOW_ORDER = (alias: string): ListOrder<WorkflowSortField> => ({
  fields: { name: `${alias}.name`, created_at: `${alias}.created_at`, updated_at: `${alias}.updated_at` },
  tiebreak: `${alias}.pk`,
});

const ORDER = WORKFLOW_ORDER('s');

function toRecord(row: Selectable<PaCustomStatusesTable>): CustomStatusRecord {
  return {
    pk: row.pk,
    id: row.id,
    name: row.name,
    isActive: row.is_active === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class CustomStatusesRepository extends HrRepository {
  private filtered(clientId: HrTenantId, filter: CustomStatusFilter) {
    let q = this.tenant(clientId).selectFrom('pa_custom_statuses as s').selectAll('s');
    if (filter.q) q = q.where(containsText(['s.name'], filter.q));
    return q;
  }

  async page(
    clientId: HrTenantId,
    filter: CustomStatusFilter,
    request: PageRequest<WorkflowSortField>,
  ): Promise<Page<CustomStatusRecord>> {
    const page = await listPage(this.filtered(clientId, filter), ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  count(clientId: HrTenantId, filter: CustomStatusFilter): Promise<number> {
    return listCount(this.filtered(clientId, filter));
  }

  async find(clientId: HrTenantId, id: string): Promise<CustomStatusRecord | undefined> {
    const row = await this.filtered(clientId, {}).where('s.id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Which of these ids are custom statuses of the client. */
  existingIds(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'pa_custom_statuses', clientId, ids);
  }

  insertIfAbsent(clientId: HrTenantId, id: string, attrs: CustomStatusAttributes, at: number): Promise<boolean> {
    return this.tenant(clientId).insertIfAbsent('pa_custom_statuses', {
      id,
      name: attrs.name,
      is_active: attrs.isActive ? 1 : 0,
      created_at: at,
      updated_at: at,
    });
  }

  async update(clientId: HrTenantId, id: string, attrs: CustomStatusAttributes, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('pa_custom_statuses')
      .set({ name: attrs.name, is_active: attrs.isActive ? 1 : 0, updated_at: at })
      .where('id', '=', id)
      .execute();
  }
}
