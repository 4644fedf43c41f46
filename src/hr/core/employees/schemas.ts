import { type Static, Type } from '@sinclair/typebox';
import { declareSortedList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';
import { bulkStatus } from '../bulk/schemas.js';

const Text = (maxLength: number, description?: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()], description ? { description } : {}));
const DateField = (description: string) =>
  Type.Optional(
    Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: `${description} YYYY-MM-DD.` }),
  );

export const RegistrationReferenceInput = Type.Object({
  organization_id: Type.String({ minLength: 1, maxLength: 255, description: 'Code of the organization.' }),
  employee_number: Type.String({ minLength: 1, maxLength: 255, description: 'Employee number in that organization.' }),
  active: Type.Optional(
    Type.Boolean({ description: 'Default true; false means the employee left this organization.' }),
  ),
  departure_date: Type.Optional(
    Type.Union([Type.String({ format: 'date' }), Type.Null()], {
      description: 'When null while active is false, the server sets today.',
    }),
  ),
});

export const CustomFieldValueInput = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 255, description: 'The custom field id.' }),
  value: Type.String({ maxLength: 255 }),
});

const baseFields = {
  firstname: Type.String({ minLength: 1, maxLength: 255 }),
  lastname: Type.String({ minLength: 1, maxLength: 255 }),
  email: Text(
    320,
    'Professional email, ASCII only. Required unless the address is complete and a saml_token is given.',
  ),
  language: Type.Optional(
    Type.Union([Type.String({ pattern: '^[a-z]{2,3}(-[a-z0-9]{2,8})*$' }), Type.Null()], {
      description: 'BCP 47, lower case (`en-us`).',
    }),
  ),
  maidenname: Text(255),
  middlename: Text(255),
  country: Type.Optional(
    Type.Union([Type.String({ pattern: '^[A-Z]{2}$' }), Type.Null()], {
      description: 'ISO 3166-1 alpha-2. Required without email.',
    }),
  ),
  starting_date: DateField('Start date in the company; drives status.'),
  mobile_phone_number: Text(64, 'International format, e.g. 0033674564532.'),
  birth_date: DateField('Birth date.'),
  address1: Text(255, 'Home address; required without email.'),
  address2: Text(255),
  address3: Text(255),
  zip_code: Text(64, 'Required without email.'),
  city: Text(255, 'Required without email.'),
  state: Text(255, 'State or province.'),
  saml_token: Type.Optional(
    Type.Union([Type.String({ maxLength: 1024 }), Type.Null()], {
      description: 'Write-only SSO token; "" or null clears it.',
    }),
  ),
  registration_references: Type.Array(RegistrationReferenceInput, {
    minItems: 1,
    maxItems: 500,
    description: 'Membership of organizations, with employee numbers.',
  }),
  custom_fields: Type.Optional(
    Type.Array(CustomFieldValueInput, {
      maxItems: 1000,
      description: 'Custom field values; missing ones take their default (on PUT, only when this key is sent).',
    }),
  ),
};

const externalId = {
  external_id: Text(255, 'Unique identifier in the client HRIS; unique per client.'),
};

export const EmployeeCreate = Type.Object({ ...externalId, ...baseFields });
export type EmployeeCreate = Static<typeof EmployeeCreate>;
export const EmployeePatch = Type.Partial(Type.Object({ ...externalId, ...baseFields }));
export type EmployeePatch = Static<typeof EmployeePatch>;
export const EmployeeByExternalId = Type.Object(baseFields);

/**
 * An item of `PUT /employees/bulk` (`EmployeeBulkUpdatePayload`): the employee to replace, or to create at that id,
 * as PUT /employees/{id} does. Atrium also takes `external_id` instead of `employee_id`: the upsert of PUT
 * /employees/by_external_id/{external_id} (the reference's description speaks of external ids; its schema keys by
 * `employee_id`).
 */
export const EmployeeBulkPutItem = Type.Object({
  employee_id: Type.Optional(
    Type.String({ format: 'uuid', description: 'The employee to replace, or to create at this id.' }),
  ),
  external_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Atrium, instead of `employee_id`: the employee with this external_id, created if none has it.',
    }),
  ),
  data: EmployeeCreate,
});

/** An item of `PATCH /employees/bulk` (`EmployeeBulkPatchPayload`). */
export const EmployeeBulkPatchItem = Type.Object({
  employee_id: Type.String({ format: 'uuid', description: 'The employee to update.' }),
  data: EmployeePatch,
});

export const Employee = Type.Object(
  {
    id: Type.String({ description: 'Employee id (UUID).' }),
    external_id: Type.Union([Type.String(), Type.Null()]),
    firstname: Type.String(),
    lastname: Type.String(),
    email: Type.Union([Type.String(), Type.Null()]),
    language: Type.Union([Type.String(), Type.Null()]),
    maidenname: Type.Union([Type.String(), Type.Null()]),
    middlename: Type.Union([Type.String(), Type.Null()]),
    country: Type.Union([Type.String(), Type.Null()]),
    starting_date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    mobile_phone_number: Type.Union([Type.String(), Type.Null()]),
    birth_date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    address1: Type.Union([Type.String(), Type.Null()]),
    address2: Type.Union([Type.String(), Type.Null()]),
    address3: Type.Union([Type.String(), Type.Null()]),
    zip_code: Type.Union([Type.String(), Type.Null()]),
    city: Type.Union([Type.String(), Type.Null()]),
    state: Type.Union([Type.String(), Type.Null()]),
    registration_references: Type.Array(
      Type.Object({
        organization_id: Type.String(),
        employee_number: Type.String(),
        active: Type.Boolean(),
        departure_date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
        created_at: Type.String({ format: 'date-time' }),
        updated_at: Type.String({ format: 'date-time' }),
      }),
    ),
    custom_fields: Type.Array(Type.Object({ code: Type.String(), value: Type.String(), label: Type.String() })),
    status: Type.String({ description: '`pre_hired`, `active` or `terminated` (computed).' }),
    terminated: Type.Boolean({ description: 'True when no registration reference is active.' }),
    departure_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
      description: 'The latest departure date when terminated, else null.',
    }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'EmployeeFull' },
);
export type Employee = Static<typeof Employee>;

