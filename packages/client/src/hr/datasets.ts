/** Datasets (`/datasets`): hierarchical value lists, and their values. */

import { HrNotFoundError } from '../errors.js';
import type { RequestOptions } from '../http.js';
import type { AutoPager } from '../pagination.js';
import type {
  Dataset,
  DatasetListQuery,
  DatasetPut,
  DatasetValue,
  DatasetValueListQuery,
  DatasetValuePut,
} from '../schemas/hr/core/datasets.js';
import { enc, type HrCore, type Id, type ListParams, type Verbs } from './core.js';

/** `hr.datasets`. */
export function datasets(core: HrCore, v: Verbs) {
  const path = '/datasets';
  const values = (datasetId: Id) => `${path}/${enc(datasetId)}/values`;
  return {
    list: v.list<Dataset, DatasetListQuery>(path),
    retrieve: v.retrieve<Dataset>(path),
    /** `PUT /datasets/{id}`: creates (201) or updates the dataset. */
    upsert: v.upsert<DatasetPut, Dataset>(path),
    values: {
      /** `GET /datasets/{id}/values`: every page, in name order unless `sort` says otherwise. */
      list: (
        datasetId: Id,
        params?: ListParams<DatasetValueListQuery>,
        options?: RequestOptions,
      ): AutoPager<DatasetValue> =>
        core.pager<DatasetValue>(values(datasetId), params as Record<string, unknown>, options),
      retrieve: (datasetId: Id, valueId: Id, options?: RequestOptions): Promise<DatasetValue> =>
        core.json<DatasetValue>('GET', `${values(datasetId)}/${enc(valueId)}`, {}, options),
      /** `HEAD /datasets/{id}/values/{value_id}`: true when the value exists, false on 404. */
      exists: async (datasetId: Id, valueId: Id, options?: RequestOptions): Promise<boolean> => {
        try {
          await core.head(`${values(datasetId)}/${enc(valueId)}`, options);
          return true;
        } catch (error) {
          if (error instanceof HrNotFoundError) return false;
          throw error;
        }
      },
      /** `PUT /datasets/{id}/values/{value_id}`: creates (201) or renames the value at its dotted path. */
      upsert: (datasetId: Id, valueId: Id, body: DatasetValuePut, options?: RequestOptions): Promise<DatasetValue> =>
        core.json<DatasetValue>('PUT', `${values(datasetId)}/${enc(valueId)}`, { body }, options),
      del: async (datasetId: Id, valueId: Id, options?: RequestOptions): Promise<void> => {
        await core.call('DELETE', `${values(datasetId)}/${enc(valueId)}`, {}, options);
      },
    },
  };
}
