import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { Db, DialectName } from '../db/database.js';
import { chunksOf, IndexedBlobStore, type Staged, StagingMeter } from './base.js';
import type { ByteRange } from './store.js';

/** The suffix of a file being written, before it is renamed into place. */
export const TEMP_SUFFIX = '.part';

/** Writes the whole chunk (a file handle's write may take part of it). */
export async function writeAll(handle: FileHandle, chunk: Buffer): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
    offset += bytesWritten;
  }
}

/** Where a blob's bytes live under a content-addressed directory: `<root>/ab/cd/<sha256>`. */
export function contentPath(root: string, sha256: string): string {
  return path.join(root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
}

/** Removes the `.part` files in `dir` last written before `before` (epoch ms); answers how many. */
export async function removeStaleParts(dir: string, before: number): Promise<number> {
  let removed = 0;
  for (const name of await fs.promises.readdir(dir)) {
    if (!name.endsWith(TEMP_SUFFIX)) continue;
    const file = path.join(dir, name);
    const stat = await fs.promises.stat(file).catch(() => undefined);
    if (stat && stat.mtimeMs < before) {
      await fs.promises.rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}

/** fsync of a directory, so a rename or an unlink in it survives a power cut. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await fs.promises.open(dir, 'r');
    await handle.sync();
  } catch {
    // Not every filesystem lets a directory be opened or synced; the rename is atomic all the same.
  } finally {
    await handle?.close().catch(() => {});
  }
}

/**
 * Blobs as files in a content-addressed directory: `<root>/ab/cd/<sha256>`.
 * A write goes to `<root>/tmp/<uuid>.part` (same filesystem), hashed as it
 * streams, fsynced, then renamed into place atomically in the transaction
 * that records the blob. The default with SQLite (`<ATRIUM_DATA_DIR>/blobs`).
 */
export class FileBlobStore extends IndexedBlobStore {
  readonly kind = 'filesystem' as const;
  readonly tmpDir: string;

  constructor(
    db: Db,
    dialect: DialectName,
    readonly root: string,
    log?: Logger,
  ) {
    super(db, dialect, log);
    this.tmpDir = path.join(root, 'tmp');
    // The blob directory is this user's only (0700), like the data directory; blob files are written 0600.
    fs.mkdirSync(this.tmpDir, { recursive: true, mode: 0o700 });
  }

  /** Where a blob's bytes live. */
  pathOf(sha256: string): string {
    return contentPath(this.root, sha256);
  }

  protected async stage(source: Readable, limit: number): Promise<Staged> {
    const file = path.join(this.tmpDir, `${randomUUID()}${TEMP_SUFFIX}`);
    const handle = await fs.promises.open(file, 'wx', 0o600);
    const meter = new StagingMeter(limit);
    try {
      for await (const chunk of chunksOf(source)) {
        meter.add(chunk);
        await writeAll(handle, chunk);
      }
      await handle.sync();
      await handle.close();
    } catch (error) {
      await handle.close().catch(() => {});
      await fs.promises.rm(file, { force: true });
      throw error;
    }
    return meter.finish(file);
  }

  protected async promote(_trx: Db, staged: Staged): Promise<void> {
    // Renamed even when the blob exists: same bytes by construction, and it restores a file lost outside Atrium.
    const target = this.pathOf(staged.sha256);
    const dir = path.dirname(target);
    await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
    await fs.promises.rename(staged.token, target);
    await syncDirectory(dir);
  }

  protected async discard(staged: Staged): Promise<void> {
    await fs.promises.rm(staged.token, { force: true });
  }

  protected async removeBytes(_trx: Db, sha256: string): Promise<void> {
    // Inside the deleting transaction: no put of the same bytes can rename its file in before we commit.
    const target = this.pathOf(sha256);
    await fs.promises.rm(target, { force: true });
    await syncDirectory(path.dirname(target));
  }

  protected async openBytes(sha256: string, _size: number, range?: ByteRange): Promise<Readable> {
    // Opened here, so a missing file fails before any response is started.
    const handle = await fs.promises.open(this.pathOf(sha256), 'r');
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async sweepStaging(before: number): Promise<number> {
    return removeStaleParts(this.tmpDir, before);
  }
}
