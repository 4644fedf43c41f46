import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { BLOB_REFERENCES } from '../../platform/blobs/references.js';
import type { Db, DialectName } from '../../platform/db/database.js';
import type { Scope, SnapshotPlan, SnapshotTable } from './catalogue.js';

/** A snapshot as the domain sees it (instants in epoch ms). */
export interface SnapshotRecord {
  id: number;
  tenant: string;
  name: string;
  createdAt: number;
  createdBy: string;
  migration: string;
  rowsCount: number;
  filesCount: number;
  size: number;
}

/** A snapshot with the rows it saved of each table. */
export interface SnapshotDetail extends SnapshotRecord {
  tables: Record<string, number>;
}

/** What a restore or a reset did. */
export interface Replaced {
  /** Blobs the tenant's rows referred to before and no longer do: each may now be unreferenced. */
  formerFiles: string[];
  /** Rows deleted and rows inserted. */
  deleted: number;
  inserted: number;
  /** The tenant's pending background jobs, cancelled. */
  cancelledJobs: number;
}

/** A declared SQLite column type as written in a statement: letters, digits, spaces and a length only. */
function safeType(type: string | undefined): string {
  return type && /^[A-Za-z ]+(\([0-9, ]+\))?$/.test(type) ? type : '';
}

/** SQLite's page cache during a restore or a reset: 128 MiB (negative: KiB). */
const RESTORE_CACHE_KIB = -131_072;

/** The tenant's own row, saved with its tables under the row table's name. */
function tenantRowTable(plan: SnapshotPlan): SnapshotTable {
  const row = plan.tenantRow;
  return {
    name: row.table,
    columns: row.columns,
    scope: { column: row.key },
    primaryKey: [row.key],
    types: [],
    credentials: true,
  };
}

/** The tenant's rows of a table: `<column> = <tenant>`, or a child's key among its parent's tenant rows. */
function owned(scope: Scope, tenant: string | number): RawBuilder<SqlBool> {
  // tenant-by-hand: a snapshot reads and writes every table of a tenant, found in the schema (catalogue.ts), with
  // statements no repository's `Tenant` can type; the condition is this one function.
  if (!('parent' in scope)) return sql<SqlBool>`${sql.ref(scope.column)} = ${tenant}`;
  return sql<SqlBool>`${sql.ref(scope.column)} in (select ${sql.ref(scope.parentColumn)} from ${sql.table(
    scope.parent,
  )} where ${owned(scope.parentScope, tenant)})`;
}

const list = (names: readonly string[]) =>
  sql.join(
    names.map((n) => sql.ref(n)),
    sql`, `,
  );

function toRecord(row: {
  id: number;
  tenant: string;
  name: string;
  created_at: number;
  created_by: string;
  migration: string;
  rows_count: number;
  files_count: number;
  size: number;
}): SnapshotRecord {
  return {
    id: Number(row.id),
    tenant: row.tenant,
    name: row.name,
    createdAt: Number(row.created_at),
    createdBy: row.created_by,
    migration: row.migration,
    rowsCount: Number(row.rows_count),
    filesCount: Number(row.files_count),
    size: Number(row.size),
  };
}

/**
 * Tenant snapshots (docs/admin.md, "Snapshots"): the rows of every table of a tenant saved as one JSON array per
 * table, and put back, each by one statement that the database runs on its own (the JSON never passes through
 * this process): SQLite's `jsonb_group_array` and `jsonb_each` (binary JSON, SQLite 3.45 and later), PostgreSQL's
 * `json_agg` and `json_populate_recordset`.
 */
export class SnapshotsRepository {
  constructor(
    readonly db: Db,
    private readonly dialect: DialectName,
  ) {}

  /** PostgreSQL: the caller's transaction reads one snapshot of the database (its first statement). */
  async repeatableRead(): Promise<void> {
    if (this.dialect === 'postgres') await sql`set transaction isolation level repeatable read`.execute(this.db);
  }

