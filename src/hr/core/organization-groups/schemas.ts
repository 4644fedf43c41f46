import { type Static, Type } from '@sinclair/typebox';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

const OrganizationIds = Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
  uniqueItems: true,
  maxItems: 10_000,
  description: 'Codes of the organizations in the group.',
});

export const OrganizationGroupPut = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  organizations_ids: Type.Optional(OrganizationIds),
});
export type OrganizationGroupPut = Static<typeof OrganizationGroupPut>;

export const OrganizationGroupPatch = Type.Partial(OrganizationGroupPut);
export type OrganizationGroupPatch = Static<typeof OrganizationGroupPatch>;

export const OrganizationGroup = Type.Object(
  {
    id: Type.String({ description: 'Group code, chosen by the client.' }),
    name: Type.String(),
    organizations_ids: Type.Array(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'OrganizationGroupFull' },
);
export type OrganizationGroup = Static<typeof OrganizationGroup>;

/** `GET /organization_groups`: in creation order. */
export const OrganizationGroupList = declareList('organization_groups');

export const OrganizationGroupListQuery = Type.Object(
  {
    organization_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'Groups that contain this organization.' }),
    ),
    q: Type.Optional(
      Type.String({ minLength: 2, maxLength: 255, description: 'Search in code and name (at least 2 characters).' }),
    ),
    ...PaginationQuery,
  },
  { additionalProperties: false },
);
export type OrganizationGroupListQuery = Static<typeof OrganizationGroupListQuery>;

export const OrganizationGroupParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255, description: 'The group code.' }),
});
