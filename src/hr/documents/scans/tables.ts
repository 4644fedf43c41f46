/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms). */

import type { Generated } from 'kysely';

/**
 * An antivirus scan of an uploaded file (`POST /document/upload*`, `POST /file/upload/*`). While it is `pending`
 * the row holds the file's blob (`sha256`, in BLOB_REFERENCES while `scanned_at` is null); a clean file then
 * becomes the upload `file_id`, which holds the blob from then on. An infected or unreadable one never does.
 */
export interface HrScansTable {
  pk: Generated<number>;
  client_id: string;
  /** UUID v4, made by the server: the `scan_id`. */
  id: string;
  /** UUID v4, made by the server: the upload the file becomes once clean (`file_id`, `sae_file_id`, `id`). */
  file_id: string;
  /** `document` (`POST /document/upload*`) or `file` (`POST /file/upload/*`). */
  source: string;
  /** As sent by the client, cleaned for display; never used as a path. */
  filename: string;
  sha256: string;
  size: number;
  content_type: string;
  /** `pending`, `clean`, `infected` or `failed`. */
  status: string;
  message: string | null;
  /** The upload's lifetime, in seconds from `created_at`. */
  retention_period: number;
  /** Where the verdict is POSTed (`X-Callback-Url`); null for none. */
  callback_url: string | null;
  created_at: number;
  /** When the verdict was reached; null while pending. */
  scanned_at: number | null;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_scans: HrScansTable;
  }
}
