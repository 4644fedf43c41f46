/** Organizations (`/organizations`) and organization groups (`/organization_groups`). */
import type {
  OrganizationGroup,
  OrganizationGroupListQuery,
  OrganizationGroupPatch,
  OrganizationGroupPut,
} from '../schemas/hr/core/organization-groups.js';
import type {
  Organization,
  OrganizationCountQuery,
  OrganizationListQuery,
  OrganizationPatch,
  OrganizationPut,
} from '../schemas/hr/core/organizations.js';
import type { Verbs } from './core.js';

/** `hr.organizations`: the tree of the client's organizations; PUT upserts by code. */
export function organizations(v: Verbs) {
  const path = '/organizations';
  return {
    list: v.list<Organization, OrganizationListQuery>(path),
    count: v.count<OrganizationCountQuery>(path),
    retrieve: v.retrieve<Organization>(path),
    upsert: v.upsert<OrganizationPut, Organization>(path),
    update: v.update<OrganizationPatch, Organization>(path),
  };
}

/** `hr.organizationGroups`. */
export function organizationGroups(v: Verbs) {
  const path = '/organization_groups';
  return {
    list: v.list<OrganizationGroup, OrganizationGroupListQuery>(path),
    retrieve: v.retrieve<OrganizationGroup>(path),
    upsert: v.upsert<OrganizationGroupPut, OrganizationGroup>(path),
    update: v.update<OrganizationGroupPatch, OrganizationGroup>(path),
  };
}
