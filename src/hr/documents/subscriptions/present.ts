import { formatDateTime } from '../../../platform/time.js';
import type { DocumentTypeRecord } from '../document-types/repository.js';
import { isPayslipType, presentVaultOptions } from '../vaults/present.js';
import type { VaultRecord } from '../vaults/repository.js';
import type { EmployeeSubscription, Subscription } from './schemas.js';

type Choice = Subscription['employee_choice'];

/** An employee's vault, with the document types their subscriptions are to. */
export interface SubscriptionsView {
  vault: VaultRecord;
  types: DocumentTypeRecord[];
}

/**
 * One subscription, derived (docs/hr-api.md, "Employee subscriptions"): the employee chose `paper` for payslips
 * when they opted out of electronic payslips, else `electronic` by activating their vault, else nothing; the
 * calculated choice is null when that channel is disabled in their options.
 */
function subscriptionOf(vault: VaultRecord, type: DocumentTypeRecord): Subscription {
  const choice: Choice =
    vault.payslipsOptedOut && isPayslipType(type) ? 'paper' : vault.state === 'activated' ? 'electronic' : null;
  const enabled = choice === 'electronic' ? vault.electronicEnabled : choice === 'paper' ? vault.paperEnabled : false;
  const createdAt = Math.max(vault.employeeCreatedAt, type.createdAt);
  return {
    employee_document_type_id: type.id,
    employee_choice: choice,
    calculated_employee_choice: enabled ? choice : null,
    created_at: formatDateTime(createdAt),
    updated_at: formatDateTime(Math.max(createdAt, vault.updatedAt ?? 0)),
  };
}

/** An employee and their subscriptions on the wire (reference §3a.8, `EmployeeSubscriptionFull`). */
export function presentEmployeeSubscription({ vault, types }: SubscriptionsView): EmployeeSubscription {
  const { employee } = vault;
  return {
    id: employee.id,
    external_id: employee.externalId,
    firstname: employee.firstname,
    lastname: employee.lastname,
    email: employee.email,
    ...presentVaultOptions(vault),
    electronic_vault_activated: vault.state === 'activated',
    subscriptions: types.map((type) => subscriptionOf(vault, type)),
  };
}
