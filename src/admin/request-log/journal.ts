import fs from 'node:fs';
import path from 'node:path';
import { type Database, type Db, openSqliteFile, type RawSqlite } from '../../platform/db/database.js';

/** The request log's own database file on SQLite, in the data directory (docs/admin.md, "Request log"). */
export const JOURNAL_FILE = 'request-log.sqlite';

/** The journal file's schema version (`user_version`): the tables below, as migrations 0025, 0050 and 0060 left them. */
const SCHEMA_VERSION = 1;

const SCHEMA = `
create table if not exists request_log (
  seq integer primary key autoincrement,
  tenant text not null,
  credential_id text,
  at integer not null,
  tenant_at integer,
  method text not null,
  path text not null,
  operation_id text,
  status integer not null,
  duration_ms real not null,
  request_headers text not null,
  request_body text,
  response_headers text not null,
  response_body text,
  fault_id text,
  flags text not null,
  bytes integer not null default 0
);
create index if not exists request_log_tenant_seq on request_log (tenant, seq);
create index if not exists request_log_at on request_log (at);
create table if not exists request_log_usage (
  tenant text primary key,
  calls integer not null,
  bytes integer not null
);`;

/**
 * The journal's page size: a call of up to about 32 KB (a list's answer, a body cut at the 16 KiB cap) fits in one
 * page instead of a chain of overflow pages, so writing it and deleting it when its tenant passes a cap touch one
 * page; small calls cost the same as with SQLite's default 4 KiB.
 */
const PAGE_SIZE = 32_768;

/** Where the request log is written and read. */
export interface Journal {
  /** The handle of the log's tables (opened on first use). */
  db(): Db;
  /** False on PostgreSQL: the log's tables are the tenants' database's own, and share its transactions. */
  readonly separate: boolean;
  close(): Promise<void>;
}

export interface JournalSettings {
  dataDir: string;
  busyTimeoutMs: number;
  log?: { warn(obj: object, msg: string): void };
}

function createSchema(sqlite: RawSqlite): void {
  const version = Number(sqlite.pragma('user_version', { simple: true }));
  if (version > SCHEMA_VERSION) {
    throw new Error(`${JOURNAL_FILE} was written by a newer Atrium (schema ${version}); remove it to start a new log`);
  }
  sqlite.exec(SCHEMA);
  sqlite.pragma(`user_version = ${SCHEMA_VERSION}`);
}

/** The file and its WAL and shared-memory companions. */
export function journalFiles(dataDir: string): string[] {
  const file = path.join(dataDir, JOURNAL_FILE);
  return [file, `${file}-wal`, `${file}-shm`];
}

/** SQLite's answer for a file that is not a database, or a damaged one. */
function isDamaged(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB';
}

/**
 * The request log's storage. On PostgreSQL, the tenants' database (its own tables, written in batches). On SQLite,
 * its own file in the data directory, so that its writes never queue behind the tenants' transactions, with
 * 32 KiB pages and `synchronous = off`: a crash of the process loses nothing written; a power cut may lose the last batches, never
 * the tenants' data. A damaged file is replaced by an empty one (the log is observation, not data), with a warning.
 */
export function openJournal(database: Database, settings: JournalSettings): Journal {
  if (database.dialect === 'postgres') {
    return { db: () => database.db, separate: false, close: async () => {} };
  }
  let opened: Database | undefined;
  const open = (): Database => {
    const file = path.join(settings.dataDir, JOURNAL_FILE);
    const options = {
      busyTimeoutMs: settings.busyTimeoutMs,
      cacheMb: 4,
      synchronous: 'off' as const,
      pageSize: PAGE_SIZE,
    };
    try {
      return openSqliteFile(file, { ...options, prepare: createSchema });
    } catch (err) {
      if (!isDamaged(err)) throw err;
      settings.log?.warn({ err, file }, 'the request log file was damaged; a new, empty log replaces it');
      for (const f of journalFiles(settings.dataDir)) fs.rmSync(f, { force: true });
      return openSqliteFile(file, { ...options, prepare: createSchema });
    }
  };
  return {
    db: () => {
      opened ??= open();
      return opened.db;
    },
    separate: true,
    close: async () => {
      await opened?.close();
    },
  };
}
