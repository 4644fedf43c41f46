/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms). */

/** A client's settings as changed from the defaults (docs/hr-api.md, "Client and settings"): one row per client. */
export interface HrClientSettingsTable {
  client_id: string;
  /** JSON: the changed fields of each section (`SettingsChanges`); a field absent here has its default. */
  changes: string;
  created_at: number;
  updated_at: number;
}

/** A configuration update an operator staged, which `POST /platform_updates` applies. */
export interface HrConfigUpdatesTable {
  client_id: string;
  id: string;
  /** JSON: `SettingsChanges`. */
  changes: string;
  created_at: number;
  applied_at: number | null;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_client_settings: HrClientSettingsTable;
    hr_config_updates: HrConfigUpdatesTable;
  }
}
