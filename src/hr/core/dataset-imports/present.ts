import { formatDateTime } from '../../../platform/time.js';
import { type DatasetImportRecord, storedStats } from './repository.js';
import type { DatasetImport } from './schemas.js';

/** `DatasetImportFull`. */
export function presentDatasetImport(i: DatasetImportRecord): DatasetImport {
  const at = (ms: number | null) => (ms === null ? null : formatDateTime(ms));
  return {
    id: i.id,
    dataset_id: i.datasetId,
    filename: i.filename,
    status: i.status,
    result: i.result,
    origin: 'api',
    creator_id: i.creatorId,
    total_dimensions_count: i.totalDimensionsCount,
    total_values_count: i.totalValuesCount,
    started_at: at(i.startedAt),
    finished_at: at(i.finishedAt),
    stats: storedStats(i.stats),
    created_at: formatDateTime(i.createdAt),
    updated_at: formatDateTime(i.updatedAt),
  };
}
