/**
 * Document classification (`/document_type_prediction_run`): a run guesses a document's type in the background;
 * poll it until `DONE` or `FAILED` (docs/hr-api.md, "Document classification").
 */
import type { PredictionRun, PredictionRunCreate } from '../schemas/hr/documents/classification.js';
import type { Verbs } from './core.js';

/** `hr.documentTypePredictionRuns`. */
export function documentTypePredictionRuns(v: Verbs) {
  const path = '/document_type_prediction_run';
  return {
    /** Schedules a run (202, `SCHEDULED`). */
    create: v.create<PredictionRunCreate, PredictionRun>(path),
    /** The run: its status, and its guesses once `DONE`. */
    retrieve: v.retrieve<PredictionRun>(path),
  };
}
