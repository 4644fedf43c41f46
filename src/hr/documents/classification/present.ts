import { formatDateTime } from '../../../platform/time.js';
import type { PredictionRunRecord } from './repository.js';
import type { PredictionRun } from './schemas.js';

const instant = (ms: number | null) => (ms === null ? null : formatDateTime(ms));

/** `DocumentTypePredictionRun`. */
export function presentPredictionRun(run: PredictionRunRecord): PredictionRun {
  return {
    id: run.id,
    document_id: run.documentId,
    status: run.status,
    error_code: run.errorCode,
    started_at: instant(run.startedAt),
    completed_at: instant(run.completedAt),
    guessed_document_types: run.guesses.map((g) => ({
      document_type_id: g.documentTypeId,
      probability: g.probability,
    })),
    created_at: formatDateTime(run.createdAt),
    updated_at: formatDateTime(run.updatedAt),
  };
}
