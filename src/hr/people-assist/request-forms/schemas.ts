import { type Static, Type } from '@sinclair/typebox';
import { FormDefinition, Slug } from '../../core/forms/schemas.js';
import { EmployeesPerimeterInput } from '../../core/perimeters/schemas.js';
import { declareSortedList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';
import { SortQuery } from '../../lists/sort.js';

export const RequestFormId = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[a-z0-9][a-z0-9_-]*$',
  description: 'The form slug (`my-form`). The reference types it integer but uses slugs everywhere.',
});

const flag = (description: string) => Type.Boolean({ description });

/** The settings of a form that PATCH changes (`RequestFormPatch`), each with its default at creation. */
const settingFields = {
  keywords: Type.String({ maxLength: 2000, description: 'Words the form search matches.' }),
  featured: flag('Shown first on the employee portal.'),
  success_message: Type.String({ maxLength: 5000, description: 'Shown after the request is sent.' }),
  visible_by_employee: flag('Employees may use the form (default true).'),
  visible_by_user: flag('HR users may use the form (default true).'),
  request_editable_by_employee: flag('Employees may change answers after creation (default false).'),
  request_editable_by_user: flag('HR users and the API may change answers after creation (default true).'),
  employee_organization_mandatory: flag(
    'A request must concern an employee or an organization, among what the form is linkeable to (default true).',
  ),
  linkeable_to_employee: flag('A request may concern an employee (default true).'),
  linkeable_to_organization: flag('A request may concern an organization (default false).'),
  due_date_visible_by_employee: flag('Default false.'),
  custom_status_visible_by_employee: flag('Default false: `custom_status` reads null for the employee.'),
  enable_employee_feedback: flag('Default false.'),
};

export const SETTING_DEFAULTS = {
  keywords: '',
  featured: false,
  success_message: '',
  visible_by_employee: true,
  visible_by_user: true,
  request_editable_by_employee: false,
  request_editable_by_user: true,
  employee_organization_mandatory: true,
  linkeable_to_employee: true,
  linkeable_to_organization: false,
  due_date_visible_by_employee: false,
  custom_status_visible_by_employee: false,
  enable_employee_feedback: false,
};

const RoleRef = Type.Object({ id: Type.String({ minLength: 1, maxLength: 255 }), name: Type.Optional(Type.String()) });

const writableFields = {
  ...settingFields,
  category_id: Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'The knowledge-base category (`/kb_categories` id) the form belongs to. Required to create.',
  }),
  language_code: Type.String({ pattern: '^[a-z]{2,3}(-[a-z0-9]{2,8})*$', description: 'Default `en-us`.' }),
  is_default: flag('The default form of its category: setting it unsets the previous default.'),
  employee_restrictions: Type.Array(EmployeesPerimeterInput('Employees who may use the form.'), {
    maxItems: 100,
    description: 'Employees who may use the form; empty: every employee.',
  }),
  user_restrictions: Type.Object(
    { roles: Type.Array(RoleRef, { maxItems: 100 }) },
    { description: 'Roles who may use it; empty: every role.' },
  ),
  form_group_id: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
    description: 'Multilingual group; null: none.',
  }),
  is_default_language: Type.Union([Type.Boolean(), Type.Null()]),
};

/** `RequestFormPut`: replaces the form, or creates it at the slug. */
export const RequestFormPut = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  ...Type.Partial(Type.Object(writableFields)).properties,
  formidable: FormDefinition,
  form_definition: Type.Optional(Type.Unknown({ description: 'Read-only; ignored on input.' })),
  never_visible_by_employee: Type.Optional(
    Type.Boolean({ description: 'Accepted and ignored (it is in the reference example only).' }),
  ),
});
export type RequestFormPut = Static<typeof RequestFormPut>;

/** `RequestFormPatch` (+ `category_id`, the reference's `RequestFormPatchUser`). */
export const RequestFormPatch = Type.Partial(
  Type.Object({ ...settingFields, category_id: writableFields.category_id }),
);
export type RequestFormPatch = Static<typeof RequestFormPatch>;

