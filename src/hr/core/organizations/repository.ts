import { type RawBuilder, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import { type KeysetColumn, type KeysetPosition, keysetPage, type Page } from '../../../platform/db/keyset.js';
import type { HrOrganizationsTable, Tables } from '../../../platform/db/schema.js';
import { containsText } from '../../../platform/db/search.js';
import { inTransaction } from '../../../platform/db/transaction.js';

export type OrganizationRow = Selectable<HrOrganizationsTable>;

/**
 * A subquery of the codes of `root` and every organization below it, for `organization_id_below` filters of
 * other lists (`column in (…)`).
 */
export function organizationSubtree(clientId: string, root: string): RawBuilder<unknown> {
  return sql`(
    with recursive below(id) as (
      select x.id from hr_organizations x where x.client_id = ${clientId} and x.id = ${root}
      union
      select c.id from hr_organizations c join below b on c.parent_organization_id = b.id where c.client_id = ${clientId}
    ) select id from below)`;
}

export type OrganizationWithChildren = OrganizationRow & { has_children: boolean };

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
const ORDER: KeysetColumn[] = [{ column: 'o.pk', direction: 'asc' }];

type OrgDb = Tables & { o: HrOrganizationsTable; tree: { id: string } };
type OrgQuery = SelectQueryBuilder<OrgDb, 'o', OrganizationWithChildren>;

export class OrganizationsRepository {
  constructor(private readonly db: Db) {}

  private filtered(clientId: string, filter: OrganizationFilter): OrgQuery {
    const { scope } = filter;
    let from = this.db.selectFrom('hr_organizations as o') as unknown as SelectQueryBuilder<OrgDb, 'o', object>;
    if (scope.kind === 'descendants' || scope.kind === 'ancestors') {
      const root = scope.of;
      const tree = this.db.withRecursive('tree(id)', (qb) =>
        scope.kind === 'descendants'
          ? qb
              .selectFrom('hr_organizations')
              .select('id')
              .where('client_id', '=', clientId)
              .where('parent_organization_id', '=', root)
              .union((u) =>
                u
                  .selectFrom('hr_organizations as c')
                  .innerJoin('tree', 'tree.id', 'c.parent_organization_id')
                  .select('c.id')
                  .where('c.client_id', '=', clientId),
              )
          : qb
              .selectFrom('hr_organizations')
              .select('parent_organization_id as id')
              .where('client_id', '=', clientId)
              .where('id', '=', root)
              .where('parent_organization_id', 'is not', null)
              .union((u) =>
                u
                  .selectFrom('hr_organizations as p')
                  .innerJoin('tree', 'tree.id', 'p.id')
                  .select('p.parent_organization_id as id')
                  .where('p.client_id', '=', clientId)
                  .where('p.parent_organization_id', 'is not', null),
              ),
      );
      from = tree.selectFrom('hr_organizations as o') as unknown as SelectQueryBuilder<OrgDb, 'o', object>;
    }
    let query: OrgQuery = from
      .selectAll('o')
      .select(
        sql<boolean>`exists (select 1 from hr_organizations c where c.client_id = o.client_id and c.parent_organization_id = o.id)`.as(
          'has_children',
        ),
      )
      .where('o.client_id', '=', clientId) as OrgQuery;
    switch (scope.kind) {
      case 'roots':
        query = query.where('o.parent_organization_id', 'is', null);
        break;
      case 'children':
        query = query.where('o.parent_organization_id', '=', scope.of);
        break;
      case 'parent':
        query = query.where('o.id', '=', (eb) =>
          eb
            .selectFrom('hr_organizations as x')
            .select('x.parent_organization_id')
            .where('x.client_id', '=', clientId)
            .where('x.id', '=', scope.of),
        );
        break;
      case 'descendants':
      case 'ancestors':
        query = query.where('o.id', 'in', (eb) => eb.selectFrom('tree').select('tree.id'));
        break;
    }
    if (filter.groupId !== undefined) {
      const groupId = filter.groupId;
      query = query.where('o.id', 'in', (eb) =>
        eb
          .selectFrom('hr_organization_group_members as m')
          .select('m.organization_id')
          .where('m.client_id', '=', clientId)
          .where('m.group_id', '=', groupId),
      );
    }
    if (filter.q !== undefined) {
      query = query.where(containsText(['o.id', 'o.name'], filter.q));
    }
    return query;
  }

  async page(
    clientId: string,
    filter: OrganizationFilter,
    limit: number,
    position?: KeysetPosition,
  ): Promise<Page<OrganizationWithChildren>> {
    const page = await keysetPage(this.filtered(clientId, filter), ORDER, (r) => [r.pk], limit, position);
    return { ...page, items: page.items.map(normalize) };
  }

  async count(clientId: string, filter: OrganizationFilter): Promise<number> {
    const row = await this.filtered(clientId, filter)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async find(clientId: string, id: string): Promise<OrganizationWithChildren | undefined> {
    const row = await this.filtered(clientId, { scope: { kind: 'all' } })
      .where('o.id', '=', id)
      .executeTakeFirst();
    return row ? normalize(row) : undefined;
  }

  async exists(clientId: string, id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('hr_organizations')
      .select('pk')
      .where('client_id', '=', clientId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  async groupExists(clientId: string, groupId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('hr_organization_groups')
      .select('pk')
      .where('client_id', '=', clientId)
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
  async insertIfAbsent(clientId: string, id: string, attrs: OrganizationAttributes, at: number): Promise<boolean> {
    const inserted = await this.db
      .insertInto('hr_organizations')
      .values({ client_id: clientId, id, ...attrs, created_at: at, updated_at: at })
      .onConflict((oc) => oc.columns(['client_id', 'id']).doNothing())
      .returning('pk')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  async update(clientId: string, id: string, attrs: Partial<OrganizationAttributes>, at: number): Promise<void> {
    await this.db
      .updateTable('hr_organizations')
      .set({ ...attrs, updated_at: at })
      .where('client_id', '=', clientId)
      .where('id', '=', id)
      .execute();
  }

  transaction<T>(work: (repo: OrganizationsRepository) => Promise<T>): Promise<T> {
    return inTransaction(this.db, (trx) => work(new OrganizationsRepository(trx)));
  }
}

function normalize(row: OrganizationWithChildren): OrganizationWithChildren {
  // SQLite answers exists() with 0/1, PostgreSQL with a boolean.
  return { ...row, has_children: Boolean(row.has_children) };
}
