/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms). */

import type { Generated } from 'kysely';

/** A document-type prediction run (`POST /document_type_prediction_run`), computed by a job of the runner. */
export interface HrDocumentTypePredictionRunsTable {
  pk: Generated<number>;
  client_id: string;
  /** UUID v4, made by the server. */
  id: string;
  /** The employee or company document classified (its `id`). */
  document_id: string;
  /** `SCHEDULED`, `IN_PROGRESS`, `DONE` or `FAILED`. */
  status: string;
  /** Null unless FAILED (`prediction-error`). */
  error_code: string | null;
  /** JSON array of {document_type_id, probability}, best first; `[]` until DONE. */
  guessed_document_types: string;
  started_at: number | null;
  completed_at: number | null;
  created_at: number;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_document_type_prediction_runs: HrDocumentTypePredictionRunsTable;
  }
}
