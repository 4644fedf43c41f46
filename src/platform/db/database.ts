import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import type { Tables } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

export type Db = Kysely<Tables>;

export interface Database {
  db: Db;
  dialect: DialectName;
  /** Where the data lives, without credentials (for log lines). */
  description: string;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

function pgTypes(): pg.CustomTypesConfig {
  return {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      // Instants and counters are bigint columns well inside 2^53: read them as numbers.
      if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
      return pg.types.getTypeParser(oid, format);
    },
  } as pg.CustomTypesConfig;
}

export function sqlitePath(dataDir: string): string {
  return path.join(dataDir, 'atrium.sqlite');
}

/** Opens the database the configuration names: PostgreSQL with DATABASE_URL, else SQLite in the data directory. */
export function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'dbPoolSize'>): Database {
  if (config.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: config.dbPoolSize,
      types: pgTypes(),
    });
    // An idle client losing its connection must not crash the process.
    pool.on('error', () => {});
    const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
    const url = new URL(config.databaseUrl);
    return {
      db,
      dialect: 'postgres',
      description: `postgres://${url.hostname}:${url.port || 5432}${url.pathname}`,
      async ping() {
        await sql`select 1`.execute(db);
      },
      close: once(() => db.destroy()),
    };
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const file = sqlitePath(config.dataDir);
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // FULL: a write acknowledged to a caller survives a power cut, not only a crash.
  sqlite.pragma('synchronous = FULL');
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return {
    db,
    dialect: 'sqlite',
    description: file,
    async ping() {
      await sql`select 1`.execute(db);
    },
    close: once(() => db.destroy()),
  };
}

/**
 * better-sqlite3 with a cache of prepared statements, by SQL text. Kysely prepares every query it runs, and
 * preparing (parsing and planning) costs more than running most of Atrium's indexed queries: the cache saves a
 * large share of each request's database time (docs/PERFORMANCE.md). A statement still being iterated is never
 * handed out twice; SQLite re-prepares a cached statement by itself after a schema change.
 */
export function withStatementCache(
  sqlite: SqliteDatabase.Database,
  capacity = 1000,
): { prepare(sql: string): SqliteDatabase.Statement; close(): void } {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    prepare(text: string) {
      const cached = cache.get(text);
      if (cached && !cached.busy) return cached;
      const statement = sqlite.prepare(text);
      if (cache.size >= capacity) cache.delete(cache.keys().next().value as string);
      cache.set(text, statement);
      return statement;
    },
    close() {
      cache.clear();
      sqlite.close();
    },
  };
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => {
    done ??= fn();
    return done;
  };
}

/** True when a driver error is a unique-constraint violation, on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
