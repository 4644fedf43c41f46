import type { Selectable } from 'kysely';
import { existingIds } from '../../../platform/db/existing.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { hrTenantId } from '../../../platform/db/tenant.js';
import type { PermissionModule } from './permissions.js';
import type { HrRolesTable } from './tables.js';

/** A role of a client. */
export interface RoleRecord {
  pk: number;
  clientId: HrTenantId;
  id: string;
  name: string;
  description: string | null;
  createdAt: number;
  updatedAt: number;
}

function toRecord(row: Selectable<HrRolesTable>): RoleRecord {
  return {
    pk: Number(row.pk),
    clientId: hrTenantId(row.client_id),
    id: row.id,
    name: row.name,
    description: row.description,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export interface RoleAttributes {
  name: string;
  description: string | null;
}

/** Lists are in creation order: the internal key is the keyset. */
const ORDER: ListOrder = { tiebreak: 'r.pk' };

export class RolesRepository extends HrRepository {
  private all(clientId: HrTenantId) {
    return this.tenant(clientId).selectFrom('hr_roles as r').selectAll('r');
  }

  async page(clientId: HrTenantId, request: PageRequest): Promise<Page<RoleRecord>> {
    const page = await listPage(this.all(clientId), ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  async find(clientId: HrTenantId, id: string): Promise<RoleRecord | undefined> {
    const row = await this.all(clientId).where('r.id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Which of these codes are roles of the client. */
  existingIds(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_roles', clientId, ids);
  }

  /** Inserts unless the code exists; returns whether it inserted. Concurrent creates of one code cannot both win. */
  insertIfAbsent(clientId: HrTenantId, id: string, attrs: RoleAttributes, at: number): Promise<boolean> {
    return this.tenant(clientId).insertIfAbsent('hr_roles', { id, ...attrs, created_at: at, updated_at: at });
  }

  async update(clientId: HrTenantId, id: string, attrs: RoleAttributes, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_roles')
      .set({ ...attrs, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  async touch(clientId: HrTenantId, id: string, at: number): Promise<void> {
    await this.tenant(clientId).updateTable('hr_roles').set({ updated_at: at }).where('id', '=', id).execute();
  }

  /** The permissions of one module the role is granted. */
  async granted(clientId: HrTenantId, roleId: string, module: PermissionModule): Promise<Set<string>> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_role_permissions')
      .select('permission')
      .where('role_id', '=', roleId)
      .where('module', '=', module)
      .execute();
    return new Set(rows.map((r) => r.permission));
  }

  /** Of these roles, those granted a permission. */
  async rolesGranted(
    clientId: HrTenantId,
    roleIds: readonly string[],
    module: PermissionModule,
    permission: string,
  ): Promise<Set<string>> {
    if (roleIds.length === 0) return new Set();
    const rows = await this.tenant(clientId)
      .selectFrom('hr_role_permissions')
      .select('role_id')
      .where('module', '=', module)
      .where('permission', '=', permission)
      .where('role_id', 'in', [...new Set(roleIds)])
      .execute();
    return new Set(rows.map((r) => r.role_id));
  }

  /** Replaces the granted permissions of one module. */
  async replaceGranted(
    clientId: HrTenantId,
    roleId: string,
    module: PermissionModule,
    permissions: readonly string[],
  ): Promise<void> {
    await this.tenant(clientId)
      .deleteFrom('hr_role_permissions')
      .where('role_id', '=', roleId)
      .where('module', '=', module)
      .execute();
    if (permissions.length === 0) return;
    await this.db
      .insertInto('hr_role_permissions')
      .values(permissions.map((permission) => ({ client_id: clientId, role_id: roleId, module, permission })))
      .execute();
  }
}
