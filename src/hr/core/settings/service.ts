import { randomUUID } from 'node:crypto';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { ConflictError, type FieldError, FieldValidationError, NotFoundError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import { isZone } from '../../../platform/timezones.js';
import type { Audited } from '../../module.js';
import type { ClientRecord } from '../tenants/repository.js';
import { settingsEvents } from './events.js';
import type { ConfigUpdateRecord, SettingsRepository } from './repository.js';
import type { SettingsChanges } from './schemas.js';

export interface SettingsWork {
  settings: SettingsRepository;
}

/** The sections of a client's settings, every field filled (the wire adds the `url`s and the client's identity). */
export type ResolvedSettings = { [S in keyof SettingsChanges]-?: Required<NonNullable<SettingsChanges[S]>> };

/** What a client's settings are until an operator changes them (docs/hr-api.md, "Client and settings"). */
export const DEFAULT_SETTINGS: ResolvedSettings = {
  client: {
    title: 'HR Service Portal',
    employee_available_languages: ['en-us', 'fr-fr'],
    timezone: 'UTC',
    installed_modules: ['core', 'employee_file_management', 'electronic_signature'],
  },
  core: {
    enable_us_formats: false,
    available_languages: ['en-us', 'fr-fr'],
    default_language: 'en-us',
    allow_external_id_update: true,
    authorize_access_outside_sso: false,
    allow_password_reset: true,
    password_options: { number_passwords_remembered: 5, max_changes_per_day: 3 },
    store_authn_id: null,
  },
  process_automation: { enabled: true, new_hire_experience: true },
  knowledge_base: {
    enabled: true,
    display_popular_forms: true,
    display_popular_articles: true,
    display_featured_forms: true,
    display_featured_articles: true,
    display_employee_search_by_scope: false,
  },
  case_management: {
    enabled: true,
    employee_can_reopen_request: true,
    language: 'en',
    calendar: 'fr',
    display_default_forms: true,
    display_popular_forms: true,
    display_featured_forms: true,
    allow_search_by_scope: false,
    allow_archive_in_efm: true,
    allow_teams: false,
    allow_reassignation: true,
  },
};

const SECTIONS = Object.keys(DEFAULT_SETTINGS) as (keyof ResolvedSettings)[];

/** `changes` laid over `base`, section by section (a field of `changes` wins). */
function merge<T extends SettingsChanges>(base: T, changes: SettingsChanges): T {
  const out: Record<string, unknown> = { ...base };
  for (const section of SECTIONS) {
    const added = changes[section];
    if (added) out[section] = { ...(base[section] ?? {}), ...added };
  }
  return out as T;
}

/** The rules a schema cannot say: a known time zone, a default language among the available ones. */
function check(resolved: ResolvedSettings): void {
  const errors: FieldError[] = [];
  if (!isZone(resolved.client.timezone)) {
    errors.push({ field: 'client.timezone', code: 'invalid', message: 'is not a known IANA time zone' });
  }
  if (!resolved.core.available_languages.includes(resolved.core.default_language)) {
    errors.push({
      field: 'core.default_language',
      code: 'invalid',
      message: 'must be one of core.available_languages',
    });
  }
  if (!resolved.client.installed_modules.includes('core')) {
    errors.push({ field: 'client.installed_modules', code: 'invalid', message: 'must include core' });
  }
  if (errors.length > 0) throw new FieldValidationError(errors);
}

/**
 * A client's settings (`GET /client`, `GET /settings/…`): defaults, changed by an operator through the admin API,
 * directly or as a staged configuration update that `POST /platform_updates` applies.
 */
export class SettingsService {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<SettingsWork>>,
    private readonly clock: Clock,
    private readonly findClient: (clientId: HrTenantId) => Promise<ClientRecord | undefined>,
  ) {}

  /** Every section with every field, and when the settings last changed (the client's creation if never). */
  async resolve(
    clientId: HrTenantId,
  ): Promise<{ settings: ResolvedSettings; client: ClientRecord; updatedAt: number }> {
    const client = await this.findClient(clientId);
    if (!client) throw new NotFoundError('client', clientId);
    const stored = await this.work.read.settings.find(clientId);
    return {
      settings: merge(DEFAULT_SETTINGS, stored?.changes ?? {}),
      client,
      updatedAt: stored?.updatedAt ?? client.createdAt,
    };
  }

  /** An operator's change: checked as a whole, recorded as `settings.updated`. */
  async change(clientId: HrTenantId, changes: SettingsChanges): Promise<void> {
    await this.work.run(async (tx) => this.applyIn(tx, clientId, changes));
  }

  /** Stages a configuration update for `POST /platform_updates`; checked now against the current settings. */
  async stage(clientId: HrTenantId, changes: SettingsChanges): Promise<ConfigUpdateRecord> {
    return this.work.run(async (tx) => {
      const stored = await tx.settings.find(clientId);
      check(merge(merge(DEFAULT_SETTINGS, stored?.changes ?? {}), changes));
      const update: ConfigUpdateRecord = { id: randomUUID(), changes, createdAt: this.clock.now(), appliedAt: null };
      await tx.settings.insertUpdate(clientId, update);
      return update;
    });
  }

  async findUpdate(clientId: HrTenantId, id: string): Promise<ConfigUpdateRecord> {
    const update = await this.work.read.settings.findUpdate(clientId, id);
    if (!update) throw new NotFoundError('config_update', id);
    return update;
  }

  /** `POST /platform_updates`: applies a staged update once; a second time is a 409. */
  async applyUpdate(clientId: HrTenantId, id: string): Promise<void> {
    await this.work.run(async (tx) => {
      const update = await tx.settings.findUpdate(clientId, id);
      if (!update) throw new NotFoundError('config_update', id);
      if (!(await tx.settings.markApplied(clientId, id, this.clock.now()))) {
        throw new ConflictError(`config_update ${JSON.stringify(id)} was applied already`);
      }
      await this.applyIn(tx, clientId, update.changes);
    });
  }

  private async applyIn(tx: Audited<SettingsWork>, clientId: HrTenantId, changes: SettingsChanges): Promise<void> {
    const stored = await tx.settings.find(clientId);
    const all = merge(stored?.changes ?? {}, changes);
    check(merge(DEFAULT_SETTINGS, all));
    await tx.settings.save(clientId, all, this.clock.now());
    await tx.audit.record(clientId, settingsEvents, 'updated', { id: clientId, name: 'settings', data: changes });
  }
}
