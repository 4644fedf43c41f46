import { type RawBuilder, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listCount, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { Tables } from '../../../platform/db/schema.js';
import { containsText } from '../../../platform/db/search.js';
import { ownedBy } from '../../../platform/db/tenant.js';
import type { HrOrganizationsTable } from './tables.js';

type OrganizationRow = Selectable<HrOrganizationsTable>;

/**
 * A subquery of the codes of `root` and every organization below it, for `organization_id_below` filters of
 * other lists (`column in (…)`).
 */
// tenant-by-hand: a raw recursive query (Kysely's `Tenant` has no `with recursive`), bound to the client at each step.
export function organizationSubtree(clientId: string, root: string): RawBuilder<unknown> {
  return sql`(
    with recursive below(id) as (
      select x.id from hr_organizations x where x.client_id = ${clientId} and x.id = ${root}
      union
      select c.id from hr_organizations c join below b on c.parent_organization_id = b.id where c.client_id = ${clientId}
    ) select id from below)`;
}

/** An organization as the domain sees it: its columns (instants in epoch ms) and whether any organization is below. */
export type OrganizationRecord = Omit<OrganizationRow, 'client_id'> & { has_children: boolean };

export type OrganizationAttributes = Omit<OrganizationRow, 'pk' | 'client_id' | 'id' | 'created_at' | 'updated_at'>;

/** Which organizations a list or count covers. */
export type OrganizationScope =
  | { kind: 'all' }
  | { kind: 'roots' }
  | { kind: 'children'; of: string }
  | { kind: 'descendants'; of: string }
  | { kind: 'parent'; of: string }
  | { kind: 'ancestors'; of: string };

export interface OrganizationFilter {
  scope: OrganizationScope;
  groupId?: string;
  q?: string;
}

/** Lists are in creation order: the internal key is the keyset. */
const ORDER: ListOrder = { tiebreak: 'o.pk' };

type OrgDb = Tables & { o: HrOrganizationsTable; tree: { id: string } };
type OrgQuery = SelectQueryBuilder<OrgDb, 'o', OrganizationRow & { has_children: boolean | number }>;

export class OrganizationsRepository extends HrRepository {
  private filtered(clientId: string, filter: OrganizationFilter): OrgQuery {
    const { scope } = filter;
    const t = this.tenant(clientId);
    let from = t.selectFrom('hr_organizations as o') as unknown as SelectQueryBuilder<OrgDb, 'o', object>;
    if (scope.kind === 'descendants' || scope.kind === 'ancestors') {
      const root = scope.of;
      // Each side of the union is a tenant query, the recursive one over the query creator that knows `tree`.
      const tree = this.db.withRecursive('tree(id)', (qb) => {
        const within = t.on(qb);
        return scope.kind === 'descendants'
          ? within
              .selectFrom('hr_organizations')
              .select('id')
              .where('parent_organization_id', '=', root)
              .union(
                within
                  .selectFrom('hr_organizations as c')
                  .innerJoin('tree', 'tree.id', 'c.parent_organization_id')
                  .select('c.id'),
              )
          : within
              .selectFrom('hr_organizations')
              .select('parent_organization_id as id')
              .where('id', '=', root)
              .where('parent_organization_id', 'is not', null)
              .union(
                within
                  .selectFrom('hr_organizations as p')
                  .innerJoin('tree', 'tree.id', 'p.id')
                  .select('p.parent_organization_id as id')
                  .where('p.parent_organization_id', 'is not', null),
              );
      });
      from = tree.selectFrom('hr_organizations as o').where(ownedBy('o', clientId)) as unknown as SelectQueryBuilder<
        OrgDb,
        'o',
        object
      >;
    }
    let query: OrgQuery = from.selectAll('o').select(
      // tenant-by-hand: the children are tied to the row `o`, read through `Tenant`, by its own client.
      sql<boolean>`exists (select 1 from hr_organizations c where c.client_id = o.client_id and c.parent_organization_id = o.id)`.as(
        'has_children',
      ),
    ) as OrgQuery;
    switch (scope.kind) {
      case 'roots':
        query = query.where('o.parent_organization_id', 'is', null);
        break;
      case 'children':
        query = query.where('o.parent_organization_id', '=', scope.of);
        break;
      case 'parent':
        query = query.where(
          'o.id',
          '=',
          t.selectFrom('hr_organizations as x').select('x.parent_organization_id').where('x.id', '=', scope.of),
        );
        break;
      case 'descendants':
      case 'ancestors':
        query = query.where('o.id', 'in', (eb) => eb.selectFrom('tree').select('tree.id'));
        break;
    }
    if (filter.groupId !== undefined) {
      const groupId = filter.groupId;
      query = query.where(
        'o.id',
        'in',
        t
          .selectFrom('hr_organization_group_members as m')
          .select('m.organization_id')
          .where('m.group_id', '=', groupId),
      );
    }
    if (filter.q !== undefined) {
      query = query.where(containsText(['o.id', 'o.name'], filter.q));
    }
    return query;
  }

  async page(clientId: string, filter: OrganizationFilter, request: PageRequest): Promise<Page<OrganizationRecord>> {
    const page = await listPage(this.filtered(clientId, filter), ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  count(clientId: string, filter: OrganizationFilter): Promise<number> {
    return listCount(this.filtered(clientId, filter));
  }

  async find(clientId: string, id: string): Promise<OrganizationRecord | undefined> {
    const row = await this.filtered(clientId, { scope: { kind: 'all' } })
      .where('o.id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async exists(clientId: string, id: string): Promise<boolean> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_organizations')
      .select('pk')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  async groupExists(clientId: string, groupId: string): Promise<boolean> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_organization_groups')
      .select('pk')
      .where('id', '=', groupId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Codes of every ancestor of `id`, nearest first (a cycle cannot loop: UNION drops repeats). */
  async ancestorIds(clientId: string, id: string): Promise<string[]> {
    const rows = await this.filtered(clientId, { scope: { kind: 'ancestors', of: id } })
      .clearSelect()
      .select('o.id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Inserts unless the code exists; returns whether it inserted. Concurrent creates of one code cannot both win. */
  insertIfAbsent(clientId: string, id: string, attrs: OrganizationAttributes, at: number): Promise<boolean> {
    return this.tenant(clientId).insertIfAbsent('hr_organizations', { id, ...attrs, created_at: at, updated_at: at });
  }

  async update(clientId: string, id: string, attrs: Partial<OrganizationAttributes>, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_organizations')
      .set({ ...attrs, updated_at: at })
      .where('id', '=', id)
      .execute();
  }
}

/** The stored row as the domain's record: `has_children` a boolean (SQLite answers exists() with 0/1). */
function toRecord(row: OrganizationRow & { has_children: boolean | number }): OrganizationRecord {
  const { client_id: _tenant, ...rest } = row;
  return { ...rest, has_children: Boolean(row.has_children) };
}
