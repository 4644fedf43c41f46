import { type Static, type TBoolean, type TOptional, Type } from '@sinclair/typebox';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';
import {
  AUDIT_PERMISSIONS,
  CORE_REQUIRED,
  EFM_PERMISSIONS,
  PERMISSION_DESCRIPTIONS,
  WEBHOOK_PERMISSIONS,
} from './permissions.js';

export const RoleId = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[A-Za-z0-9_-]+$',
  description: 'The role code, chosen by the client: letters, digits, `_` and `-` (e.g. `payroll-manager`).',
});

/** `RoleCreatePayload`: the body of PUT /roles/{id}; `id` is repeated in the body, as the reference asks. */
export const RolePut = Type.Object({
  id: RoleId,
  name: Type.String({ minLength: 1, maxLength: 255, description: 'Display name, e.g. `Payroll Manager`.' }),
  description: Type.Optional(
    Type.Union([Type.String({ maxLength: 1000 }), Type.Null()], {
      description: 'Free text (at most 1000 characters); left out or null clears it.',
    }),
  ),
});
export type RolePut = Static<typeof RolePut>;

export const Role = Type.Object(
  {
    id: Type.String({ description: 'The role code.' }),
    name: Type.String({ description: 'Display name.' }),
    description: Type.Union([Type.String(), Type.Null()], { description: 'Free text, or null.' }),
    created_at: Type.String({ format: 'date-time', description: 'When the role was created.' }),
    updated_at: Type.String({ format: 'date-time', description: 'When the role was last changed.' }),
  },
  { $id: 'RoleFull', title: 'RoleFull' },
);
export type Role = Static<typeof Role>;

/** `GET /roles`: in creation order. */
export const RoleList = declareList('roles');

export const RoleListQuery = Type.Object({ ...PaginationQuery }, { additionalProperties: false });
export type RoleListQuery = Static<typeof RoleListQuery>;

export const RoleParams = Type.Object({ id: RoleId });
export const RolePermissionParams = Type.Object({ role_id: RoleId });

type Flags<N extends string> = { [K in N]: TBoolean };

function flags<const N extends readonly string[]>(names: N): Flags<N[number]> {
  return Object.fromEntries(
    names.map((n) => [n, Type.Boolean({ description: PERMISSION_DESCRIPTIONS[n] ?? n })]),
  ) as Flags<N[number]>;
}

const roleIdField = { role_id: Type.String({ description: 'The role these permissions belong to.' }) };

const manageOrganizationImports = Type.Boolean({ description: PERMISSION_DESCRIPTIONS.manage_organization_imports });
const manageRetentionPolicies = Type.Boolean({ description: PERMISSION_DESCRIPTIONS.manage_retention_policies });

/** `CorePermissionsPut`: `CorePermissionsBase` plus `manage_retention_policies`. */
export const CorePermissionsPut = Type.Object({
  ...flags(CORE_REQUIRED),
  manage_organization_imports: Type.Optional(manageOrganizationImports) as TOptional<TBoolean>,
  manage_retention_policies: Type.Optional(manageRetentionPolicies) as TOptional<TBoolean>,
});
export type CorePermissionsPut = Static<typeof CorePermissionsPut>;

/** `CorePermissionsFull`: the answer of PUT. */
export const CorePermissionsFull = Type.Object(
  { ...roleIdField, ...flags(CORE_REQUIRED), manage_organization_imports: manageOrganizationImports },
  { title: 'CorePermissionsFull' },
);
export type CorePermissionsFull = Static<typeof CorePermissionsFull>;

/** `CorePermissionsGet`: the answer of GET, with `manage_retention_policies`. */
export const CorePermissionsGet = Type.Object(
  {
    ...roleIdField,
    ...flags(CORE_REQUIRED),
    manage_organization_imports: manageOrganizationImports,
    manage_retention_policies: manageRetentionPolicies,
  },
  { title: 'CorePermissionsGet' },
);
export type CorePermissionsGet = Static<typeof CorePermissionsGet>;

/** `EFMPermissionsBase`: Document Manager permissions. */
export const EfmPermissionsPut = Type.Object(flags(EFM_PERMISSIONS));
export type EfmPermissionsPut = Static<typeof EfmPermissionsPut>;
export const EfmPermissionsFull = Type.Object(
  { ...roleIdField, ...flags(EFM_PERMISSIONS) },
  { title: 'EFMPermissionsFull' },
);
export type EfmPermissionsFull = Static<typeof EfmPermissionsFull>;

export const AuditPermissionsPut = Type.Object(flags(AUDIT_PERMISSIONS));
export type AuditPermissionsPut = Static<typeof AuditPermissionsPut>;
export const AuditPermissionsFull = Type.Object(
  { ...roleIdField, ...flags(AUDIT_PERMISSIONS) },
  { title: 'AuditPermissionsFull' },
);
export type AuditPermissionsFull = Static<typeof AuditPermissionsFull>;

export const WebhookPermissionsPut = Type.Object(flags(WEBHOOK_PERMISSIONS));
export type WebhookPermissionsPut = Static<typeof WebhookPermissionsPut>;
export const WebhookPermissionsFull = Type.Object(
  { ...roleIdField, ...flags(WEBHOOK_PERMISSIONS) },
  { title: 'WebhookPermissionsFull' },
);
export type WebhookPermissionsFull = Static<typeof WebhookPermissionsFull>;
