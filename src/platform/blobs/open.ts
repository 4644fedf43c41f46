import path from 'node:path';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { FileBlobStore } from './filesystem.js';
import { PostgresBlobStore } from './postgres.js';
import type { BlobStore } from './store.js';

/** The blob directory under the data directory. */
export function blobDirectory(dataDir: string): string {
  return path.join(dataDir, 'blobs');
}

/**
 * The store that suits the database: chunks in PostgreSQL (shared by every
 * process on the database), files under `<dataDir>/blobs` with SQLite.
 */
export function openBlobStore(database: Database, options: { dataDir: string; log?: Logger }): BlobStore {
  if (database.dialect === 'postgres') return new PostgresBlobStore(database.db, options.log);
  return new FileBlobStore(database.db, database.dialect, blobDirectory(options.dataDir), options.log);
}
