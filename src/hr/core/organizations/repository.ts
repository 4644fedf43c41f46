import { type RawBuilder, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listCount, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { Tables } from '../../../platform/db/schema.js';
import { containsText } from '../../../platform/db/search.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { ownedBy } from '../../../platform/db/tenant.js';
import type { HrOrganizationsTable } from './tables.js';

type OrganizationRow = Selectable<HrOrganizationsTable>;

/**
 * A subquery of the codes of `root` and every organization below it, for `organization_id_below` filters of
 * other lists (`column in (…)`).
 */
// tenant-by-hand: a raw recursive query (Kysely's `Tenant` has no `with recursive`), bound to the client at each step.
export function organizationSubtree(clientId: HrTenantId, root: string): RawBuilder<unknown> {
  return sql`(
    with recursive below(id) as (
      select x.id from hr_organizations x where x.client_id = ${clientId} and x.id = ${root}
      union
      select c.id from hr_organizations c join below b on c.parent_organization_id = b.id where c.client_id = ${clientId}
    ) select id from below)`;
}

/** What an organization's writes set. */
export interface OrganizationAttributes {
  name: string;
  description: string | null;
  parentOrganizationId: string | null;
  corporateName: string | null;
  address1: string | null;
  address2: string | null;
  zipCode: string | null;
  city: string | null;
  country: string | null;
  contactFirstname: string | null;
  contactLastname: string | null;
  contactEmail: string | null;
  contactPhoneNumber: string | null;
}

/** An organization as the domain sees it: its columns (instants in epoch ms) and whether any organization is below. */
export interface OrganizationRecord extends OrganizationAttributes {
  pk: number;
  id: string;
  hasChildren: boolean;
  createdAt: number;
  updatedAt: number;
}

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
  private filtered(clientId: HrTenantId, filter: OrganizationFilter): OrgQuery {
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

  async page(
    clientId: HrTenantId,
    filter: OrganizationFilter,
    request: PageRequest,
  ): Promise<Page<OrganizationRecord>> {
    const page = await listPage(this.filtered(clientId, filter), ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  count(clientId: HrTenantId, filter: OrganizationFilter): Promise<number> {
    return listCount(this.filtered(clientId, filter));
  }

  async find(clientId: HrTenantId, id: string): Promise<OrganizationRecord | undefined> {
    const row = await this.filtered(clientId, { scope: { kind: 'all' } })
      .where('o.id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async exists(clientId: HrTenantId, id: string): Promise<boolean> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_organizations')
      .select('pk')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  async groupExists(clientId: HrTenantId, groupId: string): Promise<boolean> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_organization_groups')
      .select('pk')
      .where('id', '=', groupId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Codes of every ancestor of `id`, nearest first (a cycle cannot loop: UNION drops repeats). */
  async ancestorIds(clientId: HrTenantId, id: string): Promise<string[]> {
    const rows = await this.filtered(clientId, { scope: { kind: 'ancestors', of: id } })
      .clearSelect()
      .select('o.id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Inserts unless the code exists; returns whether it inserted. Concurrent creates of one code cannot both win. */
  insertIfAbsent(clientId: HrTenantId, id: string, attrs: OrganizationAttributes, at: number): Promise<boolean> {
    return this.tenant(clientId).insertIfAbsent('hr_organizations', {
      id,
      ...toColumns(attrs),
      name: attrs.name,
      created_at: at,
      updated_at: at,
    });
  }

  async update(clientId: HrTenantId, id: string, attrs: Partial<OrganizationAttributes>, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_organizations')
      .set({ ...toColumns(attrs), updated_at: at })
      .where('id', '=', id)
      .execute();
  }
}

/** The stored row as the domain's record: `hasChildren` a boolean (SQLite answers exists() with 0/1). */
function toRecord(row: OrganizationRow & { has_children: boolean | number }): OrganizationRecord {
  return {
    pk: Number(row.pk),
    id: row.id,
    name: row.name,
    description: row.description,
    parentOrganizationId: row.parent_organization_id,
    corporateName: row.corporate_name,
    address1: row.address1,
    address2: row.address2,
    zipCode: row.zip_code,
    city: row.city,
    country: row.country,
    contactFirstname: row.contact_firstname,
    contactLastname: row.contact_lastname,
    contactEmail: row.contact_email,
    contactPhoneNumber: row.contact_phone_number,
    hasChildren: Boolean(row.has_children),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** The columns of the attributes given (a PATCH sends some). */
function toColumns(a: Partial<OrganizationAttributes>): Partial<Omit<HrOrganizationsTable, 'pk'>> {
  const columns: Partial<Omit<HrOrganizationsTable, 'pk'>> = {};
  if (a.name !== undefined) columns.name = a.name;
  if (a.description !== undefined) columns.description = a.description;
  if (a.parentOrganizationId !== undefined) columns.parent_organization_id = a.parentOrganizationId;
  if (a.corporateName !== undefined) columns.corporate_name = a.corporateName;
  if (a.address1 !== undefined) columns.address1 = a.address1;
  if (a.address2 !== undefined) columns.address2 = a.address2;
  if (a.zipCode !== undefined) columns.zip_code = a.zipCode;
  if (a.city !== undefined) columns.city = a.city;
  if (a.country !== undefined) columns.country = a.country;
  if (a.contactFirstname !== undefined) columns.contact_firstname = a.contactFirstname;
  if (a.contactLastname !== undefined) columns.contact_lastname = a.contactLastname;
  if (a.contactEmail !== undefined) columns.contact_email = a.contactEmail;
  if (a.contactPhoneNumber !== undefined) columns.contact_phone_number = a.contactPhoneNumber;
  return columns;
}
