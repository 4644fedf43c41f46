import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, NotFoundError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import { roleEvents } from './events.js';
import { MODULE_PERMISSIONS, PERMISSION_PREREQUISITES, type PermissionModule } from './permissions.js';
import { presentRole } from './present.js';
import type { RoleRecord, RolesRepository } from './repository.js';

export interface RoleInput {
  id: string;
  name: string;
  description?: string | null;
}

/** A module's permission document: every permission of the module, true or false. */
export type PermissionDocument = Record<string, boolean>;

/** The repositories this service's writes touch, bound to one transaction in `work.run`. */
export interface RolesWork {
  roles: RolesRepository;
}

/** Roles (reference §3g.2): named sets of permissions, attached to users through profiles. Scoped to one client. */
export class RolesService {
  private readonly repo: RolesRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<RolesWork>>,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.roles;
  }

  list(clientId: HrTenantId, request: PageRequest): Promise<Page<RoleRecord>> {
    return this.repo.page(clientId, request);
  }

  async get(clientId: HrTenantId, id: string): Promise<RoleRecord> {
    const role = await this.repo.find(clientId, id);
    if (!role) throw new NotFoundError('role', id);
    return role;
  }

  /** PUT: creates the role at the client's code, or replaces its name and description. */
  async put(clientId: HrTenantId, id: string, input: RoleInput): Promise<{ role: RoleRecord; created: boolean }> {
    if (input.id !== id) {
      throw new FieldValidationError([
        { field: 'id', code: 'mismatch', message: 'The id in the body must be the id in the path.' },
      ]);
    }
    const attrs = { name: input.name, description: input.description ?? null };
    return this.work.run(async ({ roles: repo, audit }) => {
      const at = this.clock.now();
      const created = await repo.insertIfAbsent(clientId, id, attrs, at);
      if (!created) await repo.update(clientId, id, attrs, at);
      const role = (await repo.find(clientId, id)) as RoleRecord;
      await audit.record(clientId, roleEvents, created ? 'created' : 'updated', {
        id,
        name: role.name,
        data: presentRole(role),
      });
      return { role, created };
    });
  }

  /** One module's permission document of a role; permissions never granted are false. */
  async permissions(clientId: HrTenantId, roleId: string, module: PermissionModule): Promise<PermissionDocument> {
    await this.get(clientId, roleId);
    return document(module, await this.repo.granted(clientId, roleId, module));
  }

  /**
   * Replaces one module's permission document: a permission left out is
   * false. A permission that needs another one is refused without it (422).
   */
  async putPermissions(
    clientId: HrTenantId,
    roleId: string,
    module: PermissionModule,
    input: Partial<Record<string, boolean>>,
  ): Promise<PermissionDocument> {
    const granted = MODULE_PERMISSIONS[module].filter((name) => input[name] === true);
    const needs = PERMISSION_PREREQUISITES[module] ?? {};
    const errors: FieldError[] = [];
    for (const name of granted) {
      const prerequisite = needs[name];
      if (prerequisite !== undefined && input[prerequisite] !== true) {
        errors.push({ field: name, code: 'not_allowed', message: `Needs ${prerequisite}.` });
      }
    }
    if (errors.length) throw new FieldValidationError(errors);
    return this.work.run(async ({ roles: repo, audit }) => {
      if (!(await repo.find(clientId, roleId))) throw new NotFoundError('role', roleId);
      // Updating the role first locks its row, so concurrent writes of one document take turns.
      await repo.touch(clientId, roleId, this.clock.now());
      await repo.replaceGranted(clientId, roleId, module, granted);
      // The permissions are the role's: their write is the role's update, presented as GET /roles/{id} shows it.
      const role = (await repo.find(clientId, roleId)) as RoleRecord;
      await audit.record(clientId, roleEvents, 'updated', { id: roleId, name: role.name, data: presentRole(role) });
      return document(module, new Set(granted));
    });
  }

  /** Of these roles (of the client), those granted one permission. For other services' access checks. */
  rolesGranted(
    clientId: HrTenantId,
    roleIds: readonly string[],
    module: PermissionModule,
    permission: string,
  ): Promise<Set<string>> {
    return this.repo.rolesGranted(clientId, roleIds, module, permission);
  }
}

function document(module: PermissionModule, granted: Set<string>): PermissionDocument {
  return Object.fromEntries(MODULE_PERMISSIONS[module].map((name) => [name, granted.has(name)]));
}
