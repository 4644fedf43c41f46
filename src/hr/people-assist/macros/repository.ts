import type { Selectable } from 'kysely';
import { existingIds } from '../../../platform/db/existing.js';
import type { Page } from '../../../platform/db/keyset.js';
import { listCount, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import { containsText } from '../../../platform/db/search.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { WORKFLOW_ORDER } from '../custom-statuses/repository.js';
import type { WorkflowSortField } from '../custom-statuses/schemas.js';
import type { MacroAction } from './schemas.js';
import type { PaMacrosTable } from './tables.js';

/** A macro as the domain sees it: its id lists and actions decoded. */
export interface MacroRecord {
  pk: number;
  id: string;
  name: string;
  label: string;
  description: string;
  active: boolean;
  /** The forms, roles and custom statuses the macro is offered for (empty: any). */
  forms: string[];
  roles: string[];
  customStatuses: string[];
  actions: MacroAction[];
  createdAt: number;
  updatedAt: number;
}

export type MacroAttributes = Omit<MacroRecord, 'pk' | 'id' | 'createdAt' | 'updatedAt'>;

export interface MacroFilter {
  q?: string;
}

type IdTable = 'pa_request_forms' | 'hr_roles' | 'pa_custom_statuses' | 'hr_users';

const ORDER = WORKFLOW_ORDER('m');

function toRecord(row: Selectable<PaMacrosTable>): MacroRecord {
  return {
    pk: row.pk,
    id: row.id,
    name: row.name,
    label: row.label,
    description: row.description,
    active: row.active === 1,
    forms: JSON.parse(row.forms) as string[],
    roles: JSON.parse(row.roles) as string[],
    customStatuses: JSON.parse(row.custom_statuses) as string[],
    actions: JSON.parse(row.actions) as MacroAction[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toColumns(attrs: MacroAttributes) {
  return {
    name: attrs.name,
    label: attrs.label,
    description: attrs.description,
    active: attrs.active ? 1 : 0,
    forms: JSON.stringify(attrs.forms),
    roles: JSON.stringify(attrs.roles),
    custom_statuses: JSON.stringify(attrs.customStatuses),
    actions: JSON.stringify(attrs.actions),
  };
}

export class MacrosRepository extends HrRepository {
  private filtered(clientId: HrTenantId, filter: MacroFilter) {
    let q = this.tenant(clientId).selectFrom('pa_macros as m').selectAll('m');
    if (filter.q) q = q.where(containsText(['m.name', 'm.label', 'm.description'], filter.q));
    return q;
  }

  async page(
    clientId: HrTenantId,
    filter: MacroFilter,
    request: PageRequest<WorkflowSortField>,
  ): Promise<Page<MacroRecord>> {
    const page = await listPage(this.filtered(clientId, filter), ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  count(clientId: HrTenantId, filter: MacroFilter): Promise<number> {
    return listCount(this.filtered(clientId, filter));
  }

  async find(clientId: HrTenantId, id: string): Promise<MacroRecord | undefined> {
    const row = await this.filtered(clientId, {}).where('m.id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Every active macro of the client, oldest first (the candidates offered on a request). */
  async active(clientId: HrTenantId): Promise<MacroRecord[]> {
    const rows = await this.filtered(clientId, {}).where('m.active', '=', 1).orderBy('m.pk').execute();
    return rows.map(toRecord);
  }

  /** Which of these ids exist in the client's table (request forms, roles, custom statuses or users). */
  existing(clientId: HrTenantId, table: IdTable, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, table, clientId, ids);
  }

  insertIfAbsent(clientId: HrTenantId, id: string, attrs: MacroAttributes, at: number): Promise<boolean> {
    return this.tenant(clientId).insertIfAbsent('pa_macros', {
      id,
      ...toColumns(attrs),
      created_at: at,
      updated_at: at,
    });
  }

  async update(clientId: HrTenantId, id: string, attrs: MacroAttributes, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('pa_macros')
      .set({ ...toColumns(attrs), updated_at: at })
      .where('id', '=', id)
      .execute();
  }
}
