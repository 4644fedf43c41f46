import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { FieldValidationError, NotFoundError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import { organizationGroupEvents } from './events.js';
import { presentOrganizationGroup } from './present.js';
import type { OrganizationGroupRecord, OrganizationGroupsRepository } from './repository.js';

export interface OrganizationGroupInput {
  name?: string;
  organizations_ids?: string[];
}

/** The repositories organization groups work with. */
export interface OrganizationGroupsWork {
  organizationGroups: OrganizationGroupsRepository;
}

/** Organization groups (reference §3b): named sets of organizations, scoped to one client. */
export class OrganizationGroupsService {
  private readonly repo: OrganizationGroupsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<OrganizationGroupsWork>>,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.organizationGroups;
  }

  list(
    clientId: HrTenantId,
    filter: { organization_id?: string; q?: string },
    request: PageRequest,
  ): Promise<Page<OrganizationGroupRecord>> {
    return this.repo.page(
      clientId,
      {
        ...(filter.organization_id !== undefined ? { organizationId: filter.organization_id } : {}),
        ...(filter.q !== undefined ? { q: filter.q } : {}),
      },
      request,
    );
  }

  async get(clientId: HrTenantId, id: string): Promise<OrganizationGroupRecord> {
    const group = await this.repo.find(clientId, id);
    if (!group) throw new NotFoundError('organization group', id);
    return group;
  }

  /** PUT: creates the group, or replaces its name and members. */
  async put(
    clientId: HrTenantId,
    id: string,
    input: { name: string; organizations_ids?: string[] },
  ): Promise<{ group: OrganizationGroupRecord; created: boolean }> {
    return this.work.run(async ({ organizationGroups: repo, audit }) => {
      const members = input.organizations_ids ?? [];
      await this.checkMembers(repo, clientId, members);
      const at = this.clock.now();
      const created = await repo.insertIfAbsent(clientId, id, input.name, at);
      if (!created) await repo.update(clientId, id, { name: input.name }, at);
      await repo.replaceMembers(clientId, id, members);
      const group = (await repo.find(clientId, id)) as OrganizationGroupRecord;
      await audit.record(clientId, organizationGroupEvents, created ? 'created' : 'updated', {
        id,
        name: group.name,
        data: presentOrganizationGroup(group),
      });
      return { group, created };
    });
  }

  async patch(clientId: HrTenantId, id: string, input: OrganizationGroupInput): Promise<OrganizationGroupRecord> {
    return this.work.run(async ({ organizationGroups: repo, audit }) => {
      if (!(await repo.find(clientId, id))) throw new NotFoundError('organization group', id);
      if (input.organizations_ids !== undefined) {
        await this.checkMembers(repo, clientId, input.organizations_ids);
        await repo.replaceMembers(clientId, id, input.organizations_ids);
      }
      await repo.update(clientId, id, input.name !== undefined ? { name: input.name } : {}, this.clock.now());
      const group = (await repo.find(clientId, id)) as OrganizationGroupRecord;
      await audit.record(clientId, organizationGroupEvents, 'updated', {
        id,
        name: group.name,
        data: presentOrganizationGroup(group),
      });
      return group;
    });
  }

  private async checkMembers(repo: OrganizationGroupsRepository, clientId: HrTenantId, ids: string[]): Promise<void> {
    const known = await repo.existingOrganizationIds(clientId, ids);
    const errors = ids.flatMap((orgId, i) =>
      known.has(orgId)
        ? []
        : [{ field: `organizations_ids.${i}`, code: 'not_found', message: 'No organization has this code.' }],
    );
    if (errors.length) throw new FieldValidationError(errors);
  }
}
