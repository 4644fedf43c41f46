import { formatDateTime } from '../../../platform/time.js';
import type { DatasetImportRecord } from './repository.js';
import type { DatasetImport } from './schemas.js';

/** `DatasetImportFull`. */
export function presentDatasetImport(i: DatasetImportRecord): DatasetImport {
  const at = (ms: number | null) => (ms === null ? null : formatDateTime(ms));
  return {
    id: i.id,
    dataset_id: i.dataset_id,
    filename: i.filename,
    status: i.status,
    result: i.result,
    origin: 'api',
    creator_id: i.creator_id,
    total_dimensions_count: i.total_dimensions_count,
    total_values_count: i.total_values_count,
    started_at: at(i.started_at),
    finished_at: at(i.finished_at),
    stats: i.stats,
    created_at: formatDateTime(i.created_at),
    updated_at: formatDateTime(i.updated_at),
  };
}
