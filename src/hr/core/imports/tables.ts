import type { Generated } from 'kysely';

/** A CSV import of employees, managers or organizations (reference §5.3), applied row by row by a job. */
export interface HrImportsTable {
  pk: Generated<number>;
  client_id: string;
  /** UUID v4. */
  id: string;
  /** `employee`, `manager` or `organization`. */
  type: string;
  /** The HR user named as `creator`, or null. */
  creator: string | null;
  /** `created`, `in_progress`, `success`, `partial_success` or `failed`. */
  status: string;
  filename: string;
  /** The source CSV: a blob (platform/blobs, listed in BLOB_REFERENCES). */
  sha256: string;
  size: number;
  /** The bulk operation whose items are the file's rows (hr_bulk_operations): one row, one item, settled once. */
  operation_id: string;
  /** 1 once every row of the file is an item (the job then only applies them). */
  loaded: number;
  rows_count: number;
  created_count: number;
  updated_count: number;
  errors_count: number;
  /** Why the whole file failed, or what was ignored (unknown columns); null when there is nothing to say. */
  message: string | null;
  job_id: number | null;
  started_at: number | null;
  finished_at: number | null;
  created_at: number;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_imports: HrImportsTable;
  }
}
