import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { HrError } from '../../hr/errors.js';
import type { BlobStore } from '../../platform/blobs/store.js';
import type { Db, DialectName } from '../../platform/db/database.js';
import type { Tables } from '../../platform/db/schema.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import type { Clock } from '../../platform/time.js';
import type { TenantRef } from '../tenant-ref.js';
import type { SnapshotPlan } from './catalogue.js';
import { fileLines, parseLine, readLine } from './portable-format.js';
import type { PortableKeys } from './portable-keys.js';
import type { Inventory } from './portable-verify.js';
import type { SnapshotsWork } from './service.js';

/** What an import did. */
export interface Imported {
  deletedRows: number;
  importedRows: number;
  /** Stored files the file held, and how many of them were new to this installation. */
  files: number;
  newFiles: number;
  /** Integer keys moved past the installation's (their table's count) and unique ids given anew. */
  renumberedTables: number;
  renamedIds: number;
  cancelledJobs: number;
  deletedFiles: number;
}

/** Rebuilds what the file leaves out (the full-text rows of the tenant's articles), in the import's transaction. */
export type RebuildDerived = (db: Db, tenant: TenantRef) => Promise<void>;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** Bound parameters per insert statement (SQLite's limit is 32,766). */
const MAX_PARAMETERS = 30_000;

interface Remap {
  offsets: Map<string, number>;
  ids: Map<string, string>;
}

/**
 * Writes a verified portable file (portable-verify.ts) into a tenant: the stored files first (each by the blob
 * store's own transaction), then, in one transaction, the tenant's rows deleted (as a reset) and the file's
 * inserted. When that transaction fails, the files it wrote that nothing refers to are deleted again.
 */
export class PortableImporter {
  constructor(
    private readonly work: UnitOfWork<Tables, SnapshotsWork>,
    private readonly dialect: DialectName,
    private readonly blobs: Pick<BlobStore, 'put' | 'deleteIfUnreferenced'>,
    private readonly clock: Clock,
    private readonly rebuild: RebuildDerived,
  ) {}

  async apply(
    file: string,
    inventory: Inventory,
    keys: PortableKeys,
    plan: SnapshotPlan,
    target: TenantRef,
    audit: { actor: string; action: string; detail: Record<string, unknown> },
  ): Promise<Imported> {
    const written = await this.writeBlobs(file);
    let done: Awaited<ReturnType<typeof this.writeRows>>;
    try {
      done = await this.work.run((tx) => this.writeRows(tx, file, inventory, keys, plan, target, audit));
    } catch (error) {
      for (const sha256 of written) await this.blobs.deleteIfUnreferenced(sha256);
      throw refusedRows(error);
    }
    let deletedFiles = 0;
    for (const sha256 of done.formerFiles) if (await this.blobs.deleteIfUnreferenced(sha256)) deletedFiles++;
    return {
      deletedRows: done.deleted,
      importedRows: done.inserted,
      files: inventory.blobs.length,
      newFiles: written.length,
      renumberedTables: [...done.remap.offsets.values()].filter((o) => o !== 0).length,
      renamedIds: done.remap.ids.size,
      cancelledJobs: done.cancelledJobs,
      deletedFiles,
    };
  }

  /** Stores each file of the file; answers those that were not stored before. */
  private async writeBlobs(file: string): Promise<string[]> {
    const written: string[] = [];
    const lines = fileLines(file);
    try {
      await lines.next(); // the header
      for (;;) {
        const next = await lines.next();
        if (next.done) break;
        const line = readLine(parseLine(next.value));
        if (!('blob' in line)) break;
        const chunks = async function* () {
          for (let i = 0; i < line.chunks; i++) {
            const data = await lines.next();
            yield Buffer.from((parseLine(data.value as Buffer) as { data: string }).data, 'base64');
          }
        };
        try {
          const put = await this.blobs.put(Readable.from(chunks()));
          if (!put.deduplicated) written.push(put.blob.sha256);
        } catch (error) {
          for (const sha256 of written) await this.blobs.deleteIfUnreferenced(sha256);
          throw error;
        }
      }
    } finally {
      await lines.return(undefined);
    }
    return written;
  }

  private async writeRows(
    { snapshots, audit }: SnapshotsWork,
    file: string,
    inventory: Inventory,
    keys: PortableKeys,
    plan: SnapshotPlan,
    target: TenantRef,
    entry: { actor: string; action: string; detail: Record<string, unknown> },
  ) {
    const db = snapshots.db;
    const at = this.clock.wall();
    const tenantId = target.kind === 'academy' ? Number(target.id) : target.id;
    const replaced = await snapshots.replace(plan, tenantId, target.key, undefined, false, at);
    const remap = await this.remap(db, inventory, keys);
    const tenantColumn = plan.tables.find((t) => !('parent' in t.scope))?.scope.column ?? '';
    let inserted = 0;
    let table: { name: string; columns: string[]; left: number; batch: unknown[][]; fix: Fix } | undefined;
    const flush = async () => {
      if (!table || table.batch.length === 0) return;
      const { name, columns, batch } = table;
      if (name === plan.tenantRow.table) {
        await this.updateTenantRow(db, plan, tenantId, columns, batch[0] as unknown[]);
      } else {
        const rows = batch.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]])));
        await db
          .insertInto(name as keyof Tables)
          .values(rows as never)
          .execute();
        inserted += rows.length;
      }
      table.batch = [];
    };
    for await (const raw of fileLines(file)) {
      const value = parseLine(raw);
      if (table && table.left > 0) {
        table.batch.push(table.fix(value as unknown[]));
        table.left--;
        if (table.batch.length * table.columns.length >= MAX_PARAMETERS || table.batch.length >= 500) await flush();
        continue;
      }
      const line = value as { table?: string; columns?: string[]; rows?: number };
      if (typeof line.table !== 'string' || !line.columns || line.rows === undefined) continue;
      await flush();
      const key = line.table === plan.tenantRow.table ? plan.tenantRow.key : tenantColumn;
      table = {
        name: line.table,
        columns: line.columns,
        left: line.rows,
        batch: [],
        fix: fixer(line, key, tenantId, keys, remap),
      };
    }
    await flush();
    if (this.dialect === 'postgres') await this.advanceSequences(db, keys, inventory);
    await this.rebuild(db, target);
    await audit.record({ at, actor: entry.actor, action: entry.action, target: target.key, detail: entry.detail });
    return { ...replaced, inserted, remap };
  }

  /** Integer keys past the installation's when they would collide; unique ids another tenant holds given anew. */
  private async remap(db: Db, inventory: Inventory, keys: PortableKeys): Promise<Remap> {
    const offsets = new Map<string, number>();
    for (const [table, range] of inventory.serialRange) {
      const column = keys.serial.get(table) as string;
      const result = await sql<{
        m: number | null;
      }>`select max(${sql.ref(column)}) as m from ${sql.table(table)}`.execute(db);
      const max = result.rows[0]?.m;
      let offset = max !== null && max !== undefined && Number(max) >= range.min ? Number(max) - range.min + 1 : 0;
      if (this.dialect === 'postgres') offset = await this.reserve(db, table, column, range, offset);
      offsets.set(table, offset);
    }
    const ids = new Map<string, string>();
    for (const [name, values] of inventory.uniqueValues) {
      const [table, column] = name.split('.') as [string, string];
      const all = [...values];
      for (let i = 0; i < all.length; i += 500) {
        const taken = await sql<{ v: string }>`select ${sql.ref(column)} as v from ${sql.table(table)}
          where ${sql.ref(column)} in (${sql.join(all.slice(i, i + 500))})`.execute(db);
        for (const { v } of taken.rows) ids.set(v, randomUUID());
      }
    }
    return { offsets, ids };
  }

  /**
   * PostgreSQL: the keys the rows will take, reserved in the table's sequence before they are written (a sequence
   * is not transactional: another tenant's insert that runs meanwhile draws a key past them). The keys move past
   * the sequence's next value too when it is at or below the file's largest.
   */
  private async reserve(
    db: Db,
    table: string,
    column: string,
    range: { min: number; max: number },
    offset: number,
  ): Promise<number> {
    const next = await sql<{
      n: number | null;
    }>`select nextval(pg_get_serial_sequence(${table}, ${column})) as n`.execute(db);
    const base = Number(next.rows[0]?.n ?? 1);
    const moved = Math.max(offset, base > range.min ? base - range.min : 0);
    await sql`select setval(pg_get_serial_sequence(${table}, ${column}), ${range.max + moved})`.execute(db);
    return moved;
  }

  /** The tenant's own row: what the file saved of it but its key, name and creation. */
  private async updateTenantRow(
    db: Db,
    plan: SnapshotPlan,
    tenantId: string | number,
    columns: string[],
    row: unknown[],
  ): Promise<void> {
    const set = columns.flatMap((c, i) => (['id', 'name', 'created_at'].includes(c) ? [] : [[c, row[i]] as const]));
    if (set.length === 0) return;
    await sql`update ${sql.table(plan.tenantRow.table)} set ${sql.join(
      set.map(([c, v]) => sql`${sql.ref(c)} = ${v}`),
      sql`, `,
    )} where ${sql.ref(plan.tenantRow.key)} = ${tenantId}`.execute(db);
  }

  /** PostgreSQL: each serial key's sequence past the rows inserted with explicit keys. */
  private async advanceSequences(db: Db, keys: PortableKeys, inventory: Inventory): Promise<void> {
    for (const table of inventory.serialRange.keys()) {
      const column = keys.serial.get(table) as string;
      await sql`select setval(s.seq::regclass, greatest(
          (select coalesce(max(${sql.ref(column)}), 1) from ${sql.table(table)}),
          coalesce(pg_sequence_last_value(s.seq::regclass), 1)))
        from (select pg_get_serial_sequence(${table}, ${column}) as seq) s where s.seq is not null`.execute(db);
    }
  }
}

