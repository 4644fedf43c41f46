import type { AcademiesService, CreatedAcademy, ListedAcademy } from '../../academy/academies/service.js';
import type { CreatedApplication, ListedClient, TenantsService } from '../../hr/core/tenants/service.js';
import { hrTenantId } from '../../platform/db/tenant.js';
import { NotFoundError } from '../../platform/errors.js';
import type { Clock } from '../../platform/time.js';
import type { AdminAuditRepository } from '../audit/repository.js';
import { type TenantRef, tenantRef } from '../tenant-ref.js';

/** Every tenant of both APIs, as the services list them (never a secret). */
export interface ListedTenants {
  hr: ListedClient[];
  academy: ListedAcademy[];
}

/** What the tenant operations need of each API's tenant service (`atrium hr …`, `atrium academy …` use the same). */
export type HrTenants = Pick<
  TenantsService,
  'list' | 'requireClient' | 'createClient' | 'createApplication' | 'revokeApplication'
>;
export type AcademyTenants = Pick<AcademiesService, 'list' | 'requireAcademy' | 'create' | 'rotateKey'>;

/**
 * The tenants the admin API addresses: found, or "not found" (404) for an unknown kind or id; and made, given
 * credentials, and have them revoked or rotated (docs/admin.md, "Tenants"). Each change is audited right after it
 * commits, by the services of the API it belongs to (the same as the CLI's commands): a crash between the two loses
 * the audit entry, never the change.
 */
export class AdminTenantsService {
  constructor(
    private readonly clients: HrTenants,
    private readonly academies: AcademyTenants,
    private readonly audit: AdminAuditRepository,
    private readonly clock: Clock,
    /** After a revocation or a rotation commits: this process's caches of the tenant's credentials catch up at once. */
    private readonly onCredentialsChanged?: (tenant: TenantRef) => Promise<void> | void,
  ) {}

  async list(): Promise<ListedTenants> {
    const [hr, academy] = await Promise.all([this.clients.list(), this.academies.list()]);
    return { hr, academy };
  }

  /** The tenant at `/tenants/{kind}/{id}`; NotFoundError when there is none. */
  async resolve(kind: string, id: string): Promise<TenantRef> {
    const missing = () => new NotFoundError('tenant', `${kind}/${id}`, `No tenant ${kind}/${id}.`);
    if (kind === 'hr') {
      await this.clients.requireClient(hrTenantId(id)).catch((error: unknown) => {
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

  /** A new HR client, with no application yet. */
  async createClient(name: string, actor: string): Promise<TenantRef> {
    const { client_id } = await this.clients.createClient(name);
    const tenant = tenantRef('hr', client_id);
    await this.record(actor, 'tenant.created', tenant, { name });
    return tenant;
  }

  /** A new academy, with its first API key (shown only now). */
  async createAcademy(name: string, actor: string): Promise<{ tenant: TenantRef; created: CreatedAcademy }> {
    const created = await this.academies.create(name);
    const tenant = tenantRef('academy', String(created.acadId));
    await this.record(actor, 'tenant.created', tenant, { name });
    return { tenant, created };
  }

  /** A new application of an HR client, with its secret (shown only now). */
  async createApplication(
    tenant: TenantRef,
    name: string,
    readOnly: boolean,
    actor: string,
  ): Promise<CreatedApplication> {
    const created = await this.clients.createApplication(hrTenantId(tenant.id), name, readOnly);
    await this.record(actor, 'application.created', tenant, {
      application_id: created.application_id,
      name,
      read_only: readOnly,
    });
    return created;
  }

  /**
   * Revokes an application of the client and its tokens (every process within a second). Another client's
   * application, or an unknown one, is "not found"; revoking a revoked one changes nothing.
   */
  async revokeApplication(tenant: TenantRef, applicationId: string, actor: string): Promise<void> {
    const clients = await this.clients.list();
    const owner = clients.find((c) => c.applications.some((a) => a.application_id === applicationId));
    // tenant-by-hand: the operator addresses a client; an application found among every client's must be its own.
    if (owner?.client_id !== tenant.id) {
      throw new NotFoundError('application', applicationId, `No application ${applicationId} of this client.`);
    }
    await this.clients.revokeApplication(applicationId);
    await this.onCredentialsChanged?.(tenant);
    await this.record(actor, 'application.revoked', tenant, { application_id: applicationId });
  }

  /** A new API key of an academy (shown only now); its other keys keep working for the grace period. */
  async rotateAcademyKey(tenant: TenantRef, actor: string): Promise<{ apikey: string; previousKeysExpireAt: string }> {
    const rotated = await this.academies.rotateKey(Number(tenant.id));
    await this.onCredentialsChanged?.(tenant);
    await this.record(actor, 'academy.key_rotated', tenant, { previous_keys_expire_at: rotated.previousKeysExpireAt });
    return { apikey: rotated.apikey, previousKeysExpireAt: rotated.previousKeysExpireAt };
  }

  private record(actor: string, action: string, tenant: TenantRef, detail: Record<string, unknown>): Promise<void> {
    return this.audit.record({ at: this.clock.wall(), actor, action, target: tenant.key, detail });
  }
}
