import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { sql } from 'kysely';
import type { BlobStore } from '../../platform/blobs/store.js';
import type { Db, DialectName } from '../../platform/db/database.js';
import { migrationNames } from '../../platform/db/migrate.js';
import { formatDateTime } from '../../platform/time.js';
import type { SnapshotPlan } from './catalogue.js';
import {
  BLOB_CHUNK_BYTES,
  LineHasher,
  PORTABLE_FORMAT,
  PORTABLE_VERSION,
  type PortableHeader,
} from './portable-format.js';
import { portableTables } from './portable-keys.js';
import type { SnapshotDetail } from './repository.js';

/** Rows read from a saved snapshot per query. */
const PAGE_ROWS = 2000;

/**
 * Writes a saved snapshot as a portable file (portable-format.ts), streamed: a page of rows, or a chunk of a stored
 * file, at a time, pulled as the client reads. The saved snapshot does not change, so the pages need no transaction.
 */
export class PortableExporter {
  constructor(
    private readonly db: Db,
    private readonly dialect: DialectName,
    private readonly blobs: Pick<BlobStore, 'read'>,
  ) {}

  /** The gzip'd file of `snapshot` (found by the caller), as a stream. */
  stream(plan: SnapshotPlan, snapshot: SnapshotDetail): Readable {
    return Readable.from(this.lines(plan, snapshot)).pipe(createGzip());
  }

  private async *lines(plan: SnapshotPlan, snapshot: SnapshotDetail): AsyncGenerator<string> {
    const out = new LineHasher();
    const at = migrationNames.indexOf(snapshot.migration);
    const header: PortableHeader = {
      format: PORTABLE_FORMAT,
      version: PORTABLE_VERSION,
      kind: plan.kind,
      tenant: snapshot.tenant,
      snapshot: snapshot.name,
      created_at: formatDateTime(snapshot.createdAt),
      schema: at === -1 ? [snapshot.migration] : migrationNames.slice(0, at + 1),
    };
    yield out.line(header);
    const files = await this.db
      .selectFrom('tenant_snapshot_files')
      .innerJoin('blobs', 'blobs.sha256', 'tenant_snapshot_files.sha256')
      .select(['blobs.sha256', 'blobs.size'])
      .where('snapshot_id', '=', snapshot.id)
      .orderBy('blobs.sha256')
      .execute();
    for (const file of files) {
      const size = Number(file.size);
      yield out.line({ blob: file.sha256, size, chunks: Math.ceil(size / BLOB_CHUNK_BYTES) });
      for await (const chunk of rechunk(await this.blobs.read(file.sha256))) {
        yield out.line({ data: chunk.toString('base64') });
      }
    }
    const saved = await this.db
      .selectFrom('tenant_snapshot_tables')
      .select(['table_name', 'columns', 'row_count'])
      .where('snapshot_id', '=', snapshot.id)
      .execute();
    const byName = new Map(saved.map((t) => [t.table_name, t]));
    for (const table of portableTables(plan)) {
      const found = byName.get(table.name);
      if (!found) continue;
      const columns = JSON.parse(found.columns) as string[];
      yield out.line({ table: table.name, columns, rows: Number(found.row_count) });
      for (let offset = 0; offset < Number(found.row_count); offset += PAGE_ROWS) {
        for (const row of await this.page(snapshot.id, table.name, columns, offset)) {
          yield out.line(row);
        }
      }
    }
    yield out.end();
  }

  /** A page of a saved table's rows, each as an array of values in `columns`' order. */
  private async page(snapshotId: number, table: string, columns: string[], offset: number): Promise<unknown[][]> {
    const saved = sql`(select rows from tenant_snapshot_tables where snapshot_id = ${snapshotId} and table_name = ${table})`;
    if (this.dialect === 'sqlite') {
      const result = await sql<{ v: string }>`select json(value) as v from jsonb_each(${saved})
        order by key limit ${PAGE_ROWS} offset ${offset}`.execute(this.db);
      return result.rows.map((r) => JSON.parse(r.v) as unknown[]);
    }
    const result = await sql<{ v: string }>`select e.value::text as v
      from json_array_elements(${saved}::json) with ordinality e(value, n)
      order by e.n limit ${PAGE_ROWS} offset ${offset}`.execute(this.db);
    return result.rows.map((r) => {
      const row = JSON.parse(r.v) as Record<string, unknown>;
      return columns.map((c) => row[c] ?? null);
    });
  }
}

/** A stored file's bytes in chunks of exactly `BLOB_CHUNK_BYTES` (the last one shorter). */
async function* rechunk(source: Readable): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    held.push(chunk);
    heldBytes += chunk.length;
    while (heldBytes >= BLOB_CHUNK_BYTES) {
      const all = Buffer.concat(held);
      yield all.subarray(0, BLOB_CHUNK_BYTES);
      held = [all.subarray(BLOB_CHUNK_BYTES)];
      heldBytes = all.length - BLOB_CHUNK_BYTES;
    }
  }
  if (heldBytes > 0) yield Buffer.concat(held);
}
