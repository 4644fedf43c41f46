import type { Readable } from 'node:stream';
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
 * file, at a time, written as the client reads.
 */
export class PortableExporter {
  constructor(
    private readonly db: Db,
    private readonly dialect: DialectName,
    private readonly blobs: Pick<BlobStore, 'read'>,
  ) {}

  /**
   * The gzip'd file of `snapshot` (found by the caller), as a stream: written as the reader takes it (each write
   * waits for the stream to drain), stopped when the reader goes away.
   */
  stream(plan: SnapshotPlan, snapshot: SnapshotDetail): Readable {
    const gzip = createGzip();
    const put = async (text: string) => {
      if (gzip.destroyed) throw new Error('The reader of the export went away.');
      if (gzip.write(text)) return;
      await new Promise<void>((resolve, reject) => {
        const closed = () => reject(new Error('The reader of the export went away.'));
        gzip.once('close', closed);
        gzip.once('drain', () => {
          gzip.off('close', closed);
          resolve();
        });
      });
    };
    this.write(plan, snapshot, put).then(
      () => gzip.end(),
      (error: Error) => gzip.destroy(error),
    );
    return gzip;
  }

  private async write(plan: SnapshotPlan, snapshot: SnapshotDetail, put: (text: string) => Promise<void>) {
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
    await put(out.line(header));
    const files = await this.db
      .selectFrom('tenant_snapshot_files')
      .innerJoin('blobs', 'blobs.sha256', 'tenant_snapshot_files.sha256')
      .select(['blobs.sha256', 'blobs.size'])
      .where('snapshot_id', '=', snapshot.id)
      .orderBy('blobs.sha256')
      .execute();
    for (const file of files) {
      const size = Number(file.size);
      await put(out.line({ blob: file.sha256, size, chunks: Math.ceil(size / BLOB_CHUNK_BYTES) }));
      for await (const chunk of rechunk(await this.blobs.read(file.sha256))) {
        await put(out.line({ data: chunk.toString('base64') }));
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
      await put(out.line({ table: table.name, columns, rows: Number(found.row_count) }));
      await this.rows(snapshot.id, table.name, columns, async (row) => put(out.line(row)));
    }
    await put(out.end());
  }

  /**
   * Each saved row of a table, as an array of values in `columns`' order, a page at a time: on SQLite a query per
   * page (the snapshot does not change; SQLite's binary JSON is walked, not parsed); on PostgreSQL a cursor, in a
   * read-only transaction of its own connection (the saved JSON is parsed once).
   */
  private async rows(snapshotId: number, table: string, columns: string[], each: (row: unknown[]) => Promise<void>) {
    const saved = sql`(select rows from tenant_snapshot_tables where snapshot_id = ${snapshotId} and table_name = ${table})`;
    if (this.dialect === 'sqlite') {
      for (let offset = 0; ; offset += PAGE_ROWS) {
        const result = await sql<{ v: string }>`select json(value) as v from jsonb_each(${saved})
          order by key limit ${PAGE_ROWS} offset ${offset}`.execute(this.db);
        for (const r of result.rows) await each(JSON.parse(r.v) as unknown[]);
        if (result.rows.length < PAGE_ROWS) return;
      }
    }
    await this.db.connection().execute(async (conn) => {
      await sql`begin transaction read only`.execute(conn);
      try {
        await sql`declare portable_rows no scroll cursor for
          select value::text as v from json_array_elements(${saved}::json)`.execute(conn);
        for (;;) {
          const result = await sql<{ v: string }>`fetch ${sql.raw(String(PAGE_ROWS))} from portable_rows`.execute(conn);
          for (const r of result.rows) {
            const row = JSON.parse(r.v) as Record<string, unknown>;
            await each(columns.map((c) => row[c] ?? null));
          }
          if (result.rows.length < PAGE_ROWS) break;
        }
      } finally {
        await sql`rollback`.execute(conn);
      }
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
