import type { AcademiesService, ListedAcademy } from '../../academy/academies/service.js';
import type { ListedClient, TenantsService } from '../../hr/core/tenants/service.js';
import { NotFoundError } from '../../platform/errors.js';
import { type TenantRef, tenantRef } from '../tenant-ref.js';

/** Every tenant of both APIs, as the services list them (never a secret). */
export interface ListedTenants {
  hr: ListedClient[];
  academy: ListedAcademy[];
}

/** The tenants the admin API addresses: found, or "not found" (404) for an unknown kind or id. */
export class AdminTenantsService {
  constructor(
    private readonly clients: Pick<TenantsService, 'list' | 'requireClient'>,
    private readonly academies: Pick<AcademiesService, 'list' | 'requireAcademy'>,
  ) {}

  async list(): Promise<ListedTenants> {
    const [hr, academy] = await Promise.all([this.clients.list(), this.academies.list()]);
    return { hr, academy };
  }

  /** The tenant at `/tenants/{kind}/{id}`; NotFoundError when there is none. */
  async resolve(kind: string, id: string): Promise<TenantRef> {
    const missing = () => new NotFoundError('tenant', `${kind}/${id}`, `No tenant ${kind}/${id}.`);
    if (kind === 'hr') {
      await this.clients.requireClient(id).catch((error: unknown) => {
        throw error instanceof NotFoundError ? missing() : error;
      });
      return tenantRef('hr', id);
    }
    if (kind === 'academy' && /^[1-9][0-9]{0,8}$/.test(id)) {
      await this.academies.requireAcademy(Number(id)).catch((error: unknown) => {
        throw error instanceof NotFoundError ? missing() : error;
      });
      return tenantRef('academy', id);
    }
    throw missing();
  }
}
