import { formatDateTime } from '../../../platform/time.js';
import type { DocumentTypeRecord } from '../document-types/repository.js';
import type { VaultRecord } from './repository.js';
import type { ElectronicVault } from './schemas.js';

/** The four options of `ElectronicVaultOptionsBase`. */
export function presentVaultOptions(vault: VaultRecord) {
  return {
    electronic_vault_subscription_enabled: vault.subscriptionEnabled,
    paper_documents_distribution_enabled: vault.paperEnabled,
    electronic_documents_distribution_enabled: vault.electronicEnabled,
    electronic_payslips_opted_out: vault.payslipsOptedOut,
  };
}

/** An employee's vault on the wire (reference §3a.8, `ElectronicVaultFull`). */
export function presentVault(vault: VaultRecord): ElectronicVault {
  return {
    id: vault.employee.id,
    electronic_vault_id: vault.electronicVaultId,
    ...presentVaultOptions(vault),
    electronic_vault_state: vault.state,
    electronic_payslips_choice_updated_at:
      vault.payslipsChoiceUpdatedAt === null ? null : formatDateTime(vault.payslipsChoiceUpdatedAt),
    electronic_payslips_choice_origin:
      vault.payslipsChoiceOrigin as ElectronicVault['electronic_payslips_choice_origin'],
  };
}

/**
 * Whether documents of the type are payslips, whose electronic delivery the employee may have opted out of: its
 * code or one of its expiry policies names `payslip` (`payslip`, `payslip_fr`, `payslip_policy_fr`).
 */
export function isPayslipType(type: Pick<DocumentTypeRecord, 'id' | 'settings'>): boolean {
  const names = [type.id, ...(type.settings.policies ?? [])];
  return names.some((name) => name.toLowerCase().includes('payslip'));
}
