import { type Static, Type } from '@sinclair/typebox';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

export const CUSTOM_FIELD_TYPES = ['bool', 'string', 'list', 'int'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

const AuthorizedValue = Type.Object({
  value: Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'The stored value; for `list`, no comma. For `int`, an integer.',
  }),
  label: Type.String({ minLength: 1, maxLength: 255 }),
  code: Type.Optional(
    Type.Union([Type.String({ maxLength: 255 }), Type.Null()], {
      description: 'Code mapped to this value (int fields).',
    }),
  ),
});

export const LocalizedString = Type.Object({
  language_code: Type.String({
    pattern: '^[a-z]{2,3}(-[a-z0-9]{2,8})*$',
    description: 'BCP 47, lower case (`en-us`).',
  }),
  value: Type.String({ maxLength: 255 }),
});

const fields = {
  label: Type.String({ minLength: 1, maxLength: 255, description: 'Label shown on the employee profile.' }),
  type: Type.Union(
    CUSTOM_FIELD_TYPES.map((t) => Type.Literal(t)),
    { description: '`bool`, `string`, `list` or `int`. Cannot change once set.' },
  ),
  authorized_values: Type.Optional(
    Type.Array(AuthorizedValue, {
      maxItems: 10_000,
      description: 'Mandatory for `list` and `int`. On update, existing values stay; only their labels may change.',
    }),
  ),
  hierarchical: Type.Optional(Type.Boolean({ description: 'Only for `int`: values are ordered and can be compared.' })),
  default_value: Type.Optional(
    Type.Union([Type.String({ maxLength: 255 }), Type.Null()], {
      description: 'Value when none is given; for `list`/`int`, one of the authorized values.',
    }),
  ),
  localized_labels: Type.Optional(Type.Array(LocalizedString, { maxItems: 100 })),
  visible: Type.Optional(Type.Boolean({ description: 'false makes the field private.' })),
  allow_access_restrictions: Type.Optional(
    Type.Boolean({ description: 'The field can be used in perimeter filters.' }),
  ),
};

export const CustomFieldPut = Type.Object(fields);
export type CustomFieldPut = Static<typeof CustomFieldPut>;
export const CustomFieldPatch = Type.Partial(Type.Object(fields));
export type CustomFieldPatch = Static<typeof CustomFieldPatch>;

export const CustomField = Type.Object(
  {
    id: Type.String({ description: 'Client-chosen code, e.g. `department`.' }),
    label: Type.String(),
    type: Type.String({ description: '`bool`, `string`, `list` or `int`.' }),
    authorized_values: Type.Array(
      Type.Object({ value: Type.String(), label: Type.String(), code: Type.Union([Type.String(), Type.Null()]) }),
    ),
    hierarchical: Type.Boolean(),
    default_value: Type.Union([Type.String(), Type.Null()]),
    localized_labels: Type.Array(Type.Object({ language_code: Type.String(), value: Type.String() })),
    visible: Type.Boolean(),
    allow_access_restrictions: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'CustomFieldFull' },
);
export type CustomField = Static<typeof CustomField>;

export const CustomFieldParams = Type.Object({
  id: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,255}$', description: 'The custom field code.' }),
});

/** `GET /custom_fields`: in creation order. */
export const CustomFieldList = declareList('custom_fields');

export const CustomFieldListQuery = Type.Object({ ...PaginationQuery }, { additionalProperties: false });
