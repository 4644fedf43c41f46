import type { Generated } from 'kysely';

/** A tenant's saved state under a name (migration 0026; docs/admin.md, "Snapshots"). */
export interface TenantSnapshotsTable {
  id: Generated<number>;
  /** `hr:<client_id>` or `academy:<acadId>`. */
  tenant: string;
  name: string;
  created_at: number;
  /** Who saved it (the admin audit log's actor). */
  created_by: string;
  /** The last migration applied when it was saved: a snapshot restores into the same schema only. */
  migration: string;
  rows_count: number;
  files_count: number;
  /** Bytes of saved JSON, all tables together. */
  size: number;
}

/** The saved rows of one of the tenant's tables. */
export interface TenantSnapshotTablesTable {
  snapshot_id: number;
  table_name: string;
  /** JSON array of the column names, in the order of `rows`' values (SQLite), or of the saved members (PostgreSQL). */
  columns: string;
  row_count: number;
  /**
   * The rows as one JSON array: of arrays of values in `columns`' order, as JSONB (SQLite's binary JSON, a blob in
   * this text column); of objects as JSON text (PostgreSQL, `json_agg`). Read by SQL only.
   */
  rows: string;
}

/** A blob the snapshot's rows refer to: kept while the snapshot is (`BLOB_REFERENCES`). */
export interface TenantSnapshotFilesTable {
  snapshot_id: number;
  sha256: string;
}

declare module '../../platform/db/schema.js' {
  interface Tables {
    tenant_snapshots: TenantSnapshotsTable;
    tenant_snapshot_tables: TenantSnapshotTablesTable;
    tenant_snapshot_files: TenantSnapshotFilesTable;
  }
}
