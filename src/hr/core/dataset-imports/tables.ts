import type { Generated } from 'kysely';

/** A dataset import (reference §5.2): a CSV that replaces every value of a dataset, all or nothing. */
export interface HrDatasetImportsTable {
  pk: Generated<number>;
  client_id: string;
  /** UUID v4. */
  id: string;
  dataset_id: string;
  /** The uploaded file's name. */
  filename: string;
  /** The source CSV: a blob (platform/blobs, listed in BLOB_REFERENCES). */
  sha256: string;
  size: number;
  /** `queued`, `in_progress`, `finished`. */
  status: string;
  /** `success` or `error` once finished; null before. */
  result: string | null;
  /** The HR user who asked for it (`X-Atrium-User-Id`), or null for the application. */
  creator_id: string | null;
  total_dimensions_count: number;
  total_values_count: number;
  /** JSON: the reference's `stats`. */
  stats: string;
  /** JSON: the report's entries (errors and warnings), at most 1,000. */
  report: string;
  job_id: number | null;
  started_at: number | null;
  finished_at: number | null;
  created_at: number;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_dataset_imports: HrDatasetImportsTable;
  }
}

/**
 * A values key whose rows of `hr_dataset_values` are to be deleted, a batch at a time: the values an import replaced,
 * or the staged values of an import that never swapped them in. While `import_id` names an import that has not
 * finished, the key is that import's staging, still being written.
 */
export interface HrDatasetValueDiscardsTable {
  pk: Generated<number>;
  client_id: string;
  values_key: string;
  import_id: string | null;
  created_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_dataset_value_discards: HrDatasetValueDiscardsTable;
  }
}
