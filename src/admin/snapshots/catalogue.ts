import { sql } from 'kysely';
import type { Db, DialectName } from '../../platform/db/database.js';
import type { TenantKind } from '../tenant-ref.js';

/** A table of the database as the schema describes it. */
export interface TableInfo {
  name: string;
  /** The columns a row is saved and inserted with: every column but generated ones, in the table's order. */
  columns: string[];
  /** Its foreign keys: `columns` refer to `refColumns` of `table`. */
  foreignKeys: { columns: string[]; table: string; refColumns: string[] }[];
  /** Its primary key's columns (a virtual table's: `rowid`); read on SQLite only, empty on PostgreSQL. */
  primaryKey: string[];
  /** The declared type of each of `columns` (SQLite only, for a staging table of the same affinities). */
  types: string[];
}

/**
 * How the rows of one table that belong to a tenant are found: by its tenant column, or (a child table without one)
 * by a key column whose values are those of a column of its parent's tenant rows.
 */
export type Scope = { column: string } | { column: string; parent: string; parentColumn: string; parentScope: Scope };

/** A table a snapshot saves and restores. */
export interface SnapshotTable {
  name: string;
  columns: string[];
  scope: Scope;
  /** The primary key's columns (SQLite; empty on PostgreSQL): a restore on SQLite merges by them. */
  primaryKey: string[];
  /** The columns' declared types (SQLite; empty on PostgreSQL). */
  types: string[];
  /** Kept across a restore or a reset unless credentials are asked for (an HR client's applications, academy keys). */
  credentials: boolean;
}

/** What a snapshot of one kind of tenant covers, in an order where a table comes after every table it refers to. */
export interface SnapshotPlan {
  kind: TenantKind;
  /** The tenant's own row (`hr_clients`, `academies`): kept; with credentials asked for, its columns restored. */
  tenantRow: { table: string; key: string; columns: string[] };
  tables: SnapshotTable[];
}

/** Each kind's tenant column, its tenant row, and its credential tables. */
const KINDS: Readonly<Record<TenantKind, { column: string; row: string; credentials: readonly string[] }>> = {
  hr: { column: 'client_id', row: 'hr_clients', credentials: ['hr_applications'] },
  academy: { column: 'academy_id', row: 'academies', credentials: ['academy_api_keys'] },
};

/**
 * Links the schema cannot tell: SQLite's full-text table of the knowledge articles is a virtual table (no foreign
 * key), its rowid the article's `pk` (PostgreSQL's has a real foreign key, found like any other).
 */
const VIRTUAL_LINKS: readonly { table: string; column: string; parent: string; parentColumn: string }[] = [
  { table: 'pa_kb_article_fts', column: 'rowid', parent: 'pa_kb_articles', parentColumn: 'pk' },
];

/**
 * The tables that hold no tenant's data though they name tenants (docs/admin.md, "Snapshots"): the admin side's
 * own, the installation's, and the per-tenant state a restore handles on its own (jobs, idempotency keys).
 */
export const NOT_TENANT_DATA: readonly string[] = [
  'settings',
  'signing_keys',
  'auth_events',
  'blobs',
  'blob_chunks',
  'blob_staging',
  'idempotency_keys',
  'jobs',
  'kysely_migration',
  'kysely_migration_lock',
  'admin_tokens',
  'admin_audit',
  'admin_sessions',
  'tenant_clocks',
  'tenant_faults',
  'request_log',
  'request_log_usage',
  'tenant_snapshots',
  'renditions',
  'rendition_pages',
  'tenant_snapshot_tables',
  'tenant_snapshot_files',
];

