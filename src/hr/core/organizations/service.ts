import { Type } from '@sinclair/typebox';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { FieldValidationError, InvalidRequestError, NotFoundError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import type { BulkAction, BulkWork, PendingBulkItem } from '../bulk/service.js';
import { applyBulkItem, itemCheck } from '../bulk/service.js';
import { organizationEvents } from './events.js';
import { presentOrganization } from './present.js';
import type {
  OrganizationAttributes,
  OrganizationFilter,
  OrganizationRecord,
  OrganizationScope,
  OrganizationsRepository,
} from './repository.js';
import { OrganizationId, OrganizationPut } from './schemas.js';

/** The repositories organizations work with, bound to one transaction in `run`. */
export interface OrganizationsWork extends BulkWork {
  organizations: OrganizationsRepository;
}

/** A write that joins an organization write's transaction (an import row's settlement). */
export type AlsoInTransaction = (
  tx: Audited<OrganizationsWork>,
  organization: OrganizationRecord,
  created: boolean,
) => Promise<void>;

const checkPut = itemCheck(OrganizationPut);
const checkKeys = itemCheck(Type.Object({ id: OrganizationId, data: Type.Unknown() }));

export interface OrganizationFilterInput {
  parent_organization_id?: string;
  child_organization_id?: string;
  recursive?: boolean;
  organization_group_id?: string;
  q?: string;
}

/** Each attribute's name on the wire (a body's), and in the domain. */
const ATTRIBUTES = {
  name: 'name',
  description: 'description',
  parent_organization_id: 'parentOrganizationId',
  corporate_name: 'corporateName',
  address1: 'address1',
  address2: 'address2',
  zip_code: 'zipCode',
  city: 'city',
  country: 'country',
  contact_firstname: 'contactFirstname',
  contact_lastname: 'contactLastname',
  contact_email: 'contactEmail',
  contact_phone_number: 'contactPhoneNumber',
} as const satisfies Record<string, keyof OrganizationAttributes>;

type WireAttribute = keyof typeof ATTRIBUTES;

/** The attributes as a PUT or PATCH body sends them. */
export type OrganizationInput = Partial<{
  [K in WireAttribute]: OrganizationAttributes[(typeof ATTRIBUTES)[K]] | undefined;
}>;

/** The attributes sent (the others left out, or null with `fill`: a PUT replaces them all). */
function attributes(input: OrganizationInput, fill: boolean): Partial<OrganizationAttributes> {
  const attrs: Record<string, unknown> = {};
  for (const wire of Object.keys(ATTRIBUTES) as WireAttribute[]) {
    const value = input[wire];
    if (value !== undefined) attrs[ATTRIBUTES[wire]] = value;
    else if (fill) attrs[ATTRIBUTES[wire]] = null;
  }
  return attrs as Partial<OrganizationAttributes>;
}

/** Organizations and their hierarchy (reference §3b). Every call is scoped to one client. */
export class OrganizationsService {
  private readonly repo: OrganizationsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<OrganizationsWork>>,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.organizations;
  }

  private async filter(clientId: HrTenantId, input: OrganizationFilterInput): Promise<OrganizationFilter> {
    const { parent_organization_id: parent, child_organization_id: child } = input;
    if (parent !== undefined && child !== undefined) {
      throw new InvalidRequestError('Use parent_organization_id or child_organization_id, not both.');
    }
    const missing: string[] = [];
    let scope: OrganizationScope;
    if (parent !== undefined) {
      if (!(await this.repo.exists(clientId, parent))) missing.push('parent_organization_id');
      scope = input.recursive === true ? { kind: 'descendants', of: parent } : { kind: 'children', of: parent };
    } else if (child !== undefined) {
      if (!(await this.repo.exists(clientId, child))) missing.push('child_organization_id');
      scope = input.recursive === true ? { kind: 'ancestors', of: child } : { kind: 'parent', of: child };
    } else {
      scope = input.recursive === false ? { kind: 'roots' } : { kind: 'all' };
    }
    const group = input.organization_group_id;
    if (group !== undefined && !(await this.repo.groupExists(clientId, group))) missing.push('organization_group_id');
    if (missing.length) {
      throw new FieldValidationError(
        missing.map((field) => ({ field, code: 'not_found', message: 'No object has this code.' })),
      );
    }
    return {
      scope,
      ...(input.organization_group_id !== undefined ? { groupId: input.organization_group_id } : {}),
      ...(input.q !== undefined ? { q: input.q } : {}),
    };
  }

  async list(
    clientId: HrTenantId,
    input: OrganizationFilterInput,
    request: PageRequest,
  ): Promise<Page<OrganizationRecord>> {
    return this.repo.page(clientId, await this.filter(clientId, input), request);
  }

  async count(clientId: HrTenantId, input: OrganizationFilterInput): Promise<number> {
    return this.repo.count(clientId, await this.filter(clientId, input));
  }

  async get(clientId: HrTenantId, id: string): Promise<OrganizationRecord> {
    const org = await this.repo.find(clientId, id);
    if (!org) throw new NotFoundError('organization', id);
    return org;
  }

  /** PUT: creates the organization, or replaces every attribute of an existing one. */
  async put(
    clientId: HrTenantId,
    id: string,
    input: OrganizationInput,
    also?: AlsoInTransaction,
  ): Promise<{ organization: OrganizationRecord; created: boolean }> {
    const attrs = attributes(input, true) as OrganizationAttributes;
    return this.work.run(async (tx) => {
      const { organizations: repo, audit } = tx;
      await this.checkParent(repo, clientId, id, attrs.parentOrganizationId);
      const at = this.clock.now();
      const created = await repo.insertIfAbsent(clientId, id, attrs, at);
      if (!created) await repo.update(clientId, id, attrs, at);
      const organization = (await repo.find(clientId, id)) as OrganizationRecord;
      await audit.record(clientId, organizationEvents, created ? 'created' : 'updated', {
        id,
        name: organization.name,
        data: presentOrganization(organization),
      });
      if (also) await also(tx, organization, created);
      return { organization, created };
    });
  }

  /** One item `{id, data}` of an organization import, applied as PUT /organizations/{id} applies its body. */
  async applyBulk(clientId: HrTenantId, _action: BulkAction, item: PendingBulkItem): Promise<void> {
    await applyBulkItem({
      clock: this.clock,
      work: this.work,
      clientId,
      item,
      noun: 'Organization',
      write: async (settle) => {
        checkKeys(item.input);
        const { id, data } = item.input as { id: string; data: unknown };
        checkPut(data);
        return this.put(clientId, id, data as OrganizationInput, (tx, organization, created) =>
          settle(tx, created ? 'created' : 'updated', presentOrganization(organization), organization.id),
        );
      },
    });
  }

  /** PATCH: changes only the attributes sent. */
  async patch(clientId: HrTenantId, id: string, input: OrganizationInput): Promise<OrganizationRecord> {
    return this.work.run(async ({ organizations: repo, audit }) => {
      if (!(await repo.exists(clientId, id))) throw new NotFoundError('organization', id);
      const changes = attributes(input, false);
      if (changes.name === null) {
        throw new FieldValidationError([{ field: 'name', code: 'required', message: 'The name cannot be removed.' }]);
      }
      if (changes.parentOrganizationId !== undefined) {
        await this.checkParent(repo, clientId, id, changes.parentOrganizationId);
      }
      await repo.update(clientId, id, changes, this.clock.now());
      const organization = (await repo.find(clientId, id)) as OrganizationRecord;
      await audit.record(clientId, organizationEvents, 'updated', {
        id,
        name: organization.name,
        data: presentOrganization(organization),
      });
      return organization;
    });
  }

  /** A parent must exist in the same client and must not be the organization itself or one of its descendants. */
  private async checkParent(
    repo: OrganizationsRepository,
    clientId: HrTenantId,
    id: string,
    parent: string | null,
  ): Promise<void> {
    if (parent === null) return;
    const field = 'parent_organization_id';
    if (parent === id) {
      throw new FieldValidationError([
        { field, code: 'circular_reference', message: 'An organization cannot be its own parent.' },
      ]);
    }
    if (!(await repo.exists(clientId, parent))) {
      throw new FieldValidationError([{ field, code: 'not_found', message: 'No organization has this code.' }]);
    }
    if ((await repo.ancestorIds(clientId, parent)).includes(id)) {
      throw new FieldValidationError([
        { field, code: 'circular_reference', message: 'The parent is a descendant of this organization.' },
      ]);
    }
  }
}
