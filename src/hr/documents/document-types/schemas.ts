import { type Static, Type } from '@sinclair/typebox';
import { CommaListSchema } from '../../../platform/lists.js';
import { LocalizedString } from '../../core/custom-fields/schemas.js';
import { DOCUMENT_PERMISSIONS } from '../../core/roles/permissions.js';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

export const DocumentTypeId = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[^/?#]+$',
  description: 'The document type code, chosen by the client.',
});

export const EMPLOYEE_ACCESS_PERMISSIONS = ['preview', 'dl_original', 'dl_duplicate', 'upload'] as const;

const Codes = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 100, description });

/** `MetaDataDefinition`: a metadata field documents of the type carry. */
export const MetaDataDefinition = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 255, description: 'Unique friendly id.' }),
  type: Type.Union([Type.Literal('int'), Type.Literal('date'), Type.Literal('text'), Type.Literal('list')]),
  authorized_values: Type.Optional(Codes('The values a `list` field accepts.')),
  label: Type.Optional(Type.String({ maxLength: 255, description: 'In the default language.' })),
  localized_labels: Type.Array(LocalizedString, { maxItems: 100 }),
  is_required: Type.Boolean({ default: false, description: 'Mandatory at upload.' }),
});
export type MetaDataDefinition = Static<typeof MetaDataDefinition>;

export const UserAccessPermissions = Type.Object({
  role_id: Type.String({ minLength: 1, maxLength: 255, description: 'A role (`/roles`).' }),
  permissions: Type.Array(Type.Union(DOCUMENT_PERMISSIONS.map((p) => Type.Literal(p))), {
    uniqueItems: true,
    maxItems: DOCUMENT_PERMISSIONS.length,
    description: 'What users with this role may do with documents of the type.',
  }),
});
export type UserAccessPermissions = Static<typeof UserAccessPermissions>;

const common = {
  label: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'In the default language. Set at creation; a later PUT or PATCH does not change it.',
    }),
  ),
  localized_labels: Type.Array(LocalizedString, { minItems: 1, maxItems: 100 }),
  folder_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Folder where documents of this type are filed (default: the `default` folder).',
    }),
  ),
  file_type_restrictions: Type.Optional(
    Type.Array(Type.String({ pattern: '^[a-z0-9]{1,10}$' }), {
      maxItems: 50,
      uniqueItems: true,
      description: 'Allowed file extensions, lower case (`pdf`, `docx`); empty or absent allows any.',
    }),
  ),
  metadata: Type.Optional(Type.Array(MetaDataDefinition, { maxItems: 100 })),
  user_access_permissions: Type.Optional(Type.Array(UserAccessPermissions, { maxItems: 100 })),
};

const employeeFields = {
  ...common,
  update_documents_on_employee_transfer: Type.Optional(
    Type.Union([Type.Literal('add'), Type.Literal('do_nothing'), Type.Literal('replace')], {
      default: 'add',
      description: 'What happens to document organizations when the employee changes organization.',
    }),
  ),
  policies: Type.Optional(Codes('Expiry policy ids, such as `payslip_policy_fr`.')),
  employee_access_permissions: Type.Optional(
    Type.Array(Type.Union(EMPLOYEE_ACCESS_PERMISSIONS.map((p) => Type.Literal(p))), {
      uniqueItems: true,
      maxItems: EMPLOYEE_ACCESS_PERMISSIONS.length,
      description: 'What the employee may do with documents of this type in their own space.',
    }),
  ),
  templates: Type.Optional(Codes('Linked document-generation template ids.')),
  synchronized_custom_fields: Type.Optional(
    Codes('Custom field codes used for access restriction, kept in sync with the employee profile.'),
  ),
};

const ExpiryDatePolicyOptions = Type.Object({
  metadata: Type.Optional(Type.String({ maxLength: 255, description: 'A metadata code (`document_metadata`).' })),
  years: Type.Optional(Type.Integer({ minimum: 0, maximum: 50 })),
  months: Type.Optional(Type.Integer({ minimum: 0, maximum: 11 })),
  days: Type.Optional(Type.Integer({ minimum: 0, maximum: 25 })),
  date: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD (`specific_date`).' })),
});

const companyFields = {
  ...common,
  expiry_date_policy_type: Type.Optional(
    Type.Union([
      Type.Literal('specific_date'),
      Type.Literal('document_upload_date'),
      Type.Literal('document_metadata'),
      Type.Literal('no_limit'),
    ]),
  ),
  expiry_date_policy_options: Type.Optional(ExpiryDatePolicyOptions),
};

