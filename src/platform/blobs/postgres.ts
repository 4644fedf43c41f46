import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { copyReader, type Db } from '../db/database.js';
import { wallClock } from '../time.js';
import { chunksOf, IndexedBlobStore, type Staged, StagingMeter } from './base.js';
import type { BlobCache } from './cache.js';
import { type ByteRange, isSha256 } from './store.js';

/** Size of every chunk but a blob's last. Range reads rely on it: changing it needs a migration of stored blobs. */
export const CHUNK_BYTES = 256 * 1024;
/** Chunks fetched per query when reading (1 MiB). */
const READ_BATCH = 4;

/**
 * Blobs as rows of 256 KiB chunks in PostgreSQL (`blob_chunks`), so every
 * process sharing the database shares the files, with no shared disk. A
 * write streams its chunks into `blob_staging` under a random id (one
 * insert per chunk, never more than a chunk in memory); the transaction that
 * records the blob copies them to `blob_chunks` server-side and deletes them.
 * A read fetches 1 MiB of chunks at a time with a binary `COPY`, which gives the
 * bytes as they are (a `select` would give them as hexadecimal text to decode).
 * Used automatically when the database is PostgreSQL.
 *
 * With a `cache` (on by default: `ATRIUM_BLOB_CACHE_MB`), a full read keeps a
 * copy of the bytes on this machine's disk, and later reads of that blob,
 * whole or a range, read the copy instead of the chunks (cache.ts).
 */
export class PostgresBlobStore extends IndexedBlobStore {
  readonly kind = 'postgres' as const;

  constructor(
    db: Db,
    log?: Logger,
    private readonly cache?: BlobCache,
  ) {
    super(db, 'postgres', log);
  }

  protected async stage(source: Readable, limit: number): Promise<Staged> {
    const stagingId = randomUUID();
    const meter = new StagingMeter(limit);
    // The staged bytes' age, which `sweepStaging` compares with the wall clock: no tenant's time.
    const createdAt = wallClock();
    let seq = 0;
    let pending: Buffer[] = [];
    let pendingLength = 0;
    const flush = async (data: Buffer) => {
      await this.db
        .insertInto('blob_staging')
        .values({ staging_id: stagingId, seq, data, created_at: createdAt })
        .execute();
      seq++;
    };
    try {
      for await (const chunk of chunksOf(source)) {
        meter.add(chunk);
        let rest = chunk;
        while (pendingLength + rest.length >= CHUNK_BYTES) {
          const take = CHUNK_BYTES - pendingLength;
          const full = Buffer.concat([...pending, rest.subarray(0, take)], CHUNK_BYTES);
          pending = [];
          pendingLength = 0;
          rest = rest.subarray(take);
          await flush(full);
        }
        if (rest.length > 0) {
          pending.push(rest);
          pendingLength += rest.length;
        }
      }
      if (pendingLength > 0) await flush(Buffer.concat(pending, pendingLength));
    } catch (error) {
      await this.deleteStaging(stagingId);
      throw error;
    }
    return meter.finish(stagingId);
  }

  private async deleteStaging(stagingId: string): Promise<void> {
    await this.db.deleteFrom('blob_staging').where('staging_id', '=', stagingId).execute();
  }

  protected async promote(trx: Db, staged: Staged, fresh: boolean): Promise<void> {
    if (fresh) {
      await trx
        .insertInto('blob_chunks')
        .columns(['sha256', 'seq', 'data'])
        .expression((eb) =>
          eb
            .selectFrom('blob_staging')
            .select((s) => [s.val(staged.sha256).as('sha256'), 'seq', 'data'])
            .where('staging_id', '=', staged.token),
        )
        .execute();
    }
    await trx.deleteFrom('blob_staging').where('staging_id', '=', staged.token).execute();
  }

  protected async discard(staged: Staged): Promise<void> {
    await this.deleteStaging(staged.token);
  }

  protected async removeBytes(trx: Db, sha256: string): Promise<void> {
    // The foreign key cascades already; explicit so the intent does not hang on it.
    await trx.deleteFrom('blob_chunks').where('sha256', '=', sha256).execute();
    await this.cache?.remove(sha256);
  }

  protected override corrupted(sha256: string): void {
    void this.cache?.remove(sha256);
  }

  protected async openBytes(sha256: string, size: number, range?: ByteRange): Promise<Readable> {
    if (!this.cache || size === 0) return this.readChunks(sha256, size, range);
    const cached = await this.cache.open(sha256, size, range);
    if (cached) return cached;
    const bytes = await this.readChunks(sha256, size, range);
    return range ? bytes : this.cache.fill(sha256, size, bytes);
  }

  private async readChunks(sha256: string, size: number, range?: ByteRange): Promise<Readable> {
    const start = range?.start ?? 0;
    const end = range?.end ?? size - 1;
    if (size === 0 || end < start) return Readable.from([], { objectMode: false });
    const first = Math.floor(start / CHUNK_BYTES);
    const last = Math.floor(end / CHUNK_BYTES);
    const db = this.db;
    const copy = copyReader(db);
    // The text of a COPY takes no parameters: the address is checked to be hexadecimal before it is written in.
    if (copy && !isSha256(sha256)) throw new Error(`not a blob address: ${sha256}`);
    async function batch(from: number, upTo: number): Promise<{ seq: number; data: Buffer }[]> {
      if (copy) {
        const rows = await copy(
          `copy (select seq, data from blob_chunks where sha256 = '${sha256}' and seq between ${from} and ${upTo} order by seq) to stdout (format binary)`,
        );
        return rows.map(([seq, data]) => {
          if (!seq || !data) throw new Error(`blob ${sha256} has a NULL chunk`);
          return { seq: seq.readInt32BE(0), data };
        });
      }
      return db
        .selectFrom('blob_chunks')
        .select(['seq', 'data'])
        .where('sha256', '=', sha256)
        .where('seq', '>=', from)
        .where('seq', '<=', upTo)
        .orderBy('seq')
        .execute();
    }
    async function* bytes(): AsyncGenerator<Buffer> {
      let seq = first;
      while (seq <= last) {
        const rows = await batch(seq, Math.min(last, seq + READ_BATCH - 1));
        for (const row of rows) {
          if (row.seq !== seq) throw new Error(`blob ${sha256} is missing chunk ${seq}`);
          let data = row.data;
          if (seq === last) data = data.subarray(0, end - seq * CHUNK_BYTES + 1);
          if (seq === first) data = data.subarray(start - seq * CHUNK_BYTES);
          yield data;
          seq++;
        }
        if (rows.length === 0) throw new Error(`blob ${sha256} is missing chunk ${seq}`);
      }
    }
    return Readable.from(bytes(), { objectMode: false });
  }

  /** Also removes cached copies of blobs deleted since (by any process) and copies a stopped process left. */
  async sweepStaging(before: number): Promise<number> {
    const result = await this.db.deleteFrom('blob_staging').where('created_at', '<', before).executeTakeFirst();
    await this.cache?.prune(async (sha256s) => {
      const rows = await this.db.selectFrom('blobs').select('sha256').where('sha256', 'in', sha256s).execute();
      return new Set(rows.map((row) => row.sha256));
    }, before);
    return Number(result.numDeletedRows);
  }
}
