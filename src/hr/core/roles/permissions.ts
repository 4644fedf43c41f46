/**
 * The permission documents a role carries (reference §3g.2 and §3c.6): every
 * permission is a boolean, grouped by module. The names, which of them a PUT
 * must send, and which permission needs another one, are the reference's.
 */

export const PERMISSION_MODULES = ['core', 'efm', 'audit', 'webhook'] as const;
export type PermissionModule = (typeof PERMISSION_MODULES)[number];

/** `CorePermissionsBase`: every one is required in a PUT. */
export const CORE_REQUIRED = [
  'view_employees',
  'view_former_employees',
  'view_employees_without_registration_reference',
  'manage_employees',
  'manage_employees_saml_token',
  'delete_employees',
  'export_employee_csv',
  'manage_employee_imports',
  'manage_custom_fields',
  'manage_users',
  'manage_roles',
  'manage_organizations',
  'manage_datasets',
  'view_advanced_analytics',
  'manage_advanced_analytics',
  'view_audit_trail',
  'view_private_custom_fields',
] as const;

/** Optional in a PUT (false when left out). `manage_retention_policies` is only returned by GET. */
export const CORE_OPTIONAL = ['manage_organization_imports', 'manage_retention_policies'] as const;

/** `EFMPermissionsBase` (Document Manager). */
export const EFM_PERMISSIONS = [
  'manage_settings',
  'view_statistics',
  'manage_document_types_and_folder',
  'create_distribution',
  'manage_distributions',
  'manage_mass_mailings',
  'manage_document_deposit',
  'view_employee_documents',
  'view_company_documents',
  'manage_document_deletion',
  'manage_expired_deletion',
  'generate_documents',
  'manage_document_templates',
  'manage_shared_folders',
  'create_signatures',
  'manage_signatures',
  'manage_legal_holds',
  'manage_third_party_apps',
  'manage_export_invitation_codes',
  'manage_rpa',
] as const;

export const AUDIT_PERMISSIONS = ['view_events'] as const;
export const WEBHOOK_PERMISSIONS = ['manage_webhooks'] as const;

export type CorePermission = (typeof CORE_REQUIRED)[number] | (typeof CORE_OPTIONAL)[number];
export type EfmPermission = (typeof EFM_PERMISSIONS)[number];

/** Every permission name of each module. */
export const MODULE_PERMISSIONS: Record<PermissionModule, readonly string[]> = {
  core: [...CORE_REQUIRED, ...CORE_OPTIONAL],
  efm: EFM_PERMISSIONS,
  audit: AUDIT_PERMISSIONS,
  webhook: WEBHOOK_PERMISSIONS,
};

/** A permission that may only be granted with another one ("needs view_employees"). */
export const PERMISSION_PREREQUISITES: Partial<Record<PermissionModule, Record<string, string>>> = {
  core: {
    view_former_employees: 'view_employees',
    manage_employees: 'view_employees',
    manage_advanced_analytics: 'view_advanced_analytics',
    manage_organization_imports: 'manage_organizations',
  },
};

/** Descriptions for the OpenAPI document. */
export const PERMISSION_DESCRIPTIONS: Record<string, string> = {
  view_employees: 'View employee profiles in the perimeter.',
  view_former_employees: 'View former employees (needs view_employees).',
  view_employees_without_registration_reference: 'View employees that have no registration reference.',
  manage_employees: 'Create and update employees (needs view_employees).',
  manage_employees_saml_token: "Manage employees' SAML tokens.",
  delete_employees: 'Delete employees.',
  export_employee_csv: 'Export employees as CSV.',
  manage_employee_imports: 'Run employee imports.',
  manage_custom_fields: 'Manage custom fields.',
  manage_users: 'Manage HR users.',
  manage_roles: 'Manage roles.',
  manage_organizations: 'Manage organizations.',
  manage_datasets: 'Manage datasets.',
  view_advanced_analytics: 'View advanced analytics.',
  manage_advanced_analytics: 'Manage advanced analytics (needs view_advanced_analytics).',
  view_audit_trail: 'View the audit trail.',
  view_private_custom_fields: 'View private custom fields.',
  manage_organization_imports: 'Run organization imports (needs manage_organizations). Optional; false when left out.',
  manage_retention_policies: 'Manage retention policies. Optional; false when left out.',
  manage_settings: 'Manage Document Manager settings.',
  view_statistics: 'View Document Manager statistics.',
  manage_document_types_and_folder: 'Manage document types and folders.',
  create_distribution: 'Create distributions.',
  manage_distributions: 'Manage distributions.',
  manage_mass_mailings: 'Manage mass mailings.',
  manage_document_deposit: 'Deposit (upload) documents.',
  view_employee_documents: 'View employee documents.',
  view_company_documents: 'View company documents.',
  manage_document_deletion: 'Delete documents.',
  manage_expired_deletion: 'Delete expired documents.',
  generate_documents: 'Generate documents.',
  manage_document_templates: 'Manage document templates.',
  manage_shared_folders: 'Manage shared folders.',
  create_signatures: 'Create signature processes.',
  manage_signatures: 'Manage signature processes.',
  manage_legal_holds: 'Manage legal holds.',
  manage_third_party_apps: 'Manage third-party applications.',
  manage_export_invitation_codes: 'Manage export invitation codes.',
  manage_rpa: 'Manage RPA.',
  view_events: 'View audit events.',
  manage_webhooks: 'Manage webhooks.',
};

/**
 * The per-document-type permission values of `user_access_permissions`
 * (reference §3c.4), and the actions other services ask about.
 */
export const DOCUMENT_PERMISSIONS = [
  'preview',
  'dl_original',
  'dl_duplicate',
  'upload_and_update',
  'update',
  'share',
  'delete',
  'view_expired',
] as const;
export type DocumentPermission = (typeof DOCUMENT_PERMISSIONS)[number];

export type DocumentAction = 'view' | 'upload' | 'update' | 'share' | 'delete';

/** Which per-type permission values allow each action (any one of them suffices). */
export const DOCUMENT_ACTION_PERMISSIONS: Record<DocumentAction, readonly DocumentPermission[]> = {
  view: ['preview', 'dl_original', 'dl_duplicate'],
  upload: ['upload_and_update'],
  update: ['update', 'upload_and_update'],
  share: ['share'],
  delete: ['delete'],
};
