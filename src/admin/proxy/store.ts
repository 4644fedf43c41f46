/**
 * The validation proxy's journal (docs/proxy.md, "The journal"): a SQLite file of its own (`proxy.sqlite` in the
 * data directory, or `--journal FILE`), whatever database Atrium itself uses. It keeps no body: one row per
 * operation (calls seen, calls that departed) and one per distinct departure (operation, direction, kind, field,
 * expected, actual) with its count, first and last instant, and one redacted example (method, path, status).
 */
import fs from 'node:fs';
import path from 'node:path';
import { type RawSqlite, Sqlite } from '../../platform/db/database.js';
import type { Departure } from './check.js';

export const PROXY_JOURNAL_FILE = 'proxy.sqlite';

const SCHEMA_VERSION = 1;

const SCHEMA = `
create table if not exists proxy_operations (
  operation text primary key,
  api text,
  calls integer not null,
  departing integer not null,
  first_seen integer not null,
  last_seen integer not null
);
create table if not exists proxy_departures (
  operation text not null,
  direction text not null,
  kind text not null,
  field text not null,
  expected text not null,
  actual text not null,
  count integer not null,
  first_seen integer not null,
  last_seen integer not null,
  example text not null,
  primary key (operation, direction, kind, field, expected, actual)
);`;

export interface Example {
  method: string;
  /** Path and query, secrets redacted. */
  path: string;
  status: number;
}

export interface DepartureRow extends Departure {
  count: number;
  first_seen: string;
  last_seen: string;
  example: Example;
}

export interface OperationReport {
  operation: string;
  api: 'hr' | 'academy' | null;
  calls: number;
  /** Calls with at least one departure. */
  departing: number;
  first_seen: string;
  last_seen: string;
  departures: DepartureRow[];
}

export interface ProxyReport {
  operations: OperationReport[];
  /** All departures' counts summed. */
  departures: number;
  calls: number;
}

function open(file: string): RawSqlite {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  const sqlite = new Sqlite(file);
  const version = Number(sqlite.pragma('user_version', { simple: true }));
  if (version > SCHEMA_VERSION) {
    sqlite.close();
    throw new Error(`${file} was written by a newer Atrium (schema ${version})`);
  }
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.exec(SCHEMA);
  sqlite.pragma(`user_version = ${SCHEMA_VERSION}`);
  return sqlite;
}

const iso = (ms: number) => new Date(ms).toISOString();

export class DepartureStore {
  private readonly sqlite: RawSqlite;
  private readonly upsertOperation;
  private readonly upsertDeparture;

  constructor(readonly file: string) {
    this.sqlite = open(file);
    this.upsertOperation = this.sqlite.prepare(
      `insert into proxy_operations (operation, api, calls, departing, first_seen, last_seen) values (?, ?, 1, ?, ?, ?)
       on conflict (operation) do update set calls = calls + 1, departing = departing + excluded.departing,
       last_seen = excluded.last_seen`,
    );
    this.upsertDeparture = this.sqlite.prepare(
      `insert into proxy_departures (operation, direction, kind, field, expected, actual, count, first_seen, last_seen, example)
       values (?, ?, ?, ?, ?, ?, 1, ?, ?, ?)
       on conflict (operation, direction, kind, field, expected, actual) do update set count = count + 1,
       last_seen = excluded.last_seen`,
    );
  }

  /** One call's operation and departures (already redacted), in one transaction. */
  record(operation: string, api: string | null, departures: readonly Departure[], example: Example, at: number): void {
    this.sqlite.transaction(() => {
      this.upsertOperation.run(operation, api, departures.length > 0 ? 1 : 0, at, at);
      const text = JSON.stringify(example);
      for (const d of departures) {
        this.upsertDeparture.run(operation, d.direction, d.kind, d.field, d.expected, d.actual, at, at, text);
      }
    })();
  }

  report(): ProxyReport {
    return readReport(this.sqlite);
  }

  close(): void {
    this.sqlite.close();
  }
}

interface OperationRow {
  operation: string;
  api: 'hr' | 'academy' | null;
  calls: number;
  departing: number;
  first_seen: number;
  last_seen: number;
}

interface StoredDeparture extends Omit<DepartureRow, 'first_seen' | 'last_seen' | 'example'> {
  operation: string;
  first_seen: number;
  last_seen: number;
  example: string;
}

function readReport(sqlite: RawSqlite): ProxyReport {
  const operations = sqlite
    .prepare('select * from proxy_operations order by departing desc, operation')
    .all() as OperationRow[];
  const rows = sqlite
    .prepare('select * from proxy_departures order by operation, count desc, direction, kind, field')
    .all() as StoredDeparture[];
  const byOperation = new Map<string, DepartureRow[]>();
  for (const { operation, first_seen, last_seen, example, ...rest } of rows) {
    const list = byOperation.get(operation) ?? [];
    list.push({
      ...rest,
      first_seen: iso(first_seen),
      last_seen: iso(last_seen),
      example: JSON.parse(example) as Example,
    });
    byOperation.set(operation, list);
  }
  const out = operations.map((o) => ({
    ...o,
    first_seen: iso(o.first_seen),
    last_seen: iso(o.last_seen),
    departures: byOperation.get(o.operation) ?? [],
  }));
  return {
    operations: out,
    departures: rows.reduce((sum, r) => sum + r.count, 0),
    calls: operations.reduce((sum, o) => sum + o.calls, 0),
  };
}

/** The report of a journal file, read only (`atrium proxy report`); undefined when there is no such file. */
export function reportOf(file: string): ProxyReport | undefined {
  if (!fs.existsSync(file)) return undefined;
  const sqlite = new Sqlite(file, { readonly: true, fileMustExist: true });
  try {
    return readReport(sqlite);
  } finally {
    sqlite.close();
  }
}
