import { type Static, Type } from '@sinclair/typebox';

/**
 * Form definitions in the `formidable` (DFForm) shape of reference §3d.9:
 * request forms carry one, and so do fill_form task templates. The answers to
 * a form (`form_data`) are checked against it by `./rules.ts`.
 */

export const Slug = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$',
  description: 'Letters, digits, `-` and `_`.',
});

/** Field types that take an answer. */
export const ANSWER_TYPES = [
  'checkbox',
  'checkboxes',
  'dropdown',
  'radios',
  'radiosButtons',
  'text',
  'paragraph',
  'file',
  'date',
  'email',
  'number',
  'dataset',
] as const;
/** Field types that only lay out the form: they take no answer. */
export const LAYOUT_TYPES = ['title', 'helpText', 'fieldset', 'fieldsetTable', 'separation'] as const;
export const FIELD_TYPES = [...LAYOUT_TYPES, ...ANSWER_TYPES] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const VALIDATION_TYPES = [
  'EQ',
  'GT',
  'GTE',
  'IS_AGE_ABOVE',
  'IS_AGE_UNDER',
  'IS_DATE_IN_THE_FUTURE',
  'IS_DATE_IN_THE_PAST',
  'LT',
  'LTE',
  'MAXLENGTH',
  'MINLENGTH',
  'NEQ',
  'REGEXP',
] as const;
export type ValidationType = (typeof VALIDATION_TYPES)[number];

export const ACCESS_LEVELS = ['REQUIRED', 'EDITABLE', 'HIDDEN', 'READONLY'] as const;

export const FormItem = Type.Object({
  label: Type.String({ maxLength: 500 }),
  value: Type.String({ minLength: 1, maxLength: 500 }),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
});

export const FieldValidation = Type.Object({
  type: Type.Union(VALIDATION_TYPES.map((t) => Type.Literal(t))),
  value: Type.Union([Type.String({ maxLength: 1000 }), Type.Number()], {
    description: 'The bound: a length, a number, a date (`YYYY-MM-DD`), an age in years or a regular expression.',
  }),
  message: Type.Optional(Type.String({ maxLength: 1000 })),
});
export type FieldValidation = Static<typeof FieldValidation>;

export const FieldAccess = Type.Object({
  access_id: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'Who the level applies to: `EMPLOYEE`, `MANAGER`, `API`, or a role id.',
  }),
  level: Type.Union(ACCESS_LEVELS.map((l) => Type.Literal(l))),
});

export const FormField = Type.Object({
  id: Type.Optional(Type.Integer({ description: 'Read-only: the field position, from 1. Ignored on input.' })),
  slug: Slug,
  label: Type.String({ maxLength: 500 }),
  type_id: Type.Union(FIELD_TYPES.map((t) => Type.Literal(t))),
  description: Type.String({ maxLength: 5000, default: '' }),
  accesses: Type.Array(FieldAccess, {
    maxItems: 50,
    default: [],
    description:
      'Access levels. A field is required when its `API` access (else its `EMPLOYEE` access) is `REQUIRED`, or when `required` is true.',
  }),
  required: Type.Optional(
    Type.Boolean({ description: 'Atrium shorthand for a `REQUIRED` access level, as in the contextual form.' }),
  ),
  placeholder: Type.Optional(Type.String({ maxLength: 500 })),
  multiple: Type.Optional(Type.Boolean({ description: 'More than one value (dropdown, file, text).' })),
  items: Type.Optional(Type.Array(FormItem, { maxItems: 500 })),
  validations: Type.Optional(Type.Array(FieldValidation, { maxItems: 20 })),
  defaults: Type.Optional(Type.Array(Type.String({ maxLength: 500 }), { maxItems: 100 })),
  dataset_id: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9_-]{1,100}$',
      description:
        'Atrium, on a `dataset` field: the dataset (`/datasets/{id}`) its answers are checked against. Without it, only their shape is checked.',
    }),
  ),
});
export type FormField = Static<typeof FormField>;

export const ConditionTest = Type.Object({
  field_id: Slug,
  operator: Type.Literal('eq'),
  values: Type.Array(Type.Union([Type.String({ maxLength: 500 }), Type.Number(), Type.Boolean()]), {
    minItems: 1,
    maxItems: 100,
  }),
});

export const FormCondition = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255 })),
  field_ids: Type.Array(Slug, { minItems: 1, maxItems: 200 }),
  action: Type.Literal('display_iff'),
  tests: Type.Array(ConditionTest, { minItems: 1, maxItems: 50 }),
});
export type FormCondition = Static<typeof FormCondition>;

export const FormDefinition = Type.Object(
  {
    id: Type.Optional(Type.Integer({ description: 'Read-only; ignored on input.' })),
    label: Type.Optional(Type.String({ maxLength: 500 })),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
    conditions: Type.Optional(Type.Array(FormCondition, { maxItems: 200 })),
    fields: Type.Array(FormField, { maxItems: 300 }),
  },
  {
    description:
      'A form in the `formidable` (DFForm) shape. `conditions` show fields only when every test matches (`display_iff`).',
  },
);
export type FormDefinition = Static<typeof FormDefinition>;

/** One answer: the field's slug and its values (see the rules per type in docs/hr-api.md). */
export const FormAnswer = Type.Object({
  field_id: Type.String({ minLength: 1, maxLength: 100 }),
  values: Type.Array(Type.Unknown(), { maxItems: 200 }),
});
export type FormAnswer = Static<typeof FormAnswer>;

export const FormData = Type.Array(FormAnswer, {
  maxItems: 300,
  description:
    'Answers, one per field. text, paragraph, email, date, radios, dropdown: strings; number: numbers; checkbox: booleans; checkboxes: item values; file: `{"upload_id": …}`; dataset: arrays of `{id, name, code}` nodes from root to leaf.',
});
