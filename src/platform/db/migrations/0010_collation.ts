import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../database.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * Dialect parity of text (docs/SCALING.md, "Behaviour on both databases").
 *
 * - Every text column of PostgreSQL gets the `C` collation, whatever the database's locale: text then sorts and
 *   compares by code point, as SQLite's BINARY collation does, so lists sorted by a name and keyset cursors
 *   over them give the same order on both, and `lower()` folds the same letters (ASCII) as SQLite's.
 * - `atrium_fold(text)`: the case folding of case-insensitive search (`containsText`), full Unicode lower case on
 *   both: PostgreSQL's ICU root locale when the server has ICU, else the database's own `lower()`. SQLite's is a
 *   function registered on each connection (`openDatabase`).
 *
 * A later migration adding text columns on PostgreSQL calls `textColumnsCollateC` (a test checks every column).
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  if (dialect !== 'postgres') return;
  await textColumnsCollateC(db);
  const icu = await sql<{ n: number }>`select count(*) as n from pg_collation where collname = 'und-x-icu'`.execute(db);
  const fold = Number(icu.rows[0]?.n ?? 0) > 0 ? sql.raw(`lower(t collate "und-x-icu")`) : sql.raw('lower(t)');
  await sql`create or replace function atrium_fold(t text) returns text
    language sql immutable strict parallel safe as $$ select ${fold} $$`.execute(db);
}

/** Gives every varchar and text column of Atrium's tables (not Kysely's) the `C` collation. */
export async function textColumnsCollateC(db: AnyDb): Promise<void> {
  const columns = await sql<{ table_name: string; column_name: string; type: string }>`
    select c.relname as table_name, a.attname as column_name, format_type(a.atttypid, a.atttypmod) as type
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_collation co on co.oid = a.attcollation
    where n.nspname = current_schema() and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
      and a.atttypid in ('text'::regtype, 'varchar'::regtype)
      and c.relname not like 'kysely\\_%'
      and coalesce(co.collname, '') <> 'C'
    order by c.relname, a.attnum`.execute(db);
  const byTable = new Map<string, { column_name: string; type: string }[]>();
  for (const row of columns.rows) byTable.set(row.table_name, [...(byTable.get(row.table_name) ?? []), row]);
  for (const [table, cols] of byTable) {
    const changes = cols.map((c) => sql`alter column ${sql.id(c.column_name)} type ${sql.raw(c.type)} collate "C"`);
    await sql`alter table ${sql.id(table)} ${sql.join(changes, sql`, `)}`.execute(db);
  }
}
