import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Database, DialectName } from './database.js';
import * as m0001 from './migrations/0001_foundation.js';
import * as m0002 from './migrations/0002_academy.js';
import * as m0003 from './migrations/0003_employees.js';
import * as m0004 from './migrations/0004_files.js';
import * as m0005 from './migrations/0005_hr_users.js';
import * as m0006 from './migrations/0006_documents.js';
import * as m0007 from './migrations/0007_knowledge.js';
import * as m0008 from './migrations/0008_requests.js';
import * as m0009 from './migrations/0009_processes.js';
import * as m0010 from './migrations/0010_collation.js';
import * as m0011 from './migrations/0011_event_indexes.js';

type AnyDb = Kysely<Record<string, unknown>>;

interface DialectMigration {
  up(db: AnyDb, dialect: DialectName): Promise<void>;
  down?(db: AnyDb, dialect: DialectName): Promise<void>;
}

/** Every migration, in order. Each is written once, with the dialect as an argument where spelling differs. */
const MIGRATIONS: Record<string, DialectMigration> = {
  '0001_foundation': m0001,
  '0002_academy': m0002,
  '0003_employees': m0003,
  '0004_files': m0004,
  '0005_hr_users': m0005,
  '0006_documents': m0006,
  '0007_knowledge': m0007,
  '0008_requests': m0008,
  '0009_processes': m0009,
  '0010_collation': m0010,
  '0011_event_indexes': m0011,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: DialectName) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, migration] of Object.entries(MIGRATIONS)) {
      out[name] = {
        up: async (db) => {
          // A migration may rewrite big tables: the server's statement timeout does not apply to it.
          if (this.dialect === 'postgres') await sql`set local statement_timeout = 0`.execute(db);
          await migration.up(db as AnyDb, this.dialect);
        },
        ...(migration.down ? { down: (db) => migration.down?.(db as AnyDb, this.dialect) ?? Promise.resolve() } : {}),
      };
    }
    return out;
  }
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Applies every pending migration; returns the names applied. Safe to run from several processes at once. */
export async function migrateToLatest(database: Database): Promise<string[]> {
  const migrator = new Migrator({ db: database.db, provider: new StaticProvider(database.dialect) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new MigrationError(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Applies the migrations up to and including `name` (tests use it to build a previous release's schema).
 * Returns the names applied.
 */
export async function migrateTo(database: Database, name: string): Promise<string[]> {
  if (!(name in MIGRATIONS)) throw new MigrationError(`no migration named ${name}`);
  const migrator = new Migrator({ db: database.db, provider: new StaticProvider(database.dialect) });
  const { error, results } = await migrator.migrateTo(name);
  if (error)
    throw new MigrationError(`migration to ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export const migrationNames = Object.keys(MIGRATIONS);
