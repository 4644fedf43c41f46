import fs from 'node:fs';
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Database, DialectName } from './database.js';

type AnyDb = Kysely<Record<string, unknown>>;

interface DialectMigration {
  up(db: AnyDb, dialect: DialectName): Promise<void>;
  down?(db: AnyDb, dialect: DialectName): Promise<void>;
}

/**
 * Every migration, in order: the files `migrations/NNNN_name.{ts,js}`, found by name, so adding a migration is
 * adding its file. Each is written once, with the dialect as an argument where spelling differs.
 */
const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);
const MIGRATION_FILE = /^(\d{4}_[a-z0-9_]+)\.(?:ts|js)$/;

const migrationFiles: Map<string, string> = new Map(
  fs
    .readdirSync(MIGRATIONS_DIR)
    .map((file) => [file.match(MIGRATION_FILE)?.[1], file] as const)
    .filter((entry): entry is readonly [string, string] => entry[0] !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);

let loaded: Promise<Record<string, DialectMigration>> | undefined;

function loadMigrations(): Promise<Record<string, DialectMigration>> {
  loaded ??= (async () => {
    const out: Record<string, DialectMigration> = {};
    for (const [name, file] of migrationFiles) {
      out[name] = (await import(new URL(file, MIGRATIONS_DIR).href)) as DialectMigration;
    }
    return out;
  })();
  return loaded;
}

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: DialectName) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, migration] of Object.entries(await loadMigrations())) {
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
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    // No migration ran: the database could not be reached or read at all; that error says why better than we can.
    if (failed === undefined) throw error;
    throw new MigrationError(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Applies the migrations up to and including `name` (tests use it to build a previous release's schema).
 * Returns the names applied.
 */
export async function migrateTo(database: Database, name: string): Promise<string[]> {
  if (!migrationFiles.has(name)) throw new MigrationError(`no migration named ${name}`);
  const migrator = new Migrator({ db: database.db, provider: new StaticProvider(database.dialect) });
  const { error, results } = await migrator.migrateTo(name);
  if (error)
    throw new MigrationError(`migration to ${name} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export const migrationNames = [...migrationFiles.keys()];
