import type { Selectable } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import { existingIds } from '../../../platform/db/existing.js';
import { type KeysetColumn, type KeysetPosition, keysetPage, type Page } from '../../../platform/db/keyset.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import type { PermissionModule } from './permissions.js';
import type { HrRolesTable } from './tables.js';

export type RoleRow = Selectable<HrRolesTable>;

export interface RoleAttributes {
  name: string;
  description: string | null;
}

/** Lists are in creation order: the internal key is the keyset. */
const ORDER: KeysetColumn[] = [{ column: 'r.pk', direction: 'asc' }];

export class RolesRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (repo: RolesRepository) => Promise<T>): Promise<T> {
    return inTransaction(this.db, (trx) => work(new RolesRepository(trx)));
  }

  private all(clientId: string) {
    return this.db.selectFrom('hr_roles as r').selectAll('r').where('r.client_id', '=', clientId);
  }

  page(clientId: string, limit: number, position?: KeysetPosition): Promise<Page<RoleRow>> {
    return keysetPage(this.all(clientId), ORDER, (r) => [r.pk], limit, position);
  }

  find(clientId: string, id: string): Promise<RoleRow | undefined> {
    return this.all(clientId).where('r.id', '=', id).executeTakeFirst();
  }

  /** Which of these codes are roles of the client. */
  existingIds(clientId: string, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_roles', clientId, ids);
  }

  /** Inserts unless the code exists; returns whether it inserted. Concurrent creates of one code cannot both win. */
  async insertIfAbsent(clientId: string, id: string, attrs: RoleAttributes, at: number): Promise<boolean> {
    const row = await this.db
      .insertInto('hr_roles')
      .values({ client_id: clientId, id, ...attrs, created_at: at, updated_at: at })
      .onConflict((oc) => oc.columns(['client_id', 'id']).doNothing())
      .returning('pk')
      .executeTakeFirst();
    return row !== undefined;
  }

  async update(clientId: string, id: string, attrs: RoleAttributes, at: number): Promise<void> {
    await this.db
      .updateTable('hr_roles')
      .set({ ...attrs, updated_at: at })
      .where('client_id', '=', clientId)
      .where('id', '=', id)
      .execute();
  }

  async touch(clientId: string, id: string, at: number): Promise<void> {
    await this.db
      .updateTable('hr_roles')
      .set({ updated_at: at })
      .where('client_id', '=', clientId)
      .where('id', '=', id)
      .execute();
  }

  /** The permissions of one module the role is granted. */
  async granted(clientId: string, roleId: string, module: PermissionModule): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('hr_role_permissions')
      .select('permission')
      .where('client_id', '=', clientId)
      .where('role_id', '=', roleId)
      .where('module', '=', module)
      .execute();
    return new Set(rows.map((r) => r.permission));
  }

  /** Of these roles, those granted a permission. */
  async rolesGranted(
    clientId: string,
    roleIds: readonly string[],
    module: PermissionModule,
    permission: string,
  ): Promise<Set<string>> {
    if (roleIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('hr_role_permissions')
      .select('role_id')
      .where('client_id', '=', clientId)
      .where('module', '=', module)
      .where('permission', '=', permission)
      .where('role_id', 'in', [...new Set(roleIds)])
      .execute();
    return new Set(rows.map((r) => r.role_id));
  }

  /** Replaces the granted permissions of one module. */
  async replaceGranted(
    clientId: string,
    roleId: string,
    module: PermissionModule,
    permissions: readonly string[],
  ): Promise<void> {
    await this.db
      .deleteFrom('hr_role_permissions')
      .where('client_id', '=', clientId)
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
