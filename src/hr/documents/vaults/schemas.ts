import { type Static, Type } from '@sinclair/typebox';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

/** Reference §3a.8 ("Document Manager: Electronic Vaults"; the employee actions of "Platform: Employees"). */

export const VAULT_STATES = ['activated', 'not_activated', 'not_available', 'pending_deletion', 'deleted'] as const;
export type VaultState = (typeof VAULT_STATES)[number];
export const PAYSLIPS_CHOICE_ORIGINS = ['mypeopledoc', 'peopledoc'] as const;

export { EmployeeParams } from '../../core/employees/schemas.js';

/** `ElectronicVaultOptionsBase`: the four options an HR user sets (the PATCH payload's fields). */
export const vaultOptionFields = {
  electronic_vault_subscription_enabled: Type.Boolean({
    description: 'Whether the employee may have a vault (default true); false shows the state `not_available`.',
  }),
  paper_documents_distribution_enabled: Type.Boolean({
    description: 'Whether the employee may receive paper documents (default true).',
  }),
  electronic_documents_distribution_enabled: Type.Boolean({
    description: 'Whether the employee may receive electronic documents (default true).',
  }),
  electronic_payslips_opted_out: Type.Boolean({
    description: 'Whether the employee opted out of electronic payslips (false when they made no choice).',
  }),
};

/** `ElectronicVaultFull`. */
export const ElectronicVault = Type.Object(
  {
    id: Type.String({ description: 'The employee id.' }),
    electronic_vault_id: Type.Union([Type.String(), Type.Null()], {
      description: 'The vault, once the employee activated it; null before and once it is deleted.',
    }),
    ...vaultOptionFields,
    electronic_vault_state: Type.Union(
      VAULT_STATES.map((state) => Type.Literal(state)),
      {
        description:
          'not_activated → activated (the employee accepts the invitation) → pending_deletion (unlinked) → deleted; `not_available` while the subscription is disabled.',
      },
    ),
    electronic_payslips_choice_updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    electronic_payslips_choice_origin: Type.Union(
      [...PAYSLIPS_CHOICE_ORIGINS.map((o) => Type.Literal(o)), Type.Null()],
      {
        description: '`peopledoc` when set through this API (the HR side), `mypeopledoc` by the employee.',
      },
    ),
  },
  { $id: 'ElectronicVaultFull', title: 'ElectronicVaultFull' },
);
export type ElectronicVault = Static<typeof ElectronicVault>;

/** `ElectronicVaultOptionsUpdatePayload`. */
export const ElectronicVaultOptionsUpdate = Type.Partial(Type.Object(vaultOptionFields), {
  additionalProperties: false,
  title: 'ElectronicVaultOptionsUpdatePayload',
});
export type ElectronicVaultOptionsUpdate = Static<typeof ElectronicVaultOptionsUpdate>;

/** `GET /electronic_vault_options`: every employee, in creation order. */
export const ElectronicVaultList = declareList('electronic_vault_options');
export const ElectronicVaultListQuery = Type.Object(
  {
    ...PaginationQuery,
    employees_ids: Type.Optional(
      Type.String({ minLength: 1, maxLength: 10_000, description: 'Comma-separated employee ids (at most 500).' }),
    ),
    electronic_vault_state: Type.Optional(
      Type.Union(
        VAULT_STATES.map((state) => Type.Literal(state)),
        { description: 'Only this state.' },
      ),
    ),
  },
  { additionalProperties: false },
);
export type ElectronicVaultListQuery = Static<typeof ElectronicVaultListQuery>;

/** `EmployeeElectronicVaultDocuments`: a document dropped into the employee's vault. */
export const ElectronicVaultDocument = Type.Object(
  {
    upload_id: Type.String({ format: 'uuid', description: 'The `id` of `POST /uploads` (used up).' }),
    document_type_id: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'An employee document type: the document is filed under it.',
    }),
    document_title: Type.String({ minLength: 1, maxLength: 255 }),
    document_date: Type.Optional(
      Type.String({ format: 'date', description: 'YYYY-MM-DD; default the day of the call. Orders the vault.' }),
    ),
    send_notification: Type.Optional(
      Type.Boolean({ default: true, description: 'Mail the employee that a document arrived (the outbox).' }),
    ),
  },
  { additionalProperties: false, title: 'EmployeeElectronicVaultDocuments' },
);
export type ElectronicVaultDocument = Static<typeof ElectronicVaultDocument>;
