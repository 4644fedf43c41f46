import { createHash, type Hash } from 'node:crypto';
import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream';
import type { Selectable } from 'kysely';
import type { Logger } from 'pino';
import type { Db, DialectName } from '../db/database.js';
import type { BlobsTable } from '../db/schema.js';
import { inTransaction } from '../db/transaction.js';
import { wallClock } from '../time.js';
import { isReferenced } from './references.js';
import { SNIFF_BYTES, sniffContentType } from './sniff.js';
import {
  BlobIntegrityError,
  BlobNotFoundError,
  type BlobStore,
  BlobTooLargeError,
  type ByteRange,
  isSha256,
  type PutOptions,
  type PutResult,
  type StoredBlob,
} from './store.js';

/** Bytes written somewhere temporary, their checksum known, not yet a blob. */
export interface Staged {
  /** Names the staged bytes (a temp file, a staging id). */
  token: string;
  sha256: string;
  size: number;
  /** The first bytes, to sniff the content type. */
  head: Buffer;
}

/** Hashes, counts and keeps the first bytes of a stream as it is written somewhere. */
export class StagingMeter {
  private readonly hash: Hash = createHash('sha256');
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;
  size = 0;

  constructor(private readonly limit: number) {}

  /** Accounts for one chunk; throws `BlobTooLargeError` past the limit. */
  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.limit) throw new BlobTooLargeError(this.limit);
    this.hash.update(chunk);
    if (this.headLength < SNIFF_BYTES) {
      const part = chunk.subarray(0, SNIFF_BYTES - this.headLength);
      this.headChunks.push(Buffer.from(part));
      this.headLength += part.length;
    }
  }

  finish(token: string): Staged {
    return { token, sha256: this.hash.digest('hex'), size: this.size, head: Buffer.concat(this.headChunks) };
  }
}

/** Reads a stream chunk by chunk without destroying it when the reader stops early (a request can still be answered). */
export async function* chunksOf(source: Readable): AsyncGenerator<Buffer> {
  for await (const chunk of source.iterator({ destroyOnReturn: false })) {
    yield typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
  }
}

type BlobRow = Selectable<BlobsTable>;

function toStoredBlob(row: BlobRow): StoredBlob {
  return {
    sha256: row.sha256,
    size: Number(row.size),
    contentType: row.content_type,
    createdAt: Number(row.created_at),
  };
}

/**
 * What both stores share: the `blobs` rows, the locking that makes a put and
 * a delete of the same content safe against each other, reference checks and
 * checksum verification. Subclasses only move bytes.
 */
export abstract class IndexedBlobStore implements BlobStore {
  abstract readonly kind: 'filesystem' | 'postgres';

  constructor(
    protected readonly db: Db,
    protected readonly dialect: DialectName,
    protected readonly log?: Logger,
  ) {}

  /** Writes the whole source somewhere temporary; on any failure removes what it wrote and rethrows. */
  protected abstract stage(source: Readable, limit: number): Promise<Staged>;
  /** Inside the transaction that recorded the row: makes the staged bytes the blob's (`fresh`: the row is new). */
  protected abstract promote(trx: Db, staged: Staged, fresh: boolean): Promise<void>;
  /** Removes staged bytes if still there (idempotent; called after every put). */
  protected abstract discard(staged: Staged): Promise<void>;
  /** Inside the transaction that deleted the row: removes the bytes. */
  protected abstract removeBytes(trx: Db, sha256: string): Promise<void>;
  /** The stored bytes, whole or a range, unverified. */
  protected abstract openBytes(sha256: string, size: number, range?: ByteRange): Promise<Readable>;
  abstract sweepStaging(before: number): Promise<number>;
  /** A full read's bytes failed their checksum (already logged): a store that keeps copies drops its copy. */
  protected corrupted(_sha256: string): void {}

  async put<T = undefined>(source: Readable, options: PutOptions<T> = {}): Promise<PutResult<T>> {
    const staged = await this.stage(source, options.limit ?? Number.POSITIVE_INFINITY);
    try {
      const contentType = await sniffContentType(staged.head);
      return await inTransaction(this.db, async (trx) => {
        const candidate: BlobRow = {
          sha256: staged.sha256,
          size: staged.size,
          content_type: contentType,
          // A blob is shared by every tenant that stores the same bytes: it belongs to none, so the wall clock.
          created_at: wallClock(),
        };
        const existing = await this.claim(trx, candidate);
        const blob = toStoredBlob(existing ?? candidate);
        const attached = (options.attach ? await options.attach(trx, blob) : undefined) as T;
        await this.promote(trx, staged, existing === undefined);
        return { blob, deduplicated: existing !== undefined, attached };
      });
    } finally {
      await this.discard(staged);
    }
  }

