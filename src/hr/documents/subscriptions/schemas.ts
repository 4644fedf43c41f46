import { type Static, Type } from '@sinclair/typebox';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';
import { vaultOptionFields } from '../vaults/schemas.js';

/** Reference §3a.8 ("Platform: Employee Subscriptions"). */

export { EmployeeParams } from '../vaults/schemas.js';

const CHOICES = ['electronic', 'paper'] as const;
const Choice = (description: string) =>
  Type.Union([...CHOICES.map((c) => Type.Literal(c)), Type.Null()], { description });

/** `SubscriptionFull`: how the employee receives documents of one employee document type. */
export const Subscription = Type.Object(
  {
    employee_document_type_id: Type.String(),
    employee_choice: Choice(
      '`paper` for a payslip type when the employee opted out of electronic payslips, else `electronic` once they activated their vault, else null (no choice).',
    ),
    calculated_employee_choice: Choice(
      'The choice, or null when the chosen channel is disabled in the employee’s options (`*_documents_distribution_enabled`).',
    ),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'SubscriptionFull', title: 'SubscriptionFull' },
);
export type Subscription = Static<typeof Subscription>;

/** `EmployeeSubscriptionFull` = `EmployeeSimplified` + `ElectronicVaultOptionsBase` + the legacy flag + subscriptions. */
export const EmployeeSubscription = Type.Object(
  {
    id: Type.String(),
    external_id: Type.Union([Type.String(), Type.Null()]),
    firstname: Type.String(),
    lastname: Type.String(),
    email: Type.Union([Type.String(), Type.Null()]),
    ...vaultOptionFields,
    electronic_vault_activated: Type.Boolean({ description: 'Legacy: the vault state is `activated`.' }),
    subscriptions: Type.Array(Type.Ref(Subscription), {
      description: 'One per employee document type of the client, in creation order.',
    }),
  },
  { $id: 'EmployeeSubscriptionFull', title: 'EmployeeSubscriptionFull' },
);
export type EmployeeSubscription = Static<typeof EmployeeSubscription>;

const documentTypeFilter = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'Only the subscription to this employee document type (400 when the client has no such type).',
  }),
);

/** `GET /employee_subscriptions`: every employee, in creation order, up to 250 a page. */
export const EmployeeSubscriptionList = declareList('employee_subscriptions');
export const EmployeeSubscriptionListQuery = Type.Object(
  {
    per_page: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 250,
        default: 20,
        description:
          'Items per page (default 20, at most 250: a larger value is served as 250, or refused with ATRIUM_STRICT=1).',
      }),
    ),
    cursor: PaginationQuery.cursor,
    external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Exact.' })),
    electronic_vault_activated: Type.Optional(Type.Boolean()),
    electronic_payslips_opted_out: Type.Optional(Type.Boolean()),
    employee_document_type_id: documentTypeFilter,
  },
  { additionalProperties: false },
);
export type EmployeeSubscriptionListQuery = Static<typeof EmployeeSubscriptionListQuery>;

export const EmployeeSubscriptionQuery = Type.Object(
  { employee_document_type_id: documentTypeFilter },
  { additionalProperties: false },
);
export type EmployeeSubscriptionQuery = Static<typeof EmployeeSubscriptionQuery>;
