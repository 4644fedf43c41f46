/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

/**
 * An employee's electronic vault (reference §3a.8, `ElectronicVaultFull`) and portal invitation: written the first
 * time something changes; an employee without a row has the defaults (docs/hr-api.md, "Electronic vaults").
 */
export interface HrElectronicVaultsTable {
  client_id: string;
  employee_id: string;
  /** Made when the employee activates the vault; cleared once it is deleted. */
  electronic_vault_id: string | null;
  subscription_enabled: number;
  paper_enabled: number;
  electronic_enabled: number;
  payslips_opted_out: number;
  payslips_choice_updated_at: number | null;
  /** `mypeopledoc` (the employee) or `peopledoc` (the HR side: this API). */
  payslips_choice_origin: string | null;
  /** `not_activated`, `activated`, `pending_deletion` or `deleted` (`not_available` is derived). */
  state: string;
  /** The last e-vault invitation since the vault was last deleted: a later one is a follow-up. */
  invited_at: number | null;
  /** The last portal invitation: a later one is a follow-up. */
  portal_invited_at: number | null;
  created_at: number;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_electronic_vaults: HrElectronicVaultsTable;
  }
}
