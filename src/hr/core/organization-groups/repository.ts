import type { Db } from '../../../platform/db/database.js';
import { existingIds } from '../../../platform/db/existing.js';
import { type KeysetColumn, type KeysetPosition, keysetPage, type Page } from '../../../platform/db/keyset.js';
import { containsText } from '../../../platform/db/search.js';
import { inTransaction } from '../../../platform/db/transaction.js';

export interface OrganizationGroupRow {
  pk: number;
  id: string;
  name: string;
  created_at: number;
  updated_at: number;
}

export type OrganizationGroupWithMembers = OrganizationGroupRow & { organizations_ids: string[] };

export interface OrganizationGroupFilter {
  organizationId?: string;
  q?: string;
}

const ORDER: KeysetColumn[] = [{ column: 'g.pk', direction: 'asc' }];

export class OrganizationGroupsRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (repo: OrganizationGroupsRepository) => Promise<T>): Promise<T> {
    return inTransaction(this.db, (trx) => work(new OrganizationGroupsRepository(trx)));
  }

  private filtered(clientId: string, filter: OrganizationGroupFilter) {
    let query = this.db
      .selectFrom('hr_organization_groups as g')
      .select(['g.pk', 'g.id', 'g.name', 'g.created_at', 'g.updated_at'])
      .where('g.client_id', '=', clientId);
    if (filter.organizationId !== undefined) {
      const organizationId = filter.organizationId;
      query = query.where('g.id', 'in', (eb) =>
        eb
          .selectFrom('hr_organization_group_members as m')
          .select('m.group_id')
          .where('m.client_id', '=', clientId)
          .where('m.organization_id', '=', organizationId),
      );
    }
    if (filter.q !== undefined) {
      query = query.where(containsText(['g.id', 'g.name'], filter.q));
    }
    return query;
  }

  /** Members of several groups in one query, in their stored order. */
  private async withMembers(clientId: string, rows: OrganizationGroupRow[]): Promise<OrganizationGroupWithMembers[]> {
    if (rows.length === 0) return [];
    const members = await this.db
      .selectFrom('hr_organization_group_members')
      .select(['group_id', 'organization_id'])
      .where('client_id', '=', clientId)
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
    return rows.map((r) => ({ ...r, organizations_ids: byGroup.get(r.id) ?? [] }));
  }

  async page(
    clientId: string,
    filter: OrganizationGroupFilter,
    limit: number,
    position?: KeysetPosition,
  ): Promise<Page<OrganizationGroupWithMembers>> {
    const page = await keysetPage(this.filtered(clientId, filter), ORDER, (r) => [r.pk], limit, position);
    return { ...page, items: await this.withMembers(clientId, page.items) };
  }

  async find(clientId: string, id: string): Promise<OrganizationGroupWithMembers | undefined> {
    const row = await this.filtered(clientId, {}).where('g.id', '=', id).executeTakeFirst();
    return row ? (await this.withMembers(clientId, [row]))[0] : undefined;
  }

  existingOrganizationIds(clientId: string, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_organizations', clientId, ids);
  }

  async insertIfAbsent(clientId: string, id: string, name: string, at: number): Promise<boolean> {
    const row = await this.db
      .insertInto('hr_organization_groups')
      .values({ client_id: clientId, id, name, created_at: at, updated_at: at })
      .onConflict((oc) => oc.columns(['client_id', 'id']).doNothing())
      .returning('pk')
      .executeTakeFirst();
    return row !== undefined;
  }

  async update(clientId: string, id: string, changes: { name?: string }, at: number): Promise<void> {
    await this.db
      .updateTable('hr_organization_groups')
      .set({ ...changes, updated_at: at })
      .where('client_id', '=', clientId)
      .where('id', '=', id)
      .execute();
  }

  async replaceMembers(clientId: string, groupId: string, organizationIds: string[]): Promise<void> {
    await this.db
      .deleteFrom('hr_organization_group_members')
      .where('client_id', '=', clientId)
      .where('group_id', '=', groupId)
      .execute();
    if (organizationIds.length === 0) return;
    await this.db
      .insertInto('hr_organization_group_members')
      .values(
        organizationIds.map((organization_id, position) => ({
          client_id: clientId,
          group_id: groupId,
          organization_id,
          position,
        })),
      )
      .execute();
  }
}
