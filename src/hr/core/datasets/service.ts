import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { FieldValidationError, InvalidRequestError, NotFoundError, StateError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import { datasetEvents, datasetValueEvents } from './events.js';
import { presentDataset, presentDatasetValue } from './present.js';
import type {
  DatasetFilter,
  DatasetRecord,
  DatasetsRepository,
  DatasetValueFilter,
  DatasetValueRecord,
} from './repository.js';
import { datasetNames } from './repository.js';
import {
  type DatasetListQuery,
  type DatasetPut,
  type DatasetSortField,
  type DatasetValueListQuery,
  type DatasetValuePut,
  type DatasetValueSortField,
  MAX_VALUES,
} from './schemas.js';

export interface DatasetsWork {
  datasets: DatasetsRepository;
}

/** A page of values, with the dimensions of their dataset (each value names its own). */
export interface DatasetValuePage {
  dataset: DatasetRecord;
  page: Page<DatasetValueRecord>;
}

/** The parent's path of a value's dotted path (null at the root), and its code. */
export function splitValueId(id: string): { parentId: string | null; code: string; depth: number } {
  const segments = id.split('.');
  return {
    parentId: segments.length > 1 ? segments.slice(0, -1).join('.') : null,
    code: segments.at(-1) as string,
    depth: segments.length - 1,
  };
}

/**
 * Datasets (reference §5.2): hierarchical value lists. A value's id is its dotted path, so its parent and level
 * follow from it; a dataset's row is locked by every write of its values, which keeps `values_count` exact.
 */
export class DatasetsService {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<DatasetsWork>>,
    private readonly clock: Clock,
  ) {}

  list(
    clientId: HrTenantId,
    query: DatasetListQuery,
    request: PageRequest<DatasetSortField>,
  ): Promise<Page<DatasetRecord>> {
    const filter: DatasetFilter = {};
    if (query.q !== undefined) filter.q = query.q;
    if (query.last_import_status !== undefined) {
      filter.lastImportStatus = query.last_import_status === 'null' ? null : query.last_import_status;
    }
    if (query.last_import_result !== undefined) {
      filter.lastImportResult = query.last_import_result === 'null' ? null : query.last_import_result;
    }
    return this.work.read.datasets.page(clientId, filter, request);
  }

  async get(clientId: HrTenantId, id: string): Promise<DatasetRecord> {
    const dataset = await this.work.read.datasets.find(clientId, id);
    if (!dataset) throw new NotFoundError('dataset', id);
    return dataset;
  }

  /**
   * PUT: creates the dataset, or replaces its names and dimensions. Existing dimensions stay where they are, with
   * their ids (their names may change); new ones come after them.
   */
  async put(
    clientId: HrTenantId,
    id: string,
    input: DatasetPut,
  ): Promise<{ dataset: DatasetRecord; created: boolean }> {
    const dimensions = input.dimensions.map((d) => ({ id: d.id, localizedNames: datasetNames(d.localized_names) }));
    const ids = dimensions.map((d) => d.id);
    const twice = ids.findIndex((d, i) => ids.indexOf(d) !== i);
    if (twice >= 0) {
      throw new FieldValidationError([
        { field: `dimensions.${twice}.id`, code: 'duplicate', message: 'Each dimension has its own id.' },
      ]);
    }
    const attrs = { localizedNames: datasetNames(input.localized_names), dimensions };
    return this.work.run(async ({ datasets, audit }) => {
      const at = this.clock.now();
      let existing = await datasets.lock(clientId, id);
      // Two first PUTs at once: the one whose insert finds the row takes the update path.
      if (!existing && !(await datasets.insertIfAbsent(clientId, id, attrs, at))) {
        existing = await datasets.lock(clientId, id);
      }
      if (existing) {
        existing.dimensions.forEach((d, i) => {
          if (ids[i] !== d.id) {
            throw new FieldValidationError([
              {
                field: `dimensions.${i}.id`,
                code: 'immutable',
                message: `Dimension ${i} is "${d.id}": dimensions cannot be removed, moved or renamed once created.`,
              },
            ]);
          }
        });
        await datasets.update(clientId, id, attrs, at);
      }
      const dataset = (await datasets.find(clientId, id)) as DatasetRecord;
      await audit.record(clientId, datasetEvents, existing ? 'updated' : 'created', {
        id,
        name: dataset.name,
        data: presentDataset(dataset),
      });
      return { dataset, created: !existing };
    });
  }

  async listValues(
    clientId: HrTenantId,
    datasetId: string,
    query: DatasetValueListQuery,
    request: PageRequest<DatasetValueSortField>,
  ): Promise<DatasetValuePage> {
    const dataset = await this.get(clientId, datasetId);
    const filter: DatasetValueFilter = {};
    if (query.q !== undefined) filter.q = query.q;
    if (query.dimension !== undefined) {
      const depth = dataset.dimensions.findIndex((d) => d.id === query.dimension);
      if (depth < 0) {
        throw new InvalidRequestError(
          `Invalid query parameter "dimension": the dataset has no dimension "${query.dimension}".`,
        );
      }
      filter.depth = depth;
    }
    if (query.parent_code !== undefined) filter.parentId = query.parent_code;
    return { dataset, page: await this.work.read.datasets.valuePage(clientId, datasetId, filter, request) };
  }

  async getValue(
    clientId: HrTenantId,
    datasetId: string,
    valueId: string,
  ): Promise<{ dataset: DatasetRecord; value: DatasetValueRecord }> {
    const dataset = await this.get(clientId, datasetId);
    const value = await this.work.read.datasets.findValue(clientId, datasetId, valueId);
    if (!value) throw new NotFoundError('dataset value', valueId);
    return { dataset, value };
  }

  /** PUT: creates the value at its path (under an existing parent, within the dimensions), or renames it. */
  async putValue(
    clientId: HrTenantId,
    datasetId: string,
    valueId: string,
    input: DatasetValuePut,
  ): Promise<{ dataset: DatasetRecord; value: DatasetValueRecord; created: boolean }> {
    const { parentId, code, depth } = splitValueId(valueId);
    return this.work.run(async ({ datasets, audit }) => {
      const at = this.clock.now();
      const dataset = await datasets.lock(clientId, datasetId);
      if (!dataset) throw new NotFoundError('dataset', datasetId);
      if (depth >= dataset.dimensions.length) {
        throw new FieldValidationError([
          {
            field: 'value_id',
            code: 'too_deep',
            message: `The dataset has ${dataset.dimensions.length} dimensions: a value's id has at most ${dataset.dimensions.length} segments.`,
          },
        ]);
      }
      const existing = await datasets.findValue(clientId, datasetId, valueId);
      if (existing) {
        await datasets.updateValue(
          clientId,
          datasetId,
          { id: valueId, code, localizedNames: datasetNames(input.localized_names) },
          at,
        );
      } else {
        if (parentId !== null && !(await datasets.findValue(clientId, datasetId, parentId))) {
          throw new FieldValidationError([
            { field: 'value_id', code: 'not_found', message: `The dataset has no value "${parentId}" to hold it.` },
          ]);
        }
        if (dataset.valuesCount >= MAX_VALUES) {
          throw new FieldValidationError([
            { field: 'value_id', code: 'too_many', message: `A dataset holds at most ${MAX_VALUES} values.` },
          ]);
        }
        await datasets.insertValues(
          clientId,
          dataset.valuesKey,
          [{ id: valueId, code, parentId, depth, localizedNames: datasetNames(input.localized_names) }],
          at,
        );
        await datasets.countValues(clientId, datasetId, 1, at);
      }
      const value = (await datasets.findValue(clientId, datasetId, valueId)) as DatasetValueRecord;
      const dimensionIds = dataset.dimensions.map((d) => d.id);
      await audit.record(clientId, datasetValueEvents, existing ? 'updated' : 'created', {
        id: `${datasetId}/${valueId}`,
        name: value.name,
        data: presentDatasetValue(value, dimensionIds),
      });
      return { dataset, value, created: !existing };
    });
  }

  /** DELETE: removes a value that holds none (422 `has_children` otherwise). */
  async deleteValue(clientId: HrTenantId, datasetId: string, valueId: string): Promise<void> {
    await this.work.run(async ({ datasets, audit }) => {
      const at = this.clock.now();
      const dataset = await datasets.lock(clientId, datasetId);
      if (!dataset) throw new NotFoundError('dataset', datasetId);
      const value = await datasets.findValue(clientId, datasetId, valueId);
      if (!value) throw new NotFoundError('dataset value', valueId);
      if (await datasets.hasChildren(clientId, datasetId, valueId)) {
        throw new StateError('has_children', 'The value holds other values: delete them first.');
      }
      await datasets.deleteValue(clientId, datasetId, valueId);
      await datasets.countValues(clientId, datasetId, -1, at);
      await audit.record(clientId, datasetValueEvents, 'deleted', {
        id: `${datasetId}/${valueId}`,
        name: value.name,
        data: presentDatasetValue(
          value,
          dataset.dimensions.map((d) => d.id),
        ),
      });
    });
  }

  /** Which of these value ids the client's dataset holds (none when it has no such dataset): form answers. */
  existingValues(clientId: HrTenantId, datasetId: string, ids: readonly string[]): Promise<Set<string>> {
    return this.work.read.datasets.existingValues(clientId, datasetId, ids);
  }
}
