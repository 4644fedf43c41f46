/** Column types of each client's V1 → V2 syntax migration, as Kysely sees them (instants in epoch ms, 0/1). */
export interface HrDocgenMigrationsTable {
  client_id: string;
  status: 'not_started' | 'in_progress' | 'completed' | 'failed';
  auto_start: number;
  /** How many times it was started (each run's job carries its number: an older run's job does nothing). */
  runs: number;
  started_at: number | null;
  ended_at: number | null;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_docgen_migrations: HrDocgenMigrationsTable;
  }
}
