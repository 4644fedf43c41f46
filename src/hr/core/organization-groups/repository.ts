import { existingIds } from '../../../platform/db/existing.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import { containsText } from '../../../platform/db/search.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';

interface OrganizationGroupRow {
  pk: number;
  id: string;
  name: string;
  created_at: number;
  updated_at: number;
}

/** An organization group as the domain sees it: its columns and its members' codes, in their stored order. */
export interface OrganizationGroupRecord {
  pk: number;
  id: string;
  name: string;
  organizationIds: string[];
  createdAt: number;
  updatedAt: number;
}

function toRecord(row: OrganizationGroupRow, organizationIds: string[]): OrganizationGroupRecord {
  return {
    pk: Number(row.pk),
    id: row.id,
    name: row.name,
    organizationIds,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export interface OrganizationGroupFilter {
  organizationId?: string;
  q?: string;
}

/** In creation order. */
const ORDER: ListOrder = { tiebreak: 'g.pk' };

export class OrganizationGroupsRepository extends HrRepository {
  private filtered(clientId: HrTenantId, filter: OrganizationGroupFilter) {
    const t = this.tenant(clientId);
    let query = t
      .selectFrom('hr_organization_groups as g')
      .select(['g.pk', 'g.id', 'g.name', 'g.created_at', 'g.updated_at']);
    if (filter.organizationId !== undefined) {
      const organizationId = filter.organizationId;
      query = query.where(
        'g.id',
        'in',
        t
          .selectFrom('hr_organization_group_members as m')
          .select('m.group_id')
          .where('m.organization_id', '=', organizationId),
      );
    }
    if (filter.q !== undefined) {
      query = query.where(containsText(['g.id', 'g.name'], filter.q));
    }
    return query;
  }

  /** Members of several groups in one query, in their stored order. */
  private async withMembers(clientId: HrTenantId, rows: OrganizationGroupRow[]): Promise<OrganizationGroupRecord[]> {
    if (rows.length === 0) return [];
    const members = await this.tenant(clientId)
      .selectFrom('hr_organization_group_members')
      .select(['group_id', 'organization_id'])
      .where(
        'group_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('group_id')
      .orderBy('position')
      .execute();
    const byGroup = new Map<string, string[]>();
    for (const m of members) {
      const list = byGroup.get(m.group_id) ?? [];
      list.push(m.organization_id);
      byGroup.set(m.group_id, list);
    }
    return rows.map((r) => toRecord(r, byGroup.get(r.id) ?? []));
  }

  async page(
    clientId: HrTenantId,
    filter: OrganizationGroupFilter,
    request: PageRequest,
  ): Promise<Page<OrganizationGroupRecord>> {
    const page = await listPage(this.filtered(clientId, filter), ORDER, request);
    return { ...page, items: await this.withMembers(clientId, page.items) };
  }

  async find(clientId: HrTenantId, id: string): Promise<OrganizationGroupRecord | undefined> {
    const row = await this.filtered(clientId, {}).where('g.id', '=', id).executeTakeFirst();
    return row ? (await this.withMembers(clientId, [row]))[0] : undefined;
  }

  existingOrganizationIds(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_organizations', clientId, ids);
  }

  insertIfAbsent(clientId: HrTenantId, id: string, name: string, at: number): Promise<boolean> {
    return this.tenant(clientId).insertIfAbsent('hr_organization_groups', {
      id,
      name,
      created_at: at,
      updated_at: at,
    });
  }

  async update(clientId: HrTenantId, id: string, changes: { name?: string }, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_organization_groups')
      .set({ ...changes, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  async replaceMembers(clientId: HrTenantId, groupId: string, organizationIds: string[]): Promise<void> {
    const t = this.tenant(clientId);
    await t.deleteFrom('hr_organization_group_members').where('group_id', '=', groupId).execute();
    if (organizationIds.length === 0) return;
    await t
      .insertInto(
        'hr_organization_group_members',
        organizationIds.map((organization_id, position) => ({ group_id: groupId, organization_id, position })),
      )
      .execute();
  }
}
