import type { ConfigUpdateRecord } from '../../hr/core/settings/repository.js';
import type { SettingsChanges } from '../../hr/core/settings/schemas.js';
import type { SettingsService } from '../../hr/core/settings/service.js';
import { hrTenantId } from '../../platform/db/tenant.js';
import { NotFoundError } from '../../platform/errors.js';
import type { Clock } from '../../platform/time.js';
import type { AdminAuditRepository } from '../audit/repository.js';
import type { TenantRef } from '../tenant-ref.js';

/** What the admin API needs of the HR API's settings (its SettingsService, which the composition hands over). */
export type HrSettings = Pick<SettingsService, 'resolve' | 'change' | 'stage' | 'findUpdate'>;

/**
 * An operator's hand on a client's settings (docs/admin.md, "Settings"): reading them all, changing them at once,
 * or staging a configuration update that the client applies with `POST /platform_updates`. Each write is audited
 * right after it commits, in the tenant's time like the HR API's own writes.
 */
export class AdminSettingsService {
  constructor(
    private readonly settings: HrSettings,
    private readonly audit: AdminAuditRepository,
    private readonly clock: Clock,
  ) {}

  private hr(tenant: TenantRef) {
    if (tenant.kind !== 'hr') throw new NotFoundError('settings', tenant.id, 'An academy has no HR settings.');
    return hrTenantId(tenant.id);
  }

  async show(tenant: TenantRef) {
    const clientId = this.hr(tenant);
    return this.clock.runAs(tenant.key, () => this.settings.resolve(clientId));
  }

  async change(tenant: TenantRef, changes: SettingsChanges, actor: string): Promise<void> {
    const clientId = this.hr(tenant);
    await this.clock.runAs(tenant.key, () => this.settings.change(clientId, changes));
    await this.audit.record({
      at: this.clock.wall(),
      actor,
      action: 'settings.changed',
      target: tenant.key,
      detail: { changes },
    });
  }

  async stage(tenant: TenantRef, changes: SettingsChanges, actor: string): Promise<ConfigUpdateRecord> {
    const clientId = this.hr(tenant);
    const update = await this.clock.runAs(tenant.key, () => this.settings.stage(clientId, changes));
    await this.audit.record({
      at: this.clock.wall(),
      actor,
      action: 'config_update.staged',
      target: tenant.key,
      detail: { config_update_id: update.id },
    });
    return update;
  }

  async findUpdate(tenant: TenantRef, id: string): Promise<ConfigUpdateRecord> {
    const clientId = this.hr(tenant);
    return this.settings.findUpdate(clientId, id);
  }
}
