import type { Readable } from 'node:stream';
import type { Db } from '../db/database.js';

/**
 * Content-addressed storage of files ("blobs"). A blob is identified by the
 * lower-case hex SHA-256 of its bytes; storing the same bytes twice stores
 * them once. Every blob has a row in the `blobs` table (size, sniffed content
 * type); its bytes live in a directory (SQLite) or in `blob_chunks`
 * (PostgreSQL). See docs/storage.md.
 */
export interface BlobStore {
  /** Where the bytes live. */
  readonly kind: 'filesystem' | 'postgres';

  /**
   * Streams `source` into the store (never buffering it whole), hashing it on
   * the way, and records the blob. The bytes are staged first (a temp file or
   * staging rows); only once the whole stream has arrived, within the limit,
   * does one transaction record the `blobs` row, run `attach` and make the
   * bytes the blob's. If anything fails — the source errors or is cut off,
   * the limit is passed (`BlobTooLargeError`), `attach` throws — nothing is
   * left behind: no staged bytes, no row, no reference.
   *
   * Record the blob's reference (the row in a table listed in
   * `BLOB_REFERENCES`) in `attach`: a blob nothing refers to may be deleted
   * by any `deleteIfUnreferenced` call from then on.
   *
   * The source is read but never destroyed, so a request body that is left
   * unread can still be answered.
   */
  put<T = undefined>(source: Readable, options?: PutOptions<T>): Promise<PutResult<T>>;

  /** The blob's row, or undefined when no such blob is stored. */
  stat(sha256: string): Promise<StoredBlob | undefined>;

  /**
   * A stream of the blob's bytes, or of the inclusive byte `range` of them.
   *
   * A full read is verified: the bytes are hashed as they stream and the last
   * chunk is held back until the checksum (and size) match; on a mismatch the
   * stream is destroyed with a `BlobIntegrityError` (an HTTP response it is
   * piped to is aborted, short of its Content-Length) and the event is
   * logged. Range reads are not verified.
   *
   * Rejects with `BlobNotFoundError` when the blob does not exist, and with a
   * `RangeError` for a range outside the blob.
   */
  read(sha256: string, range?: ByteRange): Promise<Readable>;

  /**
   * Deletes the blob's row and bytes when no row of any table in
   * `BLOB_REFERENCES` refers to it; answers whether it deleted. Safe against
   * a concurrent `put` of the same bytes and against concurrent reference
   * writes: the blob's row is locked, then the references are checked in one
   * statement.
   */
  deleteIfUnreferenced(sha256: string): Promise<boolean>;

  /** Removes staged bytes of writes that started before `before` (epoch ms) and never finished (a crashed process). */
  sweepStaging(before: number): Promise<number>;
}

/** A stored blob, as its `blobs` row records it. */
export interface StoredBlob {
  /** Lower-case hex SHA-256 of the bytes. */
  sha256: string;
  /** Size in bytes. */
  size: number;
  /** Sniffed from the bytes when first stored; `application/octet-stream` when unknown. */
  contentType: string;
  /** When the bytes were first stored (epoch ms). */
  createdAt: number;
}

export interface PutOptions<T> {
  /** Largest accepted size in bytes; beyond it the write fails with `BlobTooLargeError` and leaves nothing. */
  limit?: number;
  /**
   * Runs inside the transaction that records the blob, before it commits:
   * write the reference to the blob here (with `trx`), so the blob is never
   * visible unreferenced. Throwing undoes everything.
   */
  attach?: (trx: Db, blob: StoredBlob) => Promise<T>;
}

export interface PutResult<T> {
  blob: StoredBlob;
  /** True when these bytes were already stored (nothing new was written). */
  deduplicated: boolean;
  /** What `attach` returned. */
  attached: T;
}

/** An inclusive byte range, as in HTTP: `{start: 0, end: 99}` is the first 100 bytes. */
export interface ByteRange {
  start: number;
  end: number;
}

/** The source was larger than the limit; nothing was stored. */
export class BlobTooLargeError extends Error {
  override name = 'BlobTooLargeError';
  constructor(readonly limit: number) {
    super(`The content is larger than ${limit} bytes.`);
  }
}

/** The stored bytes no longer match their checksum (or size). */
export class BlobIntegrityError extends Error {
  override name = 'BlobIntegrityError';
  constructor(
    readonly sha256: string,
    readonly actualSha256: string,
    readonly actualSize: number,
  ) {
    super(`Blob ${sha256} failed its checksum (read ${actualSize} bytes hashing to ${actualSha256}).`);
  }
}

/** No blob has this checksum. */
export class BlobNotFoundError extends Error {
  override name = 'BlobNotFoundError';
  constructor(readonly sha256: string) {
    super(`Blob ${sha256} is not stored.`);
  }
}

const SHA256 = /^[0-9a-f]{64}$/;

/** True for a lower-case hex SHA-256, the only form blob ids take. */
export function isSha256(value: string): boolean {
  return SHA256.test(value);
}

/** A blob's bytes, whole, in memory (verified as `read` verifies them): for files bounded by the upload limit. */
export async function readBlob(store: BlobStore, sha256: string): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of await store.read(sha256)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
