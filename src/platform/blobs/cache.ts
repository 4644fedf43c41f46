import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { contentPath, removeStaleParts, TEMP_SUFFIX, writeAll } from './filesystem.js';
import { type ByteRange, isSha256 } from './store.js';

/**
 * A bounded cache of blobs' bytes on this machine's disk, in front of a store
 * whose bytes are far away (the PostgreSQL store): `<root>/ab/cd/<sha256>`,
 * like the file store's layout.
 *
 * It can never serve stale bytes: a blob's name is the SHA-256 of its bytes,
 * so the bytes under a name never change. Whether a blob exists (and may be
 * read) is still asked of the database on every read; the cache only saves
 * fetching the bytes. A file is kept only once its content hashed to its name,
 * a full read of a cached file is verified like any other full read (and a
 * corrupted file is removed), and the cache is an optimisation only: any
 * failure to read or write it falls back to the store.
 *
 * Bounded by `maxBytes`: the least recently read files are removed beyond it.
 * Each process counts the files it wrote or read, plus those it found at
 * start, so several processes sharing one directory may together exceed the
 * bound by what the others added since (docs/storage.md).
 */
export class BlobCache {
  /** Cached blobs and their sizes, least recently used first. */
  private readonly entries = new Map<string, number>();
  private total = 0;
  private readonly scanned: Promise<void>;
  readonly tmpDir: string;

  constructor(
    readonly root: string,
    readonly maxBytes: number,
    private readonly log?: Logger,
  ) {
    this.tmpDir = path.join(root, 'tmp');
    fs.mkdirSync(this.tmpDir, { recursive: true, mode: 0o700 });
    this.scanned = this.scan().catch((err: unknown) => this.log?.warn({ err }, 'reading the blob cache failed'));
  }

  /** Where a cached blob's bytes live. */
  pathOf(sha256: string): string {
    return contentPath(this.root, sha256);
  }

  /** Bytes the cache counts, and files (after the start-up scan). */
  async usage(): Promise<{ bytes: number; files: number }> {
    await this.scanned;
    return { bytes: this.total, files: this.entries.size };
  }

  /** The cached bytes, whole or a range, or undefined when this blob is not cached here (or not whole). */
  async open(sha256: string, size: number, range?: ByteRange): Promise<Readable | undefined> {
    let handle: FileHandle | undefined;
    try {
      handle = await fs.promises.open(this.pathOf(sha256), 'r');
      if ((await handle.stat()).size !== size) {
        await handle.close();
        await this.remove(sha256);
        return undefined;
      }
    } catch {
      await handle?.close().catch(() => {});
      this.forget(sha256);
      return undefined;
    }
    this.use(sha256, size);
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  /**
   * Passes the blob's whole content through, writing a copy that becomes the
   * cached file only if it is whole and hashes to `sha256`. The copy never
   * slows or fails the read: if the disk refuses it, it is dropped.
   */
  fill(sha256: string, size: number, bytes: Readable): Readable {
    if (size > this.maxBytes) return bytes;
    const cache = this;
    async function* through(): AsyncGenerator<Buffer> {
      const temp = path.join(cache.tmpDir, `${randomUUID()}${TEMP_SUFFIX}`);
      let handle: FileHandle | undefined = await fs.promises.open(temp, 'wx', 0o600).catch(() => undefined);
      const hash = createHash('sha256');
      let written = 0;
      let kept = false;
      try {
        for await (const chunk of bytes) {
          const data = chunk as Buffer;
          if (handle) {
            try {
              hash.update(data);
              await writeAll(handle, data);
              written += data.length;
            } catch (err) {
              cache.log?.warn({ err, sha256 }, 'writing to the blob cache failed');
              await handle.close().catch(() => {});
              handle = undefined;
            }
          }
          yield data;
        }
        if (handle && written === size && hash.digest('hex') === sha256) {
          await handle.close();
          handle = undefined;
          kept = await cache.keep(temp, sha256, size);
        }
      } finally {
        await handle?.close().catch(() => {});
        if (!kept) await fs.promises.rm(temp, { force: true }).catch(() => {});
      }
    }
    return Readable.from(through(), { objectMode: false });
  }

  /** Drops a cached blob (deleted, or found corrupted). */
  async remove(sha256: string): Promise<void> {
    this.forget(sha256);
    await fs.promises.rm(this.pathOf(sha256), { force: true }).catch(() => {});
  }

  /**
   * Removes the cached blobs `exists` no longer knows (deleted by another
   * process, whose own cache removed its copy), and copies in progress older
   * than `before` (epoch ms) that a stopped process left. Answers how many
   * files it removed.
   */
  async prune(exists: (sha256s: string[]) => Promise<Set<string>>, before: number): Promise<number> {
    await this.scanned;
    let removed = 0;
    const names = [...this.entries.keys()];
    for (let i = 0; i < names.length; i += 500) {
      const batch = names.slice(i, i + 500);
      const kept = await exists(batch);
      for (const sha256 of batch) {
        if (kept.has(sha256)) continue;
        await this.remove(sha256);
        removed++;
      }
    }
    return removed + (await removeStaleParts(this.tmpDir, before).catch(() => 0));
  }

  private async keep(temp: string, sha256: string, size: number): Promise<boolean> {
    const target = this.pathOf(sha256);
    try {
      await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      // Atomic: a reader sees the whole file or none. Another process may have kept the same bytes: same content.
      await fs.promises.rename(temp, target);
    } catch (err) {
      this.log?.warn({ err, sha256 }, 'keeping a blob in the cache failed');
      return false;
    }
    await this.scanned;
    this.use(sha256, size);
    await this.evict();
    return true;
  }

  /** Marks a blob most recently used (counting it if new). */
  private use(sha256: string, size: number): void {
    const known = this.entries.get(sha256);
    if (known !== undefined) this.entries.delete(sha256);
    else this.total += size;
    this.entries.set(sha256, size);
  }

  private forget(sha256: string): void {
    const known = this.entries.get(sha256);
    if (known === undefined) return;
    this.entries.delete(sha256);
    this.total -= known;
  }

  /** Removes the least recently used files until the cache is within its bound. */
  private async evict(): Promise<void> {
    while (this.total > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) return;
      await this.remove(oldest.value);
    }
  }

  /** Counts the files an earlier process left, oldest read first, then applies the bound. */
  private async scan(): Promise<void> {
    const found: { sha256: string; size: number; at: number }[] = [];
    for (const a of await fs.promises.readdir(this.root)) {
      if (!/^[0-9a-f]{2}$/.test(a)) continue;
      for (const b of await fs.promises.readdir(path.join(this.root, a)).catch(() => [] as string[])) {
        const dir = path.join(this.root, a, b);
        for (const name of await fs.promises.readdir(dir).catch(() => [] as string[])) {
          if (!isSha256(name)) continue;
          const stat = await fs.promises.stat(path.join(dir, name)).catch(() => undefined);
          if (stat?.isFile()) found.push({ sha256: name, size: stat.size, at: stat.atimeMs });
        }
      }
    }
    found.sort((x, y) => x.at - y.at);
    const seen = new Map(this.entries);
    this.entries.clear();
    this.total = 0;
    for (const file of found) if (!seen.has(file.sha256)) this.use(file.sha256, file.size);
    // Those read or written since start are the most recent.
    for (const [sha256, size] of seen) this.use(sha256, size);
    await this.evict();
  }
}
