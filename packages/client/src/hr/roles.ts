/** HR roles (`/roles`) and their permissions per module. */

import type { RequestOptions } from '../http.js';
import type {
  AuditPermissionsFull,
  AuditPermissionsPut,
  CorePermissionsFull,
  CorePermissionsGet,
  CorePermissionsPut,
  EfmPermissionsFull,
  EfmPermissionsPut,
  Role,
  RoleListQuery,
  RolePut,
  WebhookPermissionsFull,
  WebhookPermissionsPut,
} from '../schemas/hr/core/roles.js';
import { enc, type HrCore, type Id, type Verbs } from './core.js';

/** The HR API's permission modules of a role, with the shapes of their GET answer, PUT body and PUT answer. */
export interface RolePermissionModules {
  core: { get: CorePermissionsGet; put: CorePermissionsPut; answer: CorePermissionsFull };
  efm: { get: EfmPermissionsFull; put: EfmPermissionsPut; answer: EfmPermissionsFull };
  audit: { get: AuditPermissionsFull; put: AuditPermissionsPut; answer: AuditPermissionsFull };
  webhook: { get: WebhookPermissionsFull; put: WebhookPermissionsPut; answer: WebhookPermissionsFull };
}

/** `hr.roles`. */
export function roles(core: HrCore, v: Verbs) {
  const path = '/roles';
  return {
    list: v.list<Role, RoleListQuery>(path),
    retrieve: v.retrieve<Role>(path),
    upsert: v.upsert<RolePut, Role>(path),
    permissions: {
      /** The permissions of one module of a role. */
      retrieve: <M extends keyof RolePermissionModules>(
        roleId: Id,
        module: M,
        options?: RequestOptions,
      ): Promise<RolePermissionModules[M]['get']> =>
        core.json('GET', `${path}/${enc(roleId)}/permissions/${module}`, {}, options),
      /** Replaces the permissions of one module of a role. */
      update: <M extends keyof RolePermissionModules>(
        roleId: Id,
        module: M,
        body: RolePermissionModules[M]['put'],
        options?: RequestOptions,
      ): Promise<RolePermissionModules[M]['answer']> =>
        core.json('PUT', `${path}/${enc(roleId)}/permissions/${module}`, { body }, options),
    },
  };
}
