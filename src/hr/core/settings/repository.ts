import type { Selectable } from 'kysely';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { SettingsChanges } from './schemas.js';
import type { HrConfigUpdatesTable } from './tables.js';

/** A client's settings as changed from their defaults. */
export interface SettingsRecord {
  changes: SettingsChanges;
  updatedAt: number;
}

/** A configuration update an operator staged. */
export interface ConfigUpdateRecord {
  id: string;
  changes: SettingsChanges;
  createdAt: number;
  appliedAt: number | null;
}

function toConfigUpdate(row: Omit<Selectable<HrConfigUpdatesTable>, 'client_id'>): ConfigUpdateRecord {
  return {
    id: row.id,
    changes: JSON.parse(row.changes) as SettingsChanges,
    createdAt: Number(row.created_at),
    appliedAt: row.applied_at === null ? null : Number(row.applied_at),
  };
}

/** Clients' changed settings and their staged configuration updates. */
export class SettingsRepository extends HrRepository {
  async find(clientId: HrTenantId): Promise<SettingsRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_client_settings as s')
      .select(['s.changes', 's.updated_at'])
      .executeTakeFirst();
    return row ? { changes: JSON.parse(row.changes) as SettingsChanges, updatedAt: Number(row.updated_at) } : undefined;
  }

  /** Writes the client's whole set of changes. */
  async save(clientId: HrTenantId, changes: SettingsChanges, at: number): Promise<void> {
    const text = JSON.stringify(changes);
    const inserted = await this.tenant(clientId).insertIfAbsent(
      'hr_client_settings',
      { changes: text, created_at: at, updated_at: at },
      ['client_id'],
    );
    if (!inserted) {
      await this.tenant(clientId)
        .updateTable('hr_client_settings as s')
        .set({ changes: text, updated_at: at })
        .execute();
    }
  }

  async insertUpdate(clientId: HrTenantId, update: ConfigUpdateRecord): Promise<void> {
    await this.tenant(clientId)
      .insertInto('hr_config_updates', {
        id: update.id,
        changes: JSON.stringify(update.changes),
        created_at: update.createdAt,
        applied_at: update.appliedAt,
      })
      .execute();
  }

  async findUpdate(clientId: HrTenantId, id: string): Promise<ConfigUpdateRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_config_updates as u')
      .select(['u.id', 'u.changes', 'u.created_at', 'u.applied_at'])
      .where('u.id', '=', id)
      .executeTakeFirst();
    return row ? toConfigUpdate(row) : undefined;
  }

  /** Marks a pending update applied; false when it was applied already (or is unknown). */
  async markApplied(clientId: HrTenantId, id: string, at: number): Promise<boolean> {
    const result = await this.tenant(clientId)
      .updateTable('hr_config_updates as u')
      .set({ applied_at: at })
      .where('u.id', '=', id)
      .where('u.applied_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
