/**
 * Portable snapshots' types (the server's docs/admin.md, "Portable snapshots"): a snapshot exported as one file,
 * imported into a tenant of any installation, and a tenant cloned.
 */

/** What `POST …/snapshots/import` did. */
export interface AdminSnapshotImported {
  /** The tenant written: `hr:<client_id>` or `academy:<acadId>`. */
  tenant: string;
  /** Where the file came from: the tenant and snapshot exported, and when that snapshot was saved. */
  source: { tenant: string; snapshot: string; created_at: string };
  deleted_rows: number;
  imported_rows: number;
  /** Stored files the file held, and those this installation did not store yet. */
  files: number;
  new_files: number;
  /** Tables whose integer keys were moved past the installation's, and unique ids given anew (they were in use). */
  renumbered_tables: number;
  renamed_ids: number;
  cancelled_jobs: number;
  deleted_files: number;
}

/** What `POST …/clone` made: the new tenant and its fresh credentials, shown only in this answer. */
export interface AdminTenantCloned extends AdminSnapshotImported {
  id: string;
  name: string;
  /** HR: the new client's application. */
  application?: {
    client_id: string;
    application_id: string;
    name: string;
    read_only: boolean;
    application_secret: string;
  };
  /** Academy: the new academy's API key and its super admin. */
  apikey?: string;
  super_admin_id?: number;
}

/** A portable snapshot file to import: its bytes. */
export type SnapshotFile = Uint8Array | Blob;