  /**
   * Inserts the row, or locks the existing one (returned) so that no
   * `deleteIfUnreferenced` can remove it before this transaction commits.
   * On SQLite the first write takes the database's write lock for the whole
   * transaction, which serialises it with every delete.
   */
  private async claim(trx: Db, row: BlobRow): Promise<BlobRow | undefined> {
    if (this.dialect === 'postgres') {
      for (let attempt = 0; attempt < 3; attempt++) {
        const locked = await trx
          .selectFrom('blobs')
          .selectAll()
          .where('sha256', '=', row.sha256)
          .forUpdate()
          .executeTakeFirst();
        if (locked) return locked;
        const inserted = await trx
          .insertInto('blobs')
          .values(row)
          .onConflict((oc) => oc.column('sha256').doNothing())
          .returning('sha256')
          .executeTakeFirst();
        if (inserted) return undefined;
        // Another process inserted it meanwhile: lock that row.
      }
      throw new Error(`could not claim blob ${row.sha256}`);
    }
    const inserted = await trx
      .insertInto('blobs')
      .values(row)
      .onConflict((oc) => oc.column('sha256').doNothing())
      .returning('sha256')
      .executeTakeFirst();
    if (inserted) return undefined;
    return trx.selectFrom('blobs').selectAll().where('sha256', '=', row.sha256).executeTakeFirstOrThrow();
  }

  async stat(sha256: string): Promise<StoredBlob | undefined> {
    if (!isSha256(sha256)) return undefined;
    const row = await this.db.selectFrom('blobs').selectAll().where('sha256', '=', sha256).executeTakeFirst();
    return row ? toStoredBlob(row) : undefined;
  }

  async read(sha256: string, range?: ByteRange): Promise<Readable> {
    const blob = await this.stat(sha256);
    if (!blob) throw new BlobNotFoundError(sha256);
    if (range) {
      const { start, end } = range;
      if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start || end >= blob.size) {
        throw new RangeError(`bytes ${start}-${end} are outside blob ${sha256} (${blob.size} bytes)`);
      }
      return this.openBytes(sha256, blob.size, range);
    }
    const bytes = await this.openBytes(sha256, blob.size);
    const verifier = new VerifyingStream(blob, this.log, () => this.corrupted(sha256));
    return pipeline(bytes, verifier, () => {
      // Errors reach the consumer through the verifier, which pipeline destroys with them.
    });
  }

  async deleteIfUnreferenced(sha256: string): Promise<boolean> {
    if (!isSha256(sha256)) return false;
    return inTransaction(this.db, async (trx) => {
      if (!(await this.lock(trx, sha256))) return false;
      // A new statement, after the lock: it sees every reference committed by a writer we waited for.
      if (await isReferenced(trx, sha256)) return false;
      await trx.deleteFrom('blobs').where('sha256', '=', sha256).execute();
      await this.removeBytes(trx, sha256);
      return true;
    });
  }

  /** Locks the blob's row for the rest of the transaction; false when there is none. */
  private async lock(trx: Db, sha256: string): Promise<boolean> {
    if (this.dialect === 'postgres') {
      const row = await trx
        .selectFrom('blobs')
        .select('sha256')
        .where('sha256', '=', sha256)
        .forUpdate()
        .executeTakeFirst();
      return row !== undefined;
    }
    // A no-op write: takes SQLite's write lock, so no put can claim the row until we commit.
    const row = await trx
      .updateTable('blobs')
      .set((eb) => ({ size: eb.ref('size') }))
      .where('sha256', '=', sha256)
      .returning('sha256')
      .executeTakeFirst();
    return row !== undefined;
  }
}

/**
 * Passes bytes through while hashing them, holding the latest chunk back:
 * the stream ends only after the checksum and size matched, so a consumer
 * never receives the whole of a corrupted blob.
 */
class VerifyingStream extends Transform {
  private readonly hash = createHash('sha256');
  private held: Buffer | undefined;
  private size = 0;

  constructor(
    private readonly blob: StoredBlob,
    private readonly log: Logger | undefined,
    private readonly onMismatch: () => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    if (this.held) this.push(this.held);
    this.held = chunk;
    callback();
  }

  override _flush(callback: TransformCallback): void {
    const actual = this.hash.digest('hex');
    if (actual !== this.blob.sha256 || this.size !== this.blob.size) {
      const error = new BlobIntegrityError(this.blob.sha256, actual, this.size);
      this.log?.error(
        { sha256: this.blob.sha256, actualSha256: actual, size: this.blob.size, actualSize: this.size },
        'blob checksum mismatch: the stored bytes are corrupted',
      );
      this.onMismatch();
      callback(error);
      return;
    }
    if (this.held) this.push(this.held);
    callback();
  }
}
