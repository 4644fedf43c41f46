import { type TenantRef, tenantRef } from '../tenant-ref.js';
import type { Tenant } from './schemas.js';
import type { ListedTenants } from './service.js';

/** Both kinds of tenant in one list: HR clients, then academies, each oldest first. */
export function presentTenants(listed: ListedTenants, clockOf: (tenant: TenantRef) => Tenant['clock']): Tenant[] {
  return [
    ...listed.hr.map((c) => ({
      kind: 'hr' as const,
      id: c.client_id,
      name: c.name,
      created_at: c.created_at,
      clock: clockOf(tenantRef('hr', c.client_id)),
      applications: c.applications,
    })),
    ...listed.academy.map((a) => ({
      kind: 'academy' as const,
      id: String(a.acadId),
      name: a.name,
      created_at: a.created_at,
      clock: clockOf(tenantRef('academy', String(a.acadId))),
      keys: a.keys,
    })),
  ];
}
