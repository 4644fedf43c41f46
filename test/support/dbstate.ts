/** A digest of everything a server stores: every table's rows and, with SQLite, the blob files. */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Database } from '../../src/platform/db/database.js';

export type Snapshot = Map<string, string>;

/**
 * Tables every call writes to by design, left out of the digest: the request log records rejected calls too
 * (docs/admin.md, "Request log").
 */
const OBSERVATIONAL = new Set(['request_log', 'request_log_usage']);

async function tableNames(database: Database): Promise<string[]> {
  return (await allTableNames(database)).filter((name) => !OBSERVATIONAL.has(name));
}

async function allTableNames(database: Database): Promise<string[]> {
  if (database.dialect === 'postgres') {
    const { rows } = await sql<{ name: string }>`
      select tablename as name from pg_tables where schemaname = current_schema() order by tablename`.execute(
      database.db,
    );
    return rows.map((r) => r.name);
  }
  const { rows } = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(
    database.db,
  );
  return rows.map((r) => r.name);
}

function files(dir: string, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files(full, out);
    else out.push(`${full}:${fs.statSync(full).size}`);
  }
  return out.sort();
}

/** One digest per table (and one for the blob directory): compare two snapshots to see what a request changed. */
export async function snapshot(database: Database, dataDir?: string): Promise<Snapshot> {
  const out: Snapshot = new Map();
  const names = await tableNames(database);
  if (database.dialect === 'postgres') {
    // One round trip: a digest of the sorted text form of every row of every table.
    const parts = names.map(
      (n) =>
        `select '${n}' as name, coalesce(md5(string_agg(t::text, E'\\n' order by t::text)), '') as digest from "${n}" t`,
    );
    const { rows } = await sql<{ name: string; digest: string }>`${sql.raw(parts.join(' union all '))}`.execute(
      database.db,
    );
    for (const r of rows) out.set(r.name, r.digest);
  } else {
    for (const n of names) {
      const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(n)}`.execute(database.db);
      const lines = rows
        .map((r) => JSON.stringify(r, (_k, v) => (Buffer.isBuffer(v) ? v.toString('base64') : v)))
        .sort();
      out.set(n, createHash('sha256').update(lines.join('\n')).digest('hex'));
    }
  }
  if (dataDir)
    out.set(
      '(blob files)',
      createHash('sha256')
        .update(files(path.join(dataDir, 'blobs')).join('\n'))
        .digest('hex'),
    );
  return out;
}

/** The tables whose digest differs. */
export function changed(before: Snapshot, after: Snapshot): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((n) => before.get(n) !== after.get(n)).sort();
}
