import { sql } from 'kysely';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { VaultState } from './schemas.js';

/** The states a vault row stores (`not_available` is derived from the subscription option). */
export type StoredVaultState = Exclude<VaultState, 'not_available'>;

/** An employee with their vault: the stored row, or the defaults when there is none. */
export interface VaultRecord {
  employee: { id: string; externalId: string | null; firstname: string; lastname: string; email: string | null };
  employeeCreatedAt: number;
  electronicVaultId: string | null;
  subscriptionEnabled: boolean;
  paperEnabled: boolean;
  electronicEnabled: boolean;
  payslipsOptedOut: boolean;
  payslipsChoiceUpdatedAt: number | null;
  payslipsChoiceOrigin: string | null;
  storedState: StoredVaultState;
  /** What the API shows: `not_available` while the subscription is disabled, else the stored state. */
  state: VaultState;
  invitedAt: number | null;
  /** When the vault row last changed (null: no row, the defaults). */
  updatedAt: number | null;
}

export interface VaultFilter {
  employeeIds?: string[] | undefined;
  state?: VaultState | undefined;
  externalId?: string | undefined;
  optedOut?: boolean | undefined;
  /** The shown state is (or is not) `activated`. */
  activated?: boolean | undefined;
}

/** What a write may set of a vault row (absent: unchanged). */
export interface VaultChanges {
  electronicVaultId?: string | null;
  subscriptionEnabled?: boolean;
  paperEnabled?: boolean;
  electronicEnabled?: boolean;
  payslipsOptedOut?: boolean;
  payslipsChoiceUpdatedAt?: number | null;
  payslipsChoiceOrigin?: string | null;
  state?: StoredVaultState;
  invitedAt?: number | null;
}

const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

/** The columns of the changes (Kysely leaves the undefined ones out of the update). */
function toColumns(changes: VaultChanges) {
  return {
    electronic_vault_id: changes.electronicVaultId,
    subscription_enabled: flag(changes.subscriptionEnabled),
    paper_enabled: flag(changes.paperEnabled),
    electronic_enabled: flag(changes.electronicEnabled),
    payslips_opted_out: flag(changes.payslipsOptedOut),
    payslips_choice_updated_at: changes.payslipsChoiceUpdatedAt,
    payslips_choice_origin: changes.payslipsChoiceOrigin,
    state: changes.state,
    invited_at: changes.invitedAt,
  };
}

/** The state shown: the subscription disabled hides the stored one. */
const SHOWN_STATE = sql<string>`case when coalesce(v.subscription_enabled, 1) = 0 then 'not_available' else coalesce(v.state, 'not_activated') end`;

/** Employees in creation order. */
const ORDER: ListOrder = { fixed: [{ term: 'e.pk', direction: 'asc' }] };

interface Row {
  id: string;
  external_id: string | null;
  firstname: string;
  lastname: string;
  email: string | null;
  employee_created_at: number | string;
  electronic_vault_id: string | null;
  subscription_enabled: number | null;
  paper_enabled: number | null;
  electronic_enabled: number | null;
  payslips_opted_out: number | null;
  payslips_choice_updated_at: number | string | null;
  payslips_choice_origin: string | null;
  state: string | null;
  shown_state: string;
  invited_at: number | string | null;
  updated_at: number | string | null;
}

const instant = (value: number | string | null): number | null => (value === null ? null : Number(value));

function toRecord(row: Row): VaultRecord {
  return {
    employee: {
      id: row.id,
      externalId: row.external_id,
      firstname: row.firstname,
      lastname: row.lastname,
      email: row.email,
    },
    employeeCreatedAt: Number(row.employee_created_at),
    electronicVaultId: row.electronic_vault_id,
    subscriptionEnabled: row.subscription_enabled !== 0,
    paperEnabled: row.paper_enabled !== 0,
    electronicEnabled: row.electronic_enabled !== 0,
    payslipsOptedOut: row.payslips_opted_out === 1,
    payslipsChoiceUpdatedAt: instant(row.payslips_choice_updated_at),
    payslipsChoiceOrigin: row.payslips_choice_origin,
    storedState: (row.state ?? 'not_activated') as StoredVaultState,
    state: row.shown_state as VaultState,
    invitedAt: instant(row.invited_at),
    updatedAt: instant(row.updated_at),
  };
}

/**
 * Employees' electronic vaults (reference §3a.8): every employee of the client has one, the defaults until a row
 * is written; reads join the employees to their rows.
 */