/** `GET /employees/bulk/{request_id}` (`EmployeeBulkOperationStatus`). */
export const EmployeeBulkStatus = bulkStatus(Type.Unsafe<Employee>(Type.Ref(Employee)), 'EmployeeBulkOperationStatus');
export type EmployeeBulkStatus = Static<typeof EmployeeBulkStatus>;

export const SORTS = [
  'birth_date',
  'created_at',
  'email',
  'external_id',
  'firstname',
  'lastname',
  'firstname_lastname',
  'lastname_firstname',
] as const;
export type SortField = (typeof SORTS)[number];

/** The employee list (GET /employees and POST /employees/search): one sort key, default `+created_at`. */
export const EmployeeList = declareSortedList('employees', SORTS, '+created_at');

const DateOrDateTime = (description: string) =>
  Type.String({ maxLength: 40, 'x-date-or-datetime': true, description: `${description} A date or a datetime.` });

const filterFields = {
  q: Type.Optional(
    Type.String({
      minLength: 2,
      maxLength: 255,
      description: 'Full text over names, external id, email and employee numbers.',
    }),
  ),
  firstname: Type.Optional(Type.String({ maxLength: 255, description: 'Exact match.' })),
  lastname: Type.Optional(Type.String({ maxLength: 255, description: 'Exact match.' })),
  email: Type.Optional(Type.String({ maxLength: 320, description: 'Exact match.' })),
  external_id: Type.Optional(Type.String({ maxLength: 255, description: 'Exact match.' })),
  employee_numbers: Type.Optional(Type.String({ maxLength: 10_000, description: 'Comma-separated employee numbers.' })),
  terminated: Type.Optional(Type.Boolean({ description: 'true: only terminated; false: only current; default both.' })),
  created_at_since: Type.Optional(DateOrDateTime('Created at or after.')),
  created_at_until: Type.Optional(DateOrDateTime('Created at or before.')),
  synchronization_date: Type.Optional(DateOrDateTime('Employees not synchronized since.')),
  synchronization_application_name: Type.Optional(
    Type.Literal('case', { description: 'Employees not synchronized with this application.' }),
  ),
  organization_ids: Type.Optional(
    Type.String({ maxLength: 10_000, description: 'Comma-separated organization codes.' }),
  ),
  organization_id_below: Type.Optional(
    Type.String({ maxLength: 255, description: 'Employees in this organization or below it.' }),
  ),
  organization_group_id: Type.Optional(
    Type.String({ maxLength: 255, description: 'Employees in organizations of this group.' }),
  ),
  custom_field_ids: Type.Optional(Type.String({ maxLength: 10_000, description: 'Comma-separated custom field ids.' })),
  custom_field_operators: Type.Optional(
    Type.String({
      maxLength: 10_000,
      description: 'Comma-separated, one per id: `=`, `!=`; `<=`, `>=` for hierarchical int fields.',
    }),
  ),
  custom_field_values: Type.Optional(Type.String({ maxLength: 10_000, description: 'Comma-separated, one per id.' })),
  has_email: Type.Optional(Type.Boolean({ description: 'Only employees with (true) or without (false) an email.' })),
  profile_ids: Type.Optional(
    Type.String({
      maxLength: 10_000,
      description: 'Comma-separated user profile ids: the employees inside any of those profiles’ perimeters.',
    }),
  ),
  sort: Type.Optional(
    Type.Union(
      SORTS.flatMap((s) => [Type.Literal(`+${s}`), Type.Literal(`-${s}`)]),
      {
        description:
          'One of +/-birth_date, created_at, email, external_id, firstname, lastname, firstname_lastname, lastname_firstname. Default +created_at.',
      },
    ),
  ),
};

export type EmployeeFilters = Partial<{
  [K in keyof typeof filterFields]: Static<(typeof filterFields)[K]>;
}>;

export const EmployeeListQuery = Type.Object({ ...filterFields, ...PaginationQuery }, { additionalProperties: false });
export type EmployeeListQuery = Static<typeof EmployeeListQuery>;

export const EmployeeSearchBody = Type.Object(
  {
    ...filterFields,
    next_cursor: Type.Optional(
      Type.String({
        pattern: '^[0-9]+$',
        maxLength: 4096,
        description: 'The Next-Cursor (or Previous-Cursor) of a previous page.',
      }),
    ),
    per_page: PaginationQuery.per_page,
  },
  { additionalProperties: false },
);
export type EmployeeSearchBody = Static<typeof EmployeeSearchBody>;

export const EmployeeParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'Employee id.' }),
});
export const ExternalIdParams = Type.Object({
  external_id: Type.String({ minLength: 1, maxLength: 255, description: 'The employee’s id in the client HRIS.' }),
});
