import { sql } from 'kysely';
import type { Db, DialectName } from '../../platform/db/database.js';
import { readSchema, type SnapshotPlan, type SnapshotTable } from './catalogue.js';

/**
 * Full-text tables: derived from their articles, and of another shape on each database (SQLite's FTS5 table,
 * PostgreSQL's tsvector). A portable file leaves them out; an import writes them again (`rebuildSearch`).
 */
export const DERIVED_TABLES: readonly string[] = ['pa_kb_article_fts'];

/**
 * Columns holding another table's integer key with no foreign key declared (the schema cannot tell them): an
 * import moves them with the key they refer to.
 */
export const UNDECLARED_KEY_LINKS: readonly { table: string; column: string; parent: string }[] = [
  { table: 'hr_distributions', column: 'project_pk', parent: 'hr_distribution_projects' },
  { table: 'hr_distribution_items', column: 'distribution_pk', parent: 'hr_distributions' },
];

/** What an import must renumber or rename so that a tenant's rows fit beside the installation's other tenants. */
export interface PortableKeys {
  /** Each table's integer key the database numbers (`pk`, an academy event's `id`): table → column. */
  serial: Map<string, string>;
  /** The columns referring to a serial key: `table.column` → the parent table. */
  serialRefs: Map<string, string>;
  /** Text columns unique across the whole installation (random ids such as a request's `id`): table → columns. */
  unique: Map<string, string[]>;
}

/** The tables a portable file carries, parents first: the tenant's row, then its tables but credentials and derived ones. */
export function portableTables(plan: SnapshotPlan): Pick<SnapshotTable, 'name' | 'columns'>[] {
  return [
    { name: plan.tenantRow.table, columns: plan.tenantRow.columns },
    ...plan.tables.filter((t) => !t.credentials && !DERIVED_TABLES.includes(t.name)),
  ];
}

/** The keys of the plan's tables, read from the database's schema. */
export async function readKeys(db: Db, dialect: DialectName, plan: SnapshotPlan): Promise<PortableKeys> {
  const names = new Set(portableTables(plan).map((t) => t.name));
  names.delete(plan.tenantRow.table);
  const tenantColumn = plan.tables.find((t) => !('parent' in t.scope))?.scope.column ?? '';
  const serial = new Map<string, string>();
  const uniques: { table: string; column: string }[] = [];
  if (dialect === 'postgres') {
    const defaults = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and column_default like 'nextval(%'`.execute(db);
    for (const r of defaults.rows) if (names.has(r.table_name)) serial.set(r.table_name, r.column_name);
    const indexes = await sql<{ table_name: string; column_name: string }>`
      select c.relname as table_name, a.attname as column_name
      from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace s on s.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum = i.indkey[0]
      where s.nspname = current_schema() and i.indisunique and i.indnatts = 1 and i.indpred is null`.execute(db);
    uniques.push(...indexes.rows.map((r) => ({ table: r.table_name, column: r.column_name })));
  } else {
    for (const table of plan.tables) {
      if (!names.has(table.name)) continue;
      const at = table.columns.indexOf(table.primaryKey[0] ?? '');
      if (table.primaryKey.length === 1 && /^integer$/i.test(table.types[at] ?? '')) {
        serial.set(table.name, table.primaryKey[0] as string);
      }
      const indexes = await sql<{ column_name: string }>`
        select ii.name as column_name from pragma_index_list(${table.name}) il
        join pragma_index_info(il.name) ii
        where il."unique" = 1 and il.partial = 0 and (select count(*) from pragma_index_info(il.name)) = 1`.execute(db);
      uniques.push(...indexes.rows.map((r) => ({ table: table.name, column: r.column_name })));
    }
  }
  const unique = new Map<string, string[]>();
  for (const u of uniques) {
    if (!names.has(u.table) || u.column === tenantColumn || serial.get(u.table) === u.column) continue;
    unique.set(u.table, [...(unique.get(u.table) ?? []), u.column]);
  }
  const serialRefs = new Map<string, string>();
  const schema = await readSchema(db, dialect);
  for (const name of names) {
    for (const fk of schema.get(name)?.foreignKeys ?? []) {
      if (fk.columns.length === 1 && serial.get(fk.table) === fk.refColumns[0]) {
        serialRefs.set(`${name}.${fk.columns[0]}`, fk.table);
      }
    }
  }
  for (const link of UNDECLARED_KEY_LINKS) serialRefs.set(`${link.table}.${link.column}`, link.parent);
  return { serial, serialRefs, unique };
}
