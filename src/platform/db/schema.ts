import type { Generated } from 'kysely';

/**
 * Every table of the database, as one interface that Kysely's `Db` is typed with. The platform declares its own
 * tables here; each resource declares its tables in its own `tables.ts` and adds them to this interface by
 * declaration merging (`declare module '…/platform/db/schema.js' { interface Tables { … } }`), so the platform
 * never imports a resource, and a new resource touches no file outside its folder to type its tables.
 */
export interface Tables {
  settings: SettingsTable;
  blobs: BlobsTable;
  blob_chunks: BlobChunksTable;
  blob_staging: BlobStagingTable;
}

export interface SettingsTable {
  key: string;
  value: string;
}
/** One row per stored content (see docs/storage.md): the bytes live in files or in `blob_chunks`. */
export interface BlobsTable {
  /** Lower-case hex SHA-256 of the bytes: the blob's identity. */
  sha256: string;
  size: number;
  /** Sniffed from the bytes, `application/octet-stream` when unknown. */
  content_type: string;
  created_at: number;
}
/** The bytes of a blob on PostgreSQL, in chunks of 256 KiB (the last one shorter). */
export interface BlobChunksTable {
  sha256: string;
  /** Zero-based chunk number. */
  seq: number;
  data: Buffer;
}
/** Chunks of a PostgreSQL write in progress, before its checksum is known. */
export interface BlobStagingTable {
  staging_id: string;
  seq: number;
  data: Buffer;
  created_at: number;
}
