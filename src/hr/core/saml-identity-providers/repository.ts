import type { Selectable, SelectQueryBuilder } from 'kysely';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { HrSamlIdentityProvidersTable } from './tables.js';

type ProviderRow = Selectable<HrSamlIdentityProvidersTable>;

/** What a provider's writes set. */
export interface SamlIdentityProviderAttributes {
  name: string;
  entityId: string;
  ssoEndpoint: string;
  x509Certificate: string;
  activated: boolean;
  enableSpSession: boolean;
  nextLogoutUrl: string;
  scope: string | null;
  workflowType: string | null;
}

/** A provider as the domain sees it (instants in epoch ms). */
export interface SamlIdentityProviderRecord extends SamlIdentityProviderAttributes {
  pk: number;
  id: string;
  createdAt: number;
  updatedAt: number;
}

/** A list's filters: `scope` lower-cased, with the fallback to unset scopes (docs/hr-api.md). */
export interface SamlIdentityProviderFilter {
  activated?: boolean | undefined;
  entityId?: string | undefined;
  scope?: string | undefined;
}

/** Lists are in creation order: the internal key is the keyset. */
const ORDER: ListOrder = { tiebreak: 'p.pk' };

type ProviderDb = Tables & { p: HrSamlIdentityProvidersTable };
type ProviderQuery = SelectQueryBuilder<ProviderDb, 'p', ProviderRow>;

export class SamlIdentityProvidersRepository extends HrRepository {
  private all(clientId: HrTenantId): ProviderQuery {
    return this.tenant(clientId).selectFrom('hr_saml_identity_providers as p').selectAll('p') as ProviderQuery;
  }

  /** The filters but `scope` (the fallback's subquery has its own `p`, which shadows the list's). */
  private filtered(clientId: HrTenantId, filter: SamlIdentityProviderFilter): ProviderQuery {
    let query = this.all(clientId);
    if (filter.activated !== undefined) query = query.where('p.activated', '=', filter.activated ? 1 : 0);
    if (filter.entityId !== undefined) query = query.where('p.entity_id', '=', filter.entityId);
    return query;
  }

  /** The list's query: with `scope`, the providers of that scope, or when there are none, those without a scope. */
  private listed(clientId: HrTenantId, filter: SamlIdentityProviderFilter): ProviderQuery {
    const query = this.filtered(clientId, filter);
    const scope = filter.scope;
    if (scope === undefined) return query;
    const ofScope = this.filtered(clientId, filter).clearSelect().select('p.pk').where('p.scope', '=', scope);
    return query.where((eb) =>
      eb.or([eb('p.scope', '=', scope), eb.and([eb('p.scope', 'is', null), eb.not(eb.exists(ofScope as never))])]),
    );
  }

  async page(
    clientId: HrTenantId,
    filter: SamlIdentityProviderFilter,
    request: PageRequest,
  ): Promise<Page<SamlIdentityProviderRecord>> {
    const page = await listPage(this.listed(clientId, filter), ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  async find(clientId: HrTenantId, id: string): Promise<SamlIdentityProviderRecord | undefined> {
    const row = await this.all(clientId).where('p.id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** The active providers other than `id` that share the scope (null with null) or the name. */
  async activeRivals(
    clientId: HrTenantId,
    id: string,
    attrs: Pick<SamlIdentityProviderAttributes, 'name' | 'scope'>,
  ): Promise<SamlIdentityProviderRecord[]> {
    const rows = await this.all(clientId)
      .where('p.activated', '=', 1)
      .where('p.id', '!=', id)
      .where((eb) =>
        eb.or([
          attrs.scope === null ? eb('p.scope', 'is', null) : eb('p.scope', '=', attrs.scope),
          eb('p.name', '=', attrs.name),
        ]),
      )
      .orderBy('p.pk')
      .execute();
    return rows.map(toRecord);
  }

  /** Inserts unless the id exists; answers whether it inserted. */
  insertIfAbsent(
    clientId: HrTenantId,
    id: string,
    attrs: SamlIdentityProviderAttributes,
    at: number,
  ): Promise<boolean> {
    return this.tenant(clientId).insertIfAbsent('hr_saml_identity_providers', {
      id,
      ...toColumns(attrs),
      created_at: at,
      updated_at: at,
    } as Omit<HrSamlIdentityProvidersTable, 'pk' | 'client_id'>);
  }

  async update(
    clientId: HrTenantId,
    id: string,
    attrs: Partial<SamlIdentityProviderAttributes>,
    at: number,
  ): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_saml_identity_providers')
      .set({ ...toColumns(attrs), updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  async delete(clientId: HrTenantId, id: string): Promise<void> {
    await this.tenant(clientId).deleteFrom('hr_saml_identity_providers').where('id', '=', id).execute();
  }
}

function toRecord(row: ProviderRow): SamlIdentityProviderRecord {
  return {
    pk: Number(row.pk),
    id: row.id,
    name: row.name,
    entityId: row.entity_id,
    ssoEndpoint: row.sso_endpoint,
    x509Certificate: row.x509_certificate,
    activated: Boolean(row.activated),
    enableSpSession: Boolean(row.enable_sp_session),
    nextLogoutUrl: row.next_logout_url,
    scope: row.scope,
    workflowType: row.workflow_type,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** The columns of the attributes given (a PATCH sends some). */
function toColumns(a: Partial<SamlIdentityProviderAttributes>): Partial<Omit<HrSamlIdentityProvidersTable, 'pk'>> {
  const columns: Partial<Omit<HrSamlIdentityProvidersTable, 'pk'>> = {};
  if (a.name !== undefined) columns.name = a.name;
  if (a.entityId !== undefined) columns.entity_id = a.entityId;
  if (a.ssoEndpoint !== undefined) columns.sso_endpoint = a.ssoEndpoint;
  if (a.x509Certificate !== undefined) columns.x509_certificate = a.x509Certificate;
  if (a.activated !== undefined) columns.activated = a.activated ? 1 : 0;
  if (a.enableSpSession !== undefined) columns.enable_sp_session = a.enableSpSession ? 1 : 0;
  if (a.nextLogoutUrl !== undefined) columns.next_logout_url = a.nextLogoutUrl;
  if (a.scope !== undefined) columns.scope = a.scope;
  if (a.workflowType !== undefined) columns.workflow_type = a.workflowType;
  return columns;
}
