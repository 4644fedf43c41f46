import { formatDateTime } from '../../../platform/time.js';
import { type DatasetRecord, type DatasetValueRecord, wireNames } from './repository.js';
import type { Dataset, DatasetValue } from './schemas.js';

/** `DatasetFull`. */
export function presentDataset(dataset: DatasetRecord): Dataset {
  return {
    id: dataset.id,
    name: dataset.name,
    localized_names: wireNames(dataset.localizedNames),
    dimensions: dataset.dimensions.map((d) => ({
      id: d.id,
      localized_names: wireNames(d.localizedNames),
      name: d.localizedNames[0]?.value ?? null,
    })),
    values_count: dataset.valuesCount,
    last_import_status: dataset.lastImportStatus,
    last_import_result: dataset.lastImportResult,
    created_at: formatDateTime(dataset.createdAt),
    updated_at: formatDateTime(dataset.updatedAt),
  };
}

/** `DatasetValueFull`: `dimensionIds` are its dataset's dimensions, root first. */
export function presentDatasetValue(value: DatasetValueRecord, dimensionIds: readonly string[]): DatasetValue {
  return {
    id: value.id,
    code: value.code,
    name: value.name,
    localized_names: wireNames(value.localizedNames),
    dataset_id: value.datasetId,
    dimension_id: dimensionIds[value.depth] ?? '',
  };
}