export class VaultsRepository extends HrRepository {
  private filtered(clientId: HrTenantId, filter: VaultFilter) {
    let q = this.tenant(clientId)
      .selectFrom('hr_employees as e')
      .leftJoin('hr_electronic_vaults as v', (j) =>
        // tenant-by-hand: the vault is joined to the employee, read through `Tenant`, by the row's own client.
        j.onRef('v.employee_id', '=', 'e.id').onRef('v.client_id', '=', 'e.client_id'),
      )
      .select([
        'e.pk',
        'e.id',
        'e.external_id',
        'e.firstname',
        'e.lastname',
        'e.email',
        'e.created_at as employee_created_at',
        'v.electronic_vault_id',
        'v.subscription_enabled',
        'v.paper_enabled',
        'v.electronic_enabled',
        'v.payslips_opted_out',
        'v.payslips_choice_updated_at',
        'v.payslips_choice_origin',
        'v.state',
        SHOWN_STATE.as('shown_state'),
        'v.invited_at',
        'v.updated_at',
      ]);
    if (filter.employeeIds !== undefined) q = q.where('e.id', 'in', filter.employeeIds);
    if (filter.state !== undefined) q = q.where(SHOWN_STATE, '=', filter.state);
    if (filter.externalId !== undefined) q = q.where('e.external_id', '=', filter.externalId);
    if (filter.activated !== undefined) q = q.where(SHOWN_STATE, filter.activated ? '=' : '<>', 'activated');
    if (filter.optedOut !== undefined) {
      q = q.where(sql`coalesce(v.payslips_opted_out, 0)`, '=', filter.optedOut ? 1 : 0);
    }
    return q;
  }

  async page(clientId: HrTenantId, filter: VaultFilter, request: PageRequest): Promise<Page<VaultRecord>> {
    const page = await listPage(this.filtered(clientId, filter), ORDER, request);
    return { ...page, items: (page.items as Row[]).map(toRecord) };
  }

  async find(clientId: HrTenantId, employeeId: string): Promise<VaultRecord | undefined> {
    const row = await this.filtered(clientId, {}).where('e.id', '=', employeeId).executeTakeFirst();
    return row ? toRecord(row as Row) : undefined;
  }

  /** Writes the employee's row with the defaults unless it exists. */
  private async ensure(clientId: HrTenantId, employeeId: string, at: number): Promise<void> {
    await this.tenant(clientId).insertIfAbsent(
      'hr_electronic_vaults',
      {
        employee_id: employeeId,
        electronic_vault_id: null,
        subscription_enabled: 1,
        paper_enabled: 1,
        electronic_enabled: 1,
        payslips_opted_out: 0,
        payslips_choice_updated_at: null,
        payslips_choice_origin: null,
        state: 'not_activated',
        invited_at: null,
        portal_invited_at: null,
        created_at: at,
        updated_at: at,
      },
      ['client_id', 'employee_id'],
    );
  }

  /** Sets columns of the employee's row (written with the defaults first when absent). */
  async update(clientId: HrTenantId, employeeId: string, changes: VaultChanges, at: number): Promise<void> {
    await this.ensure(clientId, employeeId, at);
    await this.tenant(clientId)
      .updateTable('hr_electronic_vaults as v')
      .set({ ...toColumns(changes), updated_at: at })
      .where('v.employee_id', '=', employeeId)
      .execute();
  }

  /** Moves the stored state from one of `from` to `changes.state`; false when it was in none of them. */
  async transition(
    clientId: HrTenantId,
    employeeId: string,
    from: readonly StoredVaultState[],
    changes: VaultChanges,
    at: number,
  ): Promise<boolean> {
    await this.ensure(clientId, employeeId, at);
    const result = await this.tenant(clientId)
      .updateTable('hr_electronic_vaults as v')
      .set({ ...toColumns(changes), updated_at: at })
      .where('v.employee_id', '=', employeeId)
      .where('v.state', 'in', [...from])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Marks an invitation sent (the e-vault's or the portal's); answers whether it is the first since the mark was
   * last cleared (else the mail is a follow-up). Two calls at once cannot both be the first.
   */
  async markInvited(
    clientId: HrTenantId,
    employeeId: string,
    invitation: 'vault' | 'portal',
    at: number,
  ): Promise<boolean> {
    const column = invitation === 'vault' ? 'invited_at' : 'portal_invited_at';
    await this.ensure(clientId, employeeId, at);
    const first = await this.tenant(clientId)
      .updateTable('hr_electronic_vaults as v')
      .set({ [column]: at })
      .where('v.employee_id', '=', employeeId)
      .where(`v.${column}`, 'is', null)
      .executeTakeFirst();
    if (Number(first.numUpdatedRows) > 0) return true;
    await this.tenant(clientId)
      .updateTable('hr_electronic_vaults as v')
      .set({ [column]: at })
      .where('v.employee_id', '=', employeeId)
      .execute();
    return false;
  }
}