const ContextField = Type.Object({
  slug: Slug,
  label: Type.String(),
  type_id: Type.String({ description: 'The contextual spelling: `help_text`, `radios_buttons`, `separator`, …' }),
  description: Type.String(),
  disabled: Type.Boolean(),
  required: Type.Boolean(),
  placeholder: Type.Optional(Type.String()),
  multiple: Type.Optional(Type.Boolean()),
  items: Type.Optional(
    Type.Array(Type.Object({ label: Type.String(), value: Type.String(), description: Type.Optional(Type.String()) })),
  ),
  validations: Type.Optional(
    Type.Array(
      Type.Object({
        type: Type.String(),
        value: Type.Union([Type.String(), Type.Number()]),
        message: Type.Optional(Type.String()),
      }),
    ),
  ),
  defaults: Type.Optional(Type.Array(Type.String())),
});

export const RequestForm = Type.Object(
  {
    id: Type.String({ description: 'The slug.' }),
    name: Type.String(),
    is_default: Type.Boolean(),
    category_id: Type.String(),
    language_code: Type.String(),
    ...settingFields,
    employee_restrictions: writableFields.employee_restrictions,
    user_restrictions: writableFields.user_restrictions,
    form_group_id: writableFields.form_group_id,
    is_default_language: writableFields.is_default_language,
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    formidable: FormDefinition,
    form_definition: Type.Object(
      {
        id: Type.Integer(),
        label: Type.String(),
        description: Type.String(),
        conditions: Type.Array(Type.Unknown()),
        fields: Type.Array(ContextField),
      },
      { description: 'The form as the API answers it (read-only; `fields` is a list).' },
    ),
  },
  { $id: 'RequestFormFull', title: 'RequestFormFull' },
);
export type RequestForm = Static<typeof RequestForm>;

export const RequestFormParams = Type.Object({ id: RequestFormId });

export const REQUEST_FORM_SORT_FIELDS = ['title', 'last_hits'] as const;

/** `GET /request_forms`: sorted by `sort`, default `+title` (the name). */
export const RequestFormList = declareSortedList('request_forms', REQUEST_FORM_SORT_FIELDS, '+title');

const listFilters = {
  category_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Category id.' })),
  is_default: Type.Optional(Type.Boolean()),
  language_code: Type.Optional(Type.String({ minLength: 2, maxLength: 20 })),
  featured: Type.Optional(Type.Boolean()),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Name or keywords; needs `language_code` (400 without).',
    }),
  ),
  employee_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'Only forms this employee may use.' }),
  ),
  f: Type.Optional(Type.Literal('1', { description: 'FaaS format; Atrium forms are local, so it changes nothing.' })),
};

export const RequestFormListQuery = Type.Object(
  { ...PaginationQuery, ...listFilters, sort: SortQuery(RequestFormList.sortFields, RequestFormList.defaultSort) },
  { additionalProperties: false },
);
export type RequestFormListQuery = Static<typeof RequestFormListQuery>;
export const RequestFormCountQuery = Type.Object(listFilters, { additionalProperties: false });
export type RequestFormCountQuery = Static<typeof RequestFormCountQuery>;
export const RequestFormGetQuery = Type.Object({ f: listFilters.f }, { additionalProperties: false });

/** `POST /request_forms/{slug}/change_group_category`. */
export const ChangeGroupCategory = Type.Object(
  {
    category_slug: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'The knowledge-base category (`/kb_categories` id) every form of the group moves to.',
    }),
  },
  { additionalProperties: false },
);
export type ChangeGroupCategory = Static<typeof ChangeGroupCategory>;

/** The 400 and 403 of `change_group_category`: the HR error body plus the reference's `detail`. */
export const DetailError = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
    detail: Type.Optional(Type.String({ description: 'The reference’s `{detail}`: the same text as `message`.' })),
    errors: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), code: Type.String(), message: Type.String() })),
    ),
  },
  { $id: 'HrDetailError', title: 'HrDetailError' },
);
