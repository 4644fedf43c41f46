import type { Generated } from 'kysely';

/** A dataset: a hierarchical value list (reference §5.2). Instants in epoch ms. */
export interface HrDatasetsTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  /** The first localized name (lists sort and search by it). */
  name: string;
  /** JSON: `LocalizedString[]`. */
  localized_names: string;
  /** JSON: `[{id, localized_names}]`, root level first (at most 10). */
  dimensions: string;
  /** Kept with each value written or deleted, in the same transaction (the dataset row is the values' lock). */
  values_count: number;
  /** `queued`, `in_progress`, `finished`, or null before any import. */
  last_import_status: string | null;
  /** `success` or `error`, or null. */
  last_import_result: string | null;
  /**
   * The `dataset_id` its values are stored under: its own id, until an import stages new values under a key of its
   * own and swaps this one in (docs/imports.md, "Dataset imports").
   */
  values_key: string;
  created_at: number;
  updated_at: number;
}

/** A value of a dataset, at the level of its depth. */
export interface HrDatasetValuesTable {
  pk: Generated<number>;
  client_id: string;
  /** The values key of its dataset (`hr_datasets.values_key`): the dataset's id, or an import's staging key. */
  dataset_id: string;
  /** The dotted path from the root (`uk.london`). */
  id: string;
  /** The last segment of the path. */
  code: string;
  /** The path of its parent; null at the root level. */
  parent_id: string | null;
  /** 0 at the root: the index of its dimension. */
  depth: number;
  /** The first localized name. */
  name: string;
  /** JSON: `LocalizedString[]`. */
  localized_names: string;
  /** Every name and the code, lower-cased, for `q`. */
  search_text: string;
  created_at: number;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_datasets: HrDatasetsTable;
    hr_dataset_values: HrDatasetValuesTable;
  }
}
