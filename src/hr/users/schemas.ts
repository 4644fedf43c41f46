import { type Static, Type } from '@sinclair/typebox';
import { PaginationQuery } from '../pagination/pagination.js';

/** A string restricted to a list of values, shown as an enum in the OpenAPI document. */
const Enum = <const T extends readonly string[]>(values: T, description: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description });

/** Optional text that may also be sent as null to clear it. */
const OptText = (options: { minLength?: number; maxLength: number; pattern?: string }, description: string) =>
  Type.Optional(Type.Union([Type.String(options), Type.Null()], { description }));

const Nullable = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const PERIMETER_OPERATORS = ['=', '<='] as const;
export const FILTER_OPERATORS = ['=', '!=', '<=', '<', '>=', '>'] as const;

/** `CustomFieldFilterRule`. */
const CustomFieldFilterRule = Type.Object({
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

/** `EmployeesPerimeterBase`: which employees a profile covers. */
const EmployeesPerimeter = Type.Object(
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
  { description: 'The employees this profile covers (`EmployeesPerimeterBase`).' },
);

const roleIdField = Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'Code of a role of the client (the permissions this profile grants).',
});

/** `ProfileBase`: a role on a perimeter. */
const ProfileBase = Type.Object({ role_id: roleIdField, employees_perimeter: EmployeesPerimeter });

/** `ProfileUpdateParams`: with `id`, keeps and updates that profile; without, adds one. */
const ProfileUpdate = Type.Object({
  id: Type.Optional(
    Type.String({
      format: 'uuid',
      description: 'Id of an existing profile of this user to keep and update; left out to add a new profile.',
    }),
  ),
  role_id: roleIdField,
  employees_perimeter: EmployeesPerimeter,
});

const userFields = {
  external_id: OptText(
    { minLength: 1, maxLength: 50 },
    "The user's id in the client's systems; unique per client (at most 50 characters).",
  ),
  firstname: Type.String({ minLength: 1, maxLength: 70, description: 'First name (at most 70 characters).' }),
  lastname: Type.String({ minLength: 1, maxLength: 70, description: 'Last name (at most 70 characters).' }),
  middlename: OptText({ maxLength: 70 }, 'Middle name (at most 70 characters).'),
  email: Type.String({
    format: 'email',
    maxLength: 254,
    description: 'Email address, ASCII only (at most 254 characters); unique per client, ignoring case.',
  }),
  language: OptText(
    { pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$', maxLength: 35 },
    'IETF BCP 47 language tag, stored in lower case (`en-us`, `fr-fr`).',
  ),
  timezone: OptText({ minLength: 1, maxLength: 64 }, 'IANA time zone, `Area/Location` (`Europe/Paris`).'),
  mobile_phone_number: OptText(
    { maxLength: 64 },
    'Free format; the international form with `00` is recommended (`0033674564532`).',
  ),
  saml_token: OptText(
    { minLength: 1, maxLength: 255 },
    'Only for SSO. Write-only: never returned. Left out, the stored token is kept; null removes it.',
  ),
};

/** `UserCreatePayload`. */
export const UserCreate = Type.Object({
  ...userFields,
  profiles: Type.Optional(
    Type.Array(ProfileBase, { maxItems: 100, description: 'Profiles of the user (a role on a perimeter each).' }),
  ),
});
export type UserCreate = Static<typeof UserCreate>;

const profileUpdates = Type.Array(ProfileUpdate, {
  maxItems: 100,
  description: 'The complete list of profiles: existing profiles that are not sent are deleted.',
});

/** `UserPutPayload`: every attribute replaced; `profiles` is required. */
export const UserPut = Type.Object({ ...userFields, profiles: profileUpdates });
export type UserPut = Static<typeof UserPut>;

/** `UserPatchPayload`: only the attributes sent change. */
export const UserPatch = Type.Partial(Type.Object({ ...userFields, profiles: profileUpdates }));
export type UserPatch = Static<typeof UserPatch>;

const CustomFieldFilterOut = Type.Object({
  custom_field_id: Type.String({ description: 'Code of the custom field.' }),
  operator: Type.String({ description: 'One of `=`, `!=`, `<=`, `<`, `>=`, `>`.' }),
  value: Type.String({ description: 'The value compared with the employee value.' }),
});

const Profile = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Profile id, generated by the server.' }),
  role_id: Type.String({ description: 'Code of the role.' }),
  employees_perimeter: Type.Object(
    {
      operator: Type.String({ description: '`=` or `<=` (the organization and its descendants).' }),
      organization_id: Nullable('Code of the organization, or null.'),
      organization_group_id: Nullable('Code of the organization group, or null.'),
      custom_field_filters: Type.Array(CustomFieldFilterOut, { description: 'Rules on custom fields.' }),
    },
    { description: 'The employees this profile covers.' },
  ),
});

/** `UserFull`. */
export const User = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'User id (UUID v4), generated by the server.' }),
    external_id: Nullable("The user's id in the client's systems, or null."),
    firstname: Type.String({ description: 'First name.' }),
    lastname: Type.String({ description: 'Last name.' }),
    middlename: Nullable('Middle name, or null.'),
    email: Type.String({ description: 'Email address.' }),
    language: Nullable('BCP 47 language tag in lower case, or null.'),
    timezone: Nullable('IANA time zone, or null.'),
    mobile_phone_number: Nullable('Mobile phone number, or null.'),
    profiles: Type.Array(Profile, { description: 'Profiles, in the order they were sent.' }),
    created_at: Type.String({ format: 'date-time', description: 'When the user was created.' }),
    updated_at: Type.String({ format: 'date-time', description: 'When the user was last changed.' }),
  },
  { $id: 'UserFull', title: 'UserFull' },
);
export type User = Static<typeof User>;

const filterFields = {
  q: Type.Optional(
    Type.String({
      minLength: 2,
      maxLength: 255,
      description: 'Search in first name, last name and email (at least 2 characters, ignoring case).',
    }),
  ),
  firstname: Type.Optional(Type.String({ minLength: 1, maxLength: 70, description: 'Exact first name.' })),
  lastname: Type.Optional(Type.String({ minLength: 1, maxLength: 70, description: 'Exact last name.' })),
  email: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'Exact email, ignoring case.' })),
  external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'Exact external id.' })),
  role_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: 'Users with a profile of this role.' }),
  ),
  organization_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: "Users with a profile whose perimeter's organization_id is this organization.",
    }),
  ),
  active: Type.Optional(
    Type.Boolean({
      description: 'true: only users who have logged in at least once; false: only those who never have.',
    }),
  ),
};

export const UserListQuery = Type.Object({ ...filterFields, ...PaginationQuery }, { additionalProperties: false });
export type UserListQuery = Static<typeof UserListQuery>;

export const UserCountQuery = Type.Object(
  { ...filterFields, per_page: PaginationQuery.per_page },
  { additionalProperties: false },
);
export type UserCountQuery = Static<typeof UserCountQuery>;

export const UserParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The user id (UUID v4).' }),
});