type Fix = (row: unknown[]) => unknown[];

/**
 * A row the database refuses (a constraint, a value of the wrong type: a file altered and its checksum made
 * again) is the file's fault, a 422 `snapshot_invalid`; anything else is the server's.
 */
function refusedRows(error: unknown): unknown {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  if (!/^SQLITE_(CONSTRAINT|MISMATCH)|^2[23]/.test(code)) return error;
  return new HrError(
    422,
    'snapshot_invalid',
    `The snapshot file's rows do not fit this database (${(error as Error).message}). Nothing was written.`,
  );
}

/** How each row of a table is rewritten for its new tenant: its tenant column, serial keys and unique ids. */
function fixer(
  line: { table?: string; columns?: string[] },
  tenantColumn: string,
  tenantId: string | number,
  keys: PortableKeys,
  remap: Remap,
): Fix {
  const columns = line.columns as string[];
  const table = line.table as string;
  const tenantAt = columns.indexOf(tenantColumn);
  const shifts: [number, number][] = [];
  const serial = keys.serial.get(table);
  if (serial !== undefined) shifts.push([columns.indexOf(serial), remap.offsets.get(table) ?? 0]);
  columns.forEach((c, i) => {
    const parent = keys.serialRefs.get(`${table}.${c}`);
    if (parent !== undefined) shifts.push([i, remap.offsets.get(parent) ?? 0]);
  });
  const moved = shifts.filter(([at, by]) => at >= 0 && by !== 0);
  const ids = remap.ids;
  return (row) => {
    const out = ids.size === 0 ? [...row] : row.map((v) => (typeof v === 'string' ? renamed(v, ids) : v));
    if (tenantAt >= 0) out[tenantAt] = tenantId;
    for (const [at, by] of moved) if (out[at] !== null) out[at] = Number(out[at]) + by;
    return out;
  };
}

/** A value with each id given anew replaced: the whole value, or each UUID within it (JSON, lists). */
function renamed(value: string, ids: Map<string, string>): string {
  const whole = ids.get(value);
  if (whole !== undefined) return whole;
  return value.length >= 36 ? value.replace(UUID, (id) => ids.get(id) ?? id) : value;
}
