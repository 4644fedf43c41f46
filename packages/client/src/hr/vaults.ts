/** Electronic vaults (`/electronic_vault_options` and the vault actions of `/employees/{id}`) and subscriptions. */
import type { RequestOptions } from '../http.js';
import type {
  EmployeeSubscription,
  EmployeeSubscriptionListQuery,
  EmployeeSubscriptionQuery,
} from '../schemas/hr/documents/subscriptions.js';
import type {
  ElectronicVault,
  ElectronicVaultDocument,
  ElectronicVaultListQuery,
  ElectronicVaultOptionsUpdate,
} from '../schemas/hr/documents/vaults.js';
import { enc, type HrCore, type Id, type Verbs } from './core.js';

/** `hr.electronicVaults`. */
export function electronicVaults(core: HrCore, v: Verbs) {
  const path = '/electronic_vault_options';
  const action = (method: string, suffix: string) => async (id: Id, options?: RequestOptions) => {
    await core.json<undefined>(method, `/employees/${enc(id)}/${suffix}`, {}, options);
  };
  return {
    /** Every employee's vault (`employees_ids`, `electronic_vault_state`), in creation order. */
    list: v.list<ElectronicVault, ElectronicVaultListQuery>(path),
    /** An employee's vault (the id is the employee's). */
    retrieve: v.retrieve<ElectronicVault>(path),
    /** Changes an employee's vault options. */
    update: v.update<ElectronicVaultOptionsUpdate, ElectronicVault>(path),
    /** Mails the invitation (a follow-up when one was sent): the outbox. */
    invite: action('POST', 'electronic_vault_invite'),
    /** Atrium extension: the employee accepts the invitation; the vault is `activated`. */
    activate: (id: Id, options?: RequestOptions): Promise<ElectronicVault> =>
      core.json('POST', `/employees/${enc(id)}/electronic_vault_activate`, {}, options),
    /** Unlinks the vault: `pending_deletion`, then `deleted`. */
    unlink: action('DELETE', 'electronic_vault_link'),
    /** Drops an upload into the vault: it becomes an employee document. */
    addDocument: async (id: Id, body: ElectronicVaultDocument, options?: RequestOptions): Promise<void> => {
      await core.json<undefined>('POST', `/employees/${enc(id)}/electronic_vault_documents`, { body }, options);
    },
  };
}

/** `hr.employeeSubscriptions`. */
export function employeeSubscriptions(v: Verbs) {
  const path = '/employee_subscriptions';
  return {
    /** Every employee with one subscription per employee document type, up to 250 a page. */
    list: v.list<EmployeeSubscription, EmployeeSubscriptionListQuery>(path),
    /** One employee's subscriptions (`employee_document_type_id` keeps one). */
    retrieve: v.retrieve<EmployeeSubscription, EmployeeSubscriptionQuery>(path),
  };
}