/** Every table of the database, with its columns and foreign keys, read from the schema itself. */
export async function readSchema(db: Db, dialect: DialectName): Promise<Map<string, TableInfo>> {
  const tables = new Map<string, TableInfo>();
  if (dialect === 'postgres') {
    const columns = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and is_generated = 'NEVER'
      order by table_name, ordinal_position`.execute(db);
    for (const c of columns.rows) {
      const info = tables.get(c.table_name) ?? {
        name: c.table_name,
        columns: [],
        foreignKeys: [],
        primaryKey: [],
        types: [],
      };
      info.columns.push(c.column_name);
      tables.set(c.table_name, info);
    }
    const keys = await sql<{ table_name: string; ref_table: string; columns: string[]; ref_columns: string[] }>`
      select c.conrelid::regclass::text as table_name, c.confrelid::regclass::text as ref_table,
        array(select a.attname::text from unnest(c.conkey) with ordinality k(n, i)
              join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.i) as columns,
        array(select a.attname::text from unnest(c.confkey) with ordinality k(n, i)
              join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n order by k.i) as ref_columns
      from pg_constraint c join pg_namespace s on s.oid = c.connamespace
      where c.contype = 'f' and s.nspname = current_schema()`.execute(db);
    for (const k of keys.rows) {
      tables
        .get(k.table_name.replace(/^"|"$/g, ''))
        ?.foreignKeys.push({ columns: k.columns, table: k.ref_table.replace(/^"|"$/g, ''), refColumns: k.ref_columns });
    }
    return tables;
  }
  const master = await sql<{ name: string; sql: string | null }>`
    select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db);
  const virtual = master.rows.filter((t) => /^\s*create\s+virtual\s+table/i.test(t.sql ?? '')).map((t) => t.name);
  for (const { name } of master.rows) {
    // A virtual table's shadow tables (`<name>_data`, …) are its storage: its own rows are what is saved.
    if (virtual.some((v) => name.startsWith(`${v}_`))) continue;
    const cols = await sql<{ name: string; type: string; hidden: number; pk: number }>`
      select name, type, hidden, pk from pragma_table_xinfo(${name}) order by cid`.execute(db);
    const info: TableInfo = {
      name,
      // hidden: 1 a virtual table's hidden column, 2 and 3 generated columns.
      columns: cols.rows.filter((c) => c.hidden === 0).map((c) => c.name),
      types: cols.rows.filter((c) => c.hidden === 0).map((c) => c.type),
      foreignKeys: [],
      primaryKey: cols.rows
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name),
    };
    if (virtual.includes(name)) {
      info.columns.unshift('rowid');
      info.types.unshift('integer');
      info.primaryKey = ['rowid'];
    }
    const fks = await sql<{ id: number; table: string; from: string; to: string }>`
      select id, "table", "from", "to" from pragma_foreign_key_list(${name}) order by id, seq`.execute(db);
    const byId = new Map<number, TableInfo['foreignKeys'][number]>();
    for (const fk of fks.rows) {
      const key = byId.get(fk.id) ?? { columns: [], table: fk.table, refColumns: [] };
      key.columns.push(fk.from);
      key.refColumns.push(fk.to);
      byId.set(fk.id, key);
    }
    info.foreignKeys = [...byId.values()];
    tables.set(name, info);
  }
  return tables;
}

/**
 * What a snapshot of a tenant of `kind` saves, found in the schema: every table with the kind's tenant column, and
 * every table without one whose foreign key (or declared link) reaches such a table, children of children included.
 * Ordered so that a table comes after the tables it refers to (inserts in this order, deletes in reverse).
 */
export function planFor(kind: TenantKind, schema: Map<string, TableInfo>): SnapshotPlan {
  const { column, row, credentials } = KINDS[kind];
  const rowInfo = schema.get(row);
  if (!rowInfo) throw new Error(`The schema has no table ${row}.`);
  const scopes = new Map<string, Scope>();
  for (const info of schema.values()) {
    if (info.name !== row && info.columns.includes(column)) scopes.set(info.name, { column });
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const info of schema.values()) {
      if (scopes.has(info.name) || info.name === row || NOT_TENANT_DATA.includes(info.name)) continue;
      const links = [
        ...info.foreignKeys
          .filter((fk) => fk.columns.length === 1 && fk.table !== info.name)
          .map((fk) => ({
            column: fk.columns[0] as string,
            parent: fk.table,
            parentColumn: fk.refColumns[0] as string,
          })),
        ...VIRTUAL_LINKS.filter((l) => l.table === info.name),
      ];
      const link = links.find((l) => scopes.has(l.parent));
      if (!link) continue;
      scopes.set(info.name, { ...link, parentScope: scopes.get(link.parent) as Scope });
      grew = true;
    }
  }
  // Parents first: a table waits for every other planned table it refers to (a self-reference is one statement).
  const ordered: string[] = [];
  const pending = new Set([...scopes.keys()].sort());
  while (pending.size > 0) {
    const ready = [...pending].filter((name) => {
      const info = schema.get(name) as TableInfo;
      const parents = [
        ...info.foreignKeys.map((fk) => fk.table),
        ...VIRTUAL_LINKS.filter((l) => l.table === name).map((l) => l.parent),
      ];
      return parents.every((p) => p === name || !pending.has(p));
    });
    if (ready.length === 0) throw new Error(`Foreign keys in a cycle among ${[...pending].join(', ')}.`);
    for (const name of ready) {
      ordered.push(name);
      pending.delete(name);
    }
  }
  return {
    kind,
    tenantRow: { table: row, key: 'id', columns: rowInfo.columns },
    tables: ordered.map((name) => ({
      name,
      columns: (schema.get(name) as TableInfo).columns,
      primaryKey: (schema.get(name) as TableInfo).primaryKey,
      types: (schema.get(name) as TableInfo).types,
      scope: scopes.get(name) as Scope,
      credentials: credentials.includes(name),
    })),
  };
}
