import type { Db } from '../../../platform/db/database.js';
import { existingIds } from '../../../platform/db/existing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { Tenant } from '../../../platform/db/tenant.js';
import type { CustomFieldFacts, EmployeeFacts } from './rules.js';

/**
 * What employee perimeters are checked and matched against: the client's organizations, groups and custom
 * fields, and an employee's organizations (with their ancestors), groups and custom values. Request forms,
 * knowledge-base articles and users' profiles all read them here. Bound to a transaction, it reads inside it.
 */
export class PerimetersRepository {
  constructor(private readonly db: Db) {}

  existingOrganizations(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_organizations', clientId, ids);
  }

  existingGroups(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_organization_groups', clientId, ids);
  }

  /** The client's custom fields among `ids`, as the perimeter rules read them. */
  async customFields(clientId: HrTenantId, ids: readonly string[]): Promise<Map<string, CustomFieldFacts>> {
    if (!ids.length) return new Map();
    const rows = await new Tenant<Tables>(this.db, clientId)
      .selectFrom('hr_custom_fields')
      .select(['id', 'type', 'hierarchical', 'allow_access_restrictions', 'authorized_values'])
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return new Map(
      rows.map((r) => [
        r.id,
        {
          id: r.id,
          type: r.type,
          hierarchical: Boolean(r.hierarchical),
          allowAccessRestrictions: Boolean(r.allow_access_restrictions),
          authorizedValues: (JSON.parse(r.authorized_values) as { value: string }[]).map((v) => String(v.value)),
        },
      ]),
    );
  }

  /**
   * What decides which perimeters cover an employee, or undefined when the client has no such employee. Their
   * organizations are those of their active registration references (all of them for an employee with none
   * active, a terminated one), as for the organizations of their documents.
   */
  async employeeFacts(clientId: HrTenantId, employeeId: string): Promise<EmployeeFacts | undefined> {
    if (!(await existingIds(this.db, 'hr_employees', clientId, [employeeId])).size) return undefined;
    const registrations = await new Tenant<Tables>(this.db, clientId)
      .selectFrom('hr_employee_registrations')
      .select(['organization_id', 'active'])
      .where('employee_id', '=', employeeId)
      .execute();
    const active = registrations.filter((r) => r.active === 1);
    const organizations = [...new Set((active.length ? active : registrations).map((r) => r.organization_id))];
    const [ancestors, groups, values] = await Promise.all([
      this.selfAndAncestors(clientId, organizations),
      this.groupsContaining(clientId, organizations),
      new Tenant<Tables>(this.db, clientId)
        .selectFrom('hr_employee_custom_values')
        .select(['custom_field_id', 'value'])
        .where('employee_id', '=', employeeId)
        .execute(),
    ]);
    return {
      organizationIds: new Set(organizations),
      organizationsAndAncestors: ancestors,
      groupIds: groups,
      customFields: Object.fromEntries(values.map((v) => [v.custom_field_id, v.value])),
    };
  }

  /** The organizations and every ancestor of them (a cycle cannot loop: UNION drops repeats). */
  async selfAndAncestors(clientId: HrTenantId, organizationIds: readonly string[]): Promise<Set<string>> {
    if (!organizationIds.length) return new Set();
    const rows = await this.db
      .withRecursive('chain(id, parent)', (qb) => {
        // Both sides of the union are tenant queries, the recursive one over the query creator that knows `chain`.
        const t = new Tenant<Tables>(this.db, clientId).on(qb);
        return t
          .selectFrom('hr_organizations')
          .select(['id', 'parent_organization_id as parent'])
          .where('id', 'in', [...new Set(organizationIds)])
          .union(
            t
              .selectFrom('hr_organizations as o')
              .innerJoin('chain', 'chain.parent', 'o.id')
              .select(['o.id', 'o.parent_organization_id as parent']),
          );
      })
      .selectFrom('chain')
      .select('chain.id')
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /** The groups that contain any of these organizations. */
  async groupsContaining(clientId: HrTenantId, organizationIds: readonly string[]): Promise<Set<string>> {
    if (!organizationIds.length) return new Set();
    const rows = await new Tenant<Tables>(this.db, clientId)
      .selectFrom('hr_organization_group_members')
      .select('group_id')
      .where('organization_id', 'in', [...new Set(organizationIds)])
      .execute();
    return new Set(rows.map((r) => r.group_id));
  }
}
