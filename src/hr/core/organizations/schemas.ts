import { type Static, Type } from '@sinclair/typebox';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

/** Optional text that may also be sent as null to clear it. */
const OptText = (options: { maxLength?: number; description?: string } = {}) =>
  Type.Optional(
    Type.Union([Type.String(options), Type.Null()], options.description ? { description: options.description } : {}),
  );

export const OrganizationId = Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'The organization code, chosen by the client.',
});

/** `OrganizationBase`: the body of PUT (every attribute replaced) and PATCH (only those sent). */
const baseFields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  description: OptText({ maxLength: 255 }),
  parent_organization_id: OptText({ maxLength: 255, description: 'Code of the parent organization.' }),
  corporate_name: OptText({ maxLength: 255 }),
  address1: OptText({ maxLength: 255 }),
  address2: OptText({ maxLength: 255 }),
  zip_code: OptText({ maxLength: 255 }),
  city: OptText({ maxLength: 255 }),
  country: OptText({ maxLength: 255, description: 'ISO 3166-1 alpha-2 code recommended.' }),
  contact_firstname: OptText({ maxLength: 255 }),
  contact_lastname: OptText({ maxLength: 255 }),
  contact_email: OptText({ maxLength: 255 }),
  contact_phone_number: OptText({ maxLength: 255 }),
};

export const OrganizationPut = Type.Object(baseFields);
export type OrganizationPut = Static<typeof OrganizationPut>;

export const OrganizationPatch = Type.Partial(Type.Object(baseFields));
export type OrganizationPatch = Static<typeof OrganizationPatch>;

const Nullable = (description?: string) => Type.Union([Type.String(), Type.Null()], description ? { description } : {});

export const Organization = Type.Object(
  {
    id: Type.String({ description: 'Organization code.' }),
    name: Type.String(),
    description: Nullable(),
    parent_organization_id: Nullable('Code of the parent, or null for a root organization.'),
    corporate_name: Nullable(),
    address1: Nullable(),
    address2: Nullable(),
    zip_code: Nullable(),
    city: Nullable(),
    country: Nullable(),
    contact_firstname: Nullable(),
    contact_lastname: Nullable(),
    contact_email: Nullable(),
    contact_phone_number: Nullable(),
    has_children: Type.Boolean({ description: 'True when an organization is attached below.' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'OrganizationFull' },
);
export type Organization = Static<typeof Organization>;

const filterFields = {
  parent_organization_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: 'Children of this organization.' }),
  ),
  child_organization_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: 'The parent(s) of this organization.' }),
  ),
  recursive: Type.Optional(
    Type.Boolean({
      description:
        'All descendants (with parent_organization_id) or all ancestors (with child_organization_id). Default: false when a parent or child is given, otherwise true (every organization).',
    }),
  ),
  organization_group_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: 'Organizations of this group.' }),
  ),
  q: Type.Optional(
    Type.String({ minLength: 2, maxLength: 255, description: 'Search in code and name (at least 2 characters).' }),
  ),
};

/** `GET /organizations`: in creation order. */
export const OrganizationList = declareList('organizations');

export const OrganizationListQuery = Type.Object(
  { ...filterFields, ...PaginationQuery },
  { additionalProperties: false },
);
export type OrganizationListQuery = Static<typeof OrganizationListQuery>;

export const OrganizationCountQuery = Type.Object(
  { ...filterFields, per_page: PaginationQuery.per_page },
  { additionalProperties: false },
);
export type OrganizationCountQuery = Static<typeof OrganizationCountQuery>;

export const OrganizationParams = Type.Object({ id: OrganizationId });
