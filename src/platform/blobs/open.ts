import path from 'node:path';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { BlobCache } from './cache.js';
import { FileBlobStore } from './filesystem.js';
import { PostgresBlobStore } from './postgres.js';
import type { BlobStore } from './store.js';

/** The blob directory under the data directory. */
export function blobDirectory(dataDir: string): string {
  return path.join(dataDir, 'blobs');
}

/** The PostgreSQL store's local cache of bytes under the data directory. */
export function blobCacheDirectory(dataDir: string): string {
  return path.join(dataDir, 'blob-cache');
}

export interface BlobStoreOptions {
  dataDir: string;
  log?: Logger;
  /** The PostgreSQL store's local cache, in bytes (`ATRIUM_BLOB_CACHE_MB`); none when 0 or unset. */
  cacheBytes?: number;
}

/**
 * The store that suits the database: chunks in PostgreSQL (shared by every
 * process on the database), with a local cache of up to `cacheBytes` under
 * `<dataDir>/blob-cache` (none when 0 or unset); files under `<dataDir>/blobs`
 * with SQLite.
 */
export function openBlobStore(database: Database, options: BlobStoreOptions): BlobStore {
  if (database.dialect === 'postgres') {
    return new PostgresBlobStore(database.db, options.log, openCache(options));
  }
  return new FileBlobStore(database.db, database.dialect, blobDirectory(options.dataDir), options.log);
}

/**
 * The local cache, or none when it is off or its directory cannot be made (a read-only data directory is fine
 * with PostgreSQL and the master key in the environment: the cache is only an optimisation).
 */
function openCache(options: BlobStoreOptions): BlobCache | undefined {
  const cacheBytes = options.cacheBytes ?? 0;
  if (cacheBytes <= 0) return undefined;
  const dir = blobCacheDirectory(options.dataDir);
  try {
    return new BlobCache(dir, cacheBytes, options.log);
  } catch (err) {
    options.log?.warn({ err, dir }, 'the local cache of stored files is off: its directory cannot be made');
    return undefined;
  }
}
