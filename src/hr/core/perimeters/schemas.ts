import { Type } from '@sinclair/typebox';

/** A string restricted to a list of values, shown as an enum in the OpenAPI document. */
const Enum = <const T extends readonly string[]>(values: T, description: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description });

/** Optional text that may also be sent as null to clear it. */
const OptText = (options: { minLength?: number; maxLength: number }, description: string) =>
  Type.Optional(Type.Union([Type.String(options), Type.Null()], { description }));

const Nullable = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const PERIMETER_OPERATORS = ['=', '<='] as const;
export const FILTER_OPERATORS = ['=', '!=', '<=', '<', '>=', '>'] as const;

/** `CustomFieldFilterRule`. */
export const CustomFieldFilterRule = Type.Object({
  custom_field_id: Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'Code of a custom field of the client that allows access restrictions.',
  }),
  operator: Enum(
    FILTER_OPERATORS,
    'Comparison with the employee value. `<`, `<=`, `>`, `>=` only on hierarchical `int` fields.',
  ),
  value: Type.String({
    maxLength: 255,
    description:
      'Always a string: the text, the integer, or `true`/`false`; for `list` and `int`, an authorized value.',
  }),
});

/** `EmployeesPerimeterBase` as sent, described for the resource that uses it. */
export const EmployeesPerimeterInput = (description: string) =>
  Type.Object(
    {
      operator: Enum(
        PERIMETER_OPERATORS,
        'With organization_id, `=` is that organization only and `<=` includes its descendants. Must be `=` with organization_group_id.',
      ),
      organization_id: OptText(
        { minLength: 1, maxLength: 255 },
        'Code of an organization of the client. Left out or null: every organization.',
      ),
      organization_group_id: OptText(
        { minLength: 1, maxLength: 255 },
        'Code of an organization group of the client (instead of organization_id).',
      ),
      custom_field_filters: Type.Array(CustomFieldFilterRule, {
        maxItems: 100,
        description: 'Rules on the same custom field are OR-ed; rules on different fields are AND-ed. May be empty.',
      }),
    },
    { description },
  );

const CustomFieldFilterOut = Type.Object({
  custom_field_id: Type.String({ description: 'Code of the custom field.' }),
  operator: Type.String({ description: 'One of `=`, `!=`, `<=`, `<`, `>=`, `>`.' }),
  value: Type.String({ description: 'The value compared with the employee value.' }),
});

/** `EmployeesPerimeterBase` as answered, described for the resource that uses it. */
export const EmployeesPerimeterOutput = (description: string) =>
  Type.Object(
    {
      operator: Type.String({ description: '`=` or `<=` (the organization and its descendants).' }),
      organization_id: Nullable('Code of the organization, or null.'),
      organization_group_id: Nullable('Code of the organization group, or null.'),
      custom_field_filters: Type.Array(CustomFieldFilterOut, { description: 'Rules on custom fields.' }),
    },
    { description },
  );