export const EmployeeDocumentTypeInput = Type.Object(employeeFields, { additionalProperties: false });
export const EmployeeDocumentTypePatch = Type.Object(
  {
    ...Type.Partial(Type.Object(employeeFields)).properties,
    add_templates: Type.Optional(Codes('Template ids to link.')),
    remove_templates: Type.Optional(Codes('Template ids to unlink.')),
  },
  { additionalProperties: false },
);
export const CompanyDocumentTypeInput = Type.Object(companyFields, { additionalProperties: false });
export const CompanyDocumentTypePatch = Type.Partial(Type.Object(companyFields), { additionalProperties: false });

/** Every attribute a type may carry, of either kind (what the service reads and stores). */
export type DocumentTypeInput = Partial<Static<typeof EmployeeDocumentTypeInput>> &
  Partial<Static<typeof CompanyDocumentTypeInput>> & { add_templates?: string[]; remove_templates?: string[] };

/** `MetaDataDefinition` as answered: every field sent, `null` when empty. */
const MetaDataDefinitionOut = Type.Object({
  code: Type.String(),
  type: Type.Union([Type.Literal('int'), Type.Literal('date'), Type.Literal('text'), Type.Literal('list')]),
  authorized_values: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description: 'The values a `list` field accepts; null when none were given.',
  }),
  label: Type.Union([Type.String(), Type.Null()], { description: 'In the default language; null when not given.' }),
  localized_labels: Type.Array(LocalizedString),
  is_required: Type.Boolean({ description: 'Mandatory at upload.' }),
});
export type MetaDataDefinitionOut = Static<typeof MetaDataDefinitionOut>;

const fullFields = {
  id: DocumentTypeId,
  label: Type.String({ description: 'In the default language.' }),
  folder_id: Type.String({ description: 'Folder where documents of this type are filed.' }),
  metadata: Type.Optional(Type.Array(MetaDataDefinitionOut)),
};

export const EmployeeDocumentType = Type.Object(
  { ...employeeFields, ...fullFields },
  { $id: 'EmployeeDocumentTypeFull', title: 'EmployeeDocumentTypeFull' },
);
export const CompanyDocumentType = Type.Object(
  {
    ...companyFields,
    ...fullFields,
    expiry_date_policy_options: Type.Union([ExpiryDatePolicyOptions, Type.Null()], {
      description: 'Null when the policy type needs no options.',
    }),
  },
  { $id: 'CompanyDocumentTypeFull', title: 'CompanyDocumentTypeFull' },
);
/** A type of either kind, as presented (the attributes of the other kind are simply absent). */
export type DocumentTypeFull = Static<typeof EmployeeDocumentType> & Static<typeof CompanyDocumentType>;
/** A type of either kind, as stored and checked (the attributes of the other kind are simply absent). */
export type DocumentTypeAttributes = Static<typeof EmployeeDocumentTypeInput> & Static<typeof CompanyDocumentTypeInput>;

const listFields = {
  ...PaginationQuery,
  folder_id: Type.Optional(Type.String({ maxLength: 255, description: 'Types filed in this folder.' })),
  with_mandatory_metadata: Type.Optional(
    Type.Boolean({ description: 'true: at least one mandatory metadata; false: none.' }),
  ),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Part of the type name, any language.' })),
};

/** `GET /{employee|company}_document_types`: in creation order, one list per kind. */
export const DOCUMENT_TYPE_LISTS = {
  employee: declareList('employee_document_types'),
  company: declareList('company_document_types'),
};

export const EmployeeDocumentTypeListQuery = Type.Object(
  {
    ...listFields,
    employee_access_permissions: Type.Optional(
      CommaListSchema(EMPLOYEE_ACCESS_PERMISSIONS, {
        maxLength: 255,
        description: 'Comma-separated; types granting every one (`preview,dl_original`).',
      }),
    ),
    with_document_templates: Type.Optional(Type.Boolean({ description: 'Types with (or without) linked templates.' })),
    document_template_id: Type.Optional(Type.String({ maxLength: 255, description: 'Types linked to this template.' })),
  },
  { additionalProperties: false },
);
export const CompanyDocumentTypeListQuery = Type.Object(listFields, { additionalProperties: false });
export type DocumentTypeListQuery = Partial<Static<typeof EmployeeDocumentTypeListQuery>>;

export const DocumentTypeParams = Type.Object({ id: DocumentTypeId });