  async list(tenant: string): Promise<SnapshotRecord[]> {
    const rows = await this.db
      .selectFrom('tenant_snapshots')
      .selectAll()
      .where('tenant', '=', tenant)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toRecord);
  }

  async find(tenant: string, name: string): Promise<SnapshotDetail | undefined> {
    const row = await this.db
      .selectFrom('tenant_snapshots')
      .selectAll()
      .where('tenant', '=', tenant)
      .where('name', '=', name)
      .executeTakeFirst();
    if (!row) return undefined;
    const tables = await this.db
      .selectFrom('tenant_snapshot_tables')
      .select(['table_name', 'row_count'])
      .where('snapshot_id', '=', row.id)
      .orderBy('table_name')
      .execute();
    return { ...toRecord(row), tables: Object.fromEntries(tables.map((t) => [t.table_name, Number(t.row_count)])) };
  }

  /** The saved columns of each table of a snapshot, to check it against the schema of today. */
  async savedColumns(snapshotId: number): Promise<Map<string, string[]>> {
    const rows = await this.db
      .selectFrom('tenant_snapshot_tables')
      .select(['table_name', 'columns'])
      .where('snapshot_id', '=', snapshotId)
      .execute();
    return new Map(rows.map((r) => [r.table_name, JSON.parse(r.columns) as string[]]));
  }

  /**
   * Saves every table of the plan (the tenant's row and credentials included) and the blobs its rows refer to.
   * On PostgreSQL the caller's transaction must see one snapshot of the database (repeatable read).
   */
  async save(
    plan: SnapshotPlan,
    tenantId: string | number,
    entry: { tenant: string; name: string; at: number; actor: string; migration: string },
  ): Promise<SnapshotRecord> {
    const { id } = await this.db
      .insertInto('tenant_snapshots')
      .values({
        tenant: entry.tenant,
        name: entry.name,
        created_at: entry.at,
        created_by: entry.actor,
        migration: entry.migration,
        rows_count: 0,
        files_count: 0,
        size: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const table of [tenantRowTable(plan), ...plan.tables]) {
      const columns = JSON.stringify(table.columns);
      const where = owned(table.scope, tenantId);
      if (this.dialect === 'sqlite') {
        // JSONB (SQLite's binary JSON): read back without parsing text, about twice as fast as JSON text.
        const aliases = table.columns.map((_c, i) => `c${i}`);
        await sql`insert into tenant_snapshot_tables (snapshot_id, table_name, columns, row_count, rows)
          select ${id}, ${table.name}, ${columns}, count(*), jsonb_group_array(jsonb_array(${list(aliases)}))
          from (select ${sql.join(
            table.columns.map((c, i) => sql`${sql.ref(c)} as ${sql.ref(aliases[i] as string)}`),
            sql`, `,
          )} from ${sql.table(table.name)} where ${where} order by rowid)`.execute(this.db);
      } else {
        await sql`insert into tenant_snapshot_tables (snapshot_id, table_name, columns, row_count, rows)
          select ${id}, ${table.name}, ${columns}, count(*), coalesce(json_agg(r)::text, '[]')
          from (select ${list(table.columns)} from ${sql.table(table.name)} where ${where}) r`.execute(this.db);
      }
    }
    const files = this.fileReferences(plan, tenantId);
    if (files.length > 0) {
      await sql`insert into tenant_snapshot_files (snapshot_id, sha256)
        select distinct cast(${id} as bigint), f.sha256 from (${sql.join(files, sql` union `)}) f
        where exists (select 1 from blobs b where b.sha256 = f.sha256)`.execute(this.db);
    }
    await sql`update tenant_snapshots set
        rows_count = (select coalesce(sum(row_count), 0) from tenant_snapshot_tables where snapshot_id = ${id}),
        size = (select coalesce(sum(length(rows)), 0) from tenant_snapshot_tables where snapshot_id = ${id}),
        files_count = (select count(*) from tenant_snapshot_files where snapshot_id = ${id})
      where id = ${id}`.execute(this.db);
    const saved = await this.db
      .selectFrom('tenant_snapshots')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return toRecord(saved);
  }

  /** Deletes a snapshot; answers the blobs it kept (each may now be unreferenced). */
  async remove(snapshotId: number): Promise<string[]> {
    const files = await this.db
      .selectFrom('tenant_snapshot_files')
      .select('sha256')
      .where('snapshot_id', '=', snapshotId)
      .execute();
    await this.db.deleteFrom('tenant_snapshot_files').where('snapshot_id', '=', snapshotId).execute();
    await this.db.deleteFrom('tenant_snapshot_tables').where('snapshot_id', '=', snapshotId).execute();
    await this.db.deleteFrom('tenant_snapshots').where('id', '=', snapshotId).execute();
    return files.map((f) => f.sha256);
  }

  /**
   * Replaces the tenant's rows with a snapshot's (`snapshotId`), or deletes them (undefined: a reset). Credential
   * tables and the tenant's row are left as they are unless `credentials`. Run in the caller's transaction.
   */
  async replace(
    plan: SnapshotPlan,
    tenantId: string | number,
    tenantKey: string,
    snapshotId: number | undefined,
    credentials: boolean,
    at: number,
  ): Promise<Replaced> {
    // SQLite: a page cache large enough for the indexes a large tenant's restore rewrites (2 MiB by default), for
    // this transaction only; about a quarter off a restore of the benchmark's tenant (docs/PERFORMANCE.md).
    const cache =
      this.dialect === 'sqlite'
        ? (await sql<{ cache_size: number }>`pragma cache_size`.execute(this.db)).rows[0]?.cache_size
        : undefined;
    if (cache !== undefined) await sql.raw(`pragma cache_size = ${RESTORE_CACHE_KIB}`).execute(this.db);
    try {
      return await this.replaceRows(plan, tenantId, tenantKey, snapshotId, credentials, at);
    } finally {
      if (cache !== undefined) await sql.raw(`pragma cache_size = ${Math.trunc(cache)}`).execute(this.db);
    }
  }

  private async replaceRows(
    plan: SnapshotPlan,
    tenantId: string | number,
    tenantKey: string,
    snapshotId: number | undefined,
    credentials: boolean,
    at: number,
  ): Promise<Replaced> {
    const formerFiles = await this.currentFiles(plan, tenantId);
    const tables = plan.tables.filter((t) => credentials || !t.credentials);
    let deleted = 0;
    let inserted = 0;
    if (snapshotId !== undefined && this.dialect === 'sqlite' && tables.every((t) => t.primaryKey.length > 0)) {
      ({ deleted, inserted } = await this.merge(tables, tenantId, snapshotId));
      if (credentials) await this.updateTenantRow(plan, tenantId, snapshotId);
      return this.finish(plan, tenantId, tenantKey, at, formerFiles, deleted, inserted);
    }
    for (const table of [...tables].reverse()) {
      const result = await sql`delete from ${sql.table(table.name)} where ${owned(table.scope, tenantId)}`.execute(
        this.db,
      );
      deleted += Number(result.numAffectedRows ?? 0);
    }
    if (snapshotId !== undefined) {
      for (const table of tables) inserted += await this.insertSaved(table, snapshotId);
      if (credentials) await this.updateTenantRow(plan, tenantId, snapshotId);
    }
    return this.finish(plan, tenantId, tenantKey, at, formerFiles, deleted, inserted);
  }

  /** After the rows: the tenant's pending jobs cancelled, its idempotency keys forgotten, the files let go. */
  private async finish(
    plan: SnapshotPlan,
    tenantId: string | number,
    tenantKey: string,
    at: number,
    formerFiles: string[],
    deleted: number,
    inserted: number,
  ): Promise<Replaced> {
    let cancelledJobs = 0;
    if (plan.kind === 'hr') {
      const cancelled = await this.db
        .updateTable('jobs')
        .set({ status: 'cancelled', finished_at: at, lease_until: null, locked_by: null, updated_at: at })
        .where('tenant', '=', String(tenantId))
        .where('status', '=', 'pending')
        .executeTakeFirst();
      cancelledJobs = Number(cancelled.numUpdatedRows);
    }
    await this.db.deleteFrom('idempotency_keys').where('tenant', '=', tenantKey).execute();
    // Only the files the tenant's rows no longer refer to may have become unreferenced.
    const kept = new Set(await this.currentFiles(plan, tenantId));
    return { formerFiles: formerFiles.filter((f) => !kept.has(f)), deleted, inserted, cancelledJobs };
  }

  /**
   * SQLite's restore: the saved rows merged into the tenant's by primary key, so that a row as saved is not
   * written at all (a restore after a few changes rewrites those only; rewriting every row of a large tenant
   * costs its whole size twice, in the WAL and at the checkpoint). Each table's saved rows are staged in a
   * temporary table keyed like it; then, children first, the rows whose key the snapshot lacks are deleted; and,
   * parents first, the rows that differ are updated in place (their children stay, no cascade runs) and the
   * missing ones inserted. The outcome is the same as deleting and inserting every row.
   */
  private async merge(
    tables: readonly SnapshotTable[],
    tenantId: string | number,
    snapshotId: number,
  ): Promise<{ deleted: number; inserted: number }> {
    const staged = tables.map((table, i) => ({ table, temp: `snapshot_restore_${i}` }));
    const alias = (i: number) => sql.ref(`c${i}`);
    const key = (table: SnapshotTable) => table.primaryKey.map((k) => table.columns.indexOf(k));
    let deleted = 0;
    let written = 0;
    // Foreign keys checked at the commit, when the tenant is the snapshot again: on the way, a row deleted because
    // its key is new (an organization made again under the same id) may still be referred to by a row as saved.
    // SQLite turns this off again at the end of the transaction.
    await sql`pragma defer_foreign_keys = on`.execute(this.db);
    try {
      for (const { table, temp } of staged) {
        // The columns' own types: their affinities, so that the key's index serves the comparisons with the table.
        await sql`create temp table ${sql.table(temp)} (${sql.join(
          table.columns.map((_c, i) => sql`${alias(i)} ${sql.raw(safeType(table.types[i]))}`),
          sql`, `,
        )})`.execute(this.db);
        await sql`insert into ${sql.table(temp)} select ${sql.join(
          table.columns.map((_c, i) => sql`value ->> ${sql.lit(i)}`),
          sql`, `,
        )} from jsonb_each((select rows from tenant_snapshot_tables where snapshot_id = ${snapshotId}
              and table_name = ${table.name}))`.execute(this.db);
        await sql`create unique index ${sql.ref(`${temp}_key`)} on ${sql.table(temp)} (${sql.join(
          key(table).map(alias),
          sql`, `,
        )})`.execute(this.db);
      }
      // The staged row of the same key as the table's row `t`.
      const sameKey = (table: SnapshotTable, temp: string) =>
        sql.join(
          key(table).map((i) => sql`${sql.ref(`${temp}.c${i}`)} = ${sql.ref(`${table.name}.${table.columns[i]}`)}`),
          sql` and `,
        );
      const sameRow = (table: SnapshotTable, temp: string) =>
        sql.join(
          table.columns.map((c, i) => sql`${sql.ref(`${temp}.c${i}`)} is ${sql.ref(`${table.name}.${c}`)}`),
          sql` and `,
        );
      for (const { table, temp } of [...staged].reverse()) {
        const result = await sql`delete from ${sql.table(table.name)} where ${owned(table.scope, tenantId)}
          and not exists (select 1 from ${sql.table(temp)} where ${sameKey(table, temp)})`.execute(this.db);
        deleted += Number(result.numAffectedRows ?? 0);
      }
      for (const { table, temp } of staged) {
        const others = table.columns.map((c, i) => [c, i] as const).filter(([c]) => !table.primaryKey.includes(c));
        if (others.length > 0) {
          const updated = await sql`update ${sql.table(table.name)} set (${list(others.map(([c]) => c))}) = (
              select ${sql.join(
                others.map(([, i]) => alias(i)),
                sql`, `,
              )} from ${sql.table(temp)} where ${sameKey(table, temp)})
            where ${owned(table.scope, tenantId)} and exists (select 1 from ${sql.table(temp)}
              where ${sameKey(table, temp)} and not (${sameRow(table, temp)}))`.execute(this.db);
          written += Number(updated.numAffectedRows ?? 0);
        }
        const result = await sql`insert into ${sql.table(table.name)} (${list(table.columns)})
          select ${sql.join(
            table.columns.map((_c, i) => alias(i)),
            sql`, `,
          )} from ${sql.table(temp)}
          where not exists (select 1 from ${sql.table(table.name)} where ${sameKey(table, temp)})`.execute(this.db);
        written += Number(result.numAffectedRows ?? 0);
      }
    } finally {
      for (const { temp } of staged) await sql`drop table if exists temp.${sql.table(temp)}`.execute(this.db);
    }
    return { deleted, inserted: written };
  }

  private async insertSaved(table: SnapshotTable, snapshotId: number): Promise<number> {
    const saved = sql`(select rows from tenant_snapshot_tables where snapshot_id = ${snapshotId} and table_name = ${table.name})`;
    const columns = list(table.columns);
    const result =
      this.dialect === 'sqlite'
        ? await sql`insert into ${sql.table(table.name)} (${columns})
            select ${sql.join(
              table.columns.map((_c, i) => sql`value ->> ${sql.lit(i)}`),
              sql`, `,
            )} from jsonb_each(${saved})`.execute(this.db)
        : await sql`insert into ${sql.table(table.name)} (${columns})
            select ${columns} from json_populate_recordset(null::${sql.table(table.name)}, ${saved}::json)`.execute(
            this.db,
          );
    return Number(result.numAffectedRows ?? 0);
  }

  /** The tenant's own row (its name…), as saved: its key stays. */
  private async updateTenantRow(plan: SnapshotPlan, tenantId: string | number, snapshotId: number): Promise<void> {
    const { table, key, columns } = plan.tenantRow;
    const others = columns.filter((c) => c !== key);
    if (others.length === 0) return;
    const saved = sql`(select rows from tenant_snapshot_tables where snapshot_id = ${snapshotId} and table_name = ${table})`;
    const values =
      this.dialect === 'sqlite'
        ? sql`select ${sql.join(
            others.map((c) => sql`value ->> ${sql.lit(columns.indexOf(c))}`),
            sql`, `,
          )} from jsonb_each(${saved})`
        : sql`select ${list(others)} from json_populate_recordset(null::${sql.table(table)}, ${saved}::json)`;
    await sql`update ${sql.table(table)} set (${list(others)}) = (${values}) where ${sql.ref(key)} = ${tenantId}`.execute(
      this.db,
    );
  }

  /** The `BLOB_REFERENCES` columns among the plan's tables, as selects of the tenant's checksums. */
  private fileReferences(plan: SnapshotPlan, tenantId: string | number): RawBuilder<unknown>[] {
    return plan.tables.flatMap((table) =>
      BLOB_REFERENCES.filter((r) => r.table === table.name).map(
        (r) =>
          sql`select ${sql.ref(r.column)} as sha256 from ${sql.table(table.name)} where ${owned(
            table.scope,
            tenantId,
          )} and ${sql.ref(r.column)} is not null`,
      ),
    );
  }

  private async currentFiles(plan: SnapshotPlan, tenantId: string | number): Promise<string[]> {
    const files = this.fileReferences(plan, tenantId);
    if (files.length === 0) return [];
    const result = await sql<{ sha256: string }>`select distinct f.sha256 from (${sql.join(
      files,
      sql` union `,
    )}) f`.execute(this.db);
    return result.rows.map((r) => r.sha256);
  }
}
