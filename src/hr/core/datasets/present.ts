import { formatDateTime } from '../../../platform/time.js';
import type { DatasetRecord, DatasetValueRecord } from './repository.js';
import type { Dataset, DatasetValue } from './schemas.js';

/** `DatasetFull`. */
export function presentDataset(dataset: DatasetRecord): Dataset {
  return {
    id: dataset.id,
    name: dataset.name,
    localized_names: dataset.localized_names,
    dimensions: dataset.dimensions.map((d) => ({
      id: d.id,
      localized_names: d.localized_names,
      name: d.localized_names[0]?.value ?? null,
    })),
    values_count: dataset.values_count,
    last_import_status: dataset.last_import_status,
    last_import_result: dataset.last_import_result,
    created_at: formatDateTime(dataset.created_at),
    updated_at: formatDateTime(dataset.updated_at),
  };
}

/** `DatasetValueFull`: `dimensionIds` are its dataset's dimensions, root first. */
export function presentDatasetValue(value: DatasetValueRecord, dimensionIds: readonly string[]): DatasetValue {
  return {
    id: value.id,
    code: value.code,
    name: value.name,
    localized_names: value.localized_names,
    dataset_id: value.dataset_id,
    dimension_id: dimensionIds[value.depth] ?? '',
  };
}
