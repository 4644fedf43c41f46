import type { Selectable } from 'kysely';
import { dialectOf } from '../../../platform/db/database.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import { containsText } from '../../../platform/db/search.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { DatasetLocalizedString, DatasetSortField, DatasetValueSortField } from './schemas.js';
import type { HrDatasetsTable, HrDatasetValuesTable } from './tables.js';

/** A name in one language. */
export interface DatasetName {
  languageCode: string;
  value: string;
}

/** Names as the domain holds them, from the wire's (or the stored JSON's, which has the wire's names). */
export function datasetNames(names: readonly DatasetLocalizedString[]): DatasetName[] {
  return names.map((n) => ({ languageCode: n.language_code, value: n.value }));
}

/** Names in the wire's shape (which the stored JSON keeps too). */
export function wireNames(names: readonly DatasetName[]): DatasetLocalizedString[] {
  return names.map((n) => ({ language_code: n.languageCode, value: n.value }));
}

export interface DatasetDimension {
  id: string;
  localizedNames: DatasetName[];
}

/** A dataset as the domain sees it: its row with the JSON columns decoded. */
export interface DatasetRecord {
  pk: number;
  id: string;
  name: string;
  localizedNames: DatasetName[];
  dimensions: DatasetDimension[];
  valuesCount: number;
  /** The key its values are stored under (`hr_dataset_values.dataset_id`). */
  valuesKey: string;
  lastImportStatus: 'queued' | 'in_progress' | 'finished' | null;
  lastImportResult: 'error' | 'success' | null;
  createdAt: number;
  updatedAt: number;
}

/** A value of a dataset. */
export interface DatasetValueRecord {
  pk: number;
  datasetId: string;
  id: string;
  code: string;
  parentId: string | null;
  depth: number;
  name: string;
  localizedNames: DatasetName[];
  createdAt: number;
  updatedAt: number;
}

export interface DatasetFilter {
  q?: string;
  /** `null` matches datasets never imported into. */
  lastImportStatus?: string | null;
  lastImportResult?: string | null;
}

export interface DatasetValueFilter {
  q?: string;
  depth?: number;
  parentId?: string;
}

const DATASET_ORDER: ListOrder<DatasetSortField> = {
  fields: { name: 'd.name', created_at: 'd.created_at', updated_at: 'd.updated_at' },
  tiebreak: 'd.pk',
};
const VALUE_ORDER: ListOrder<DatasetValueSortField> = { fields: { name: 'v.name' }, tiebreak: 'v.pk' };

/** A dimension as stored (JSON, in the wire's names). */
interface StoredDimension {
  id: string;
  localized_names: DatasetLocalizedString[];
}

function toDataset(row: Selectable<HrDatasetsTable>): DatasetRecord {
  return {
    pk: Number(row.pk),
    id: row.id,
    name: row.name,
    localizedNames: datasetNames(JSON.parse(row.localized_names) as DatasetLocalizedString[]),
    dimensions: (JSON.parse(row.dimensions) as StoredDimension[]).map((d) => ({
      id: d.id,
      localizedNames: datasetNames(d.localized_names),
    })),
    valuesCount: Number(row.values_count),
    valuesKey: row.values_key,
    lastImportStatus: row.last_import_status as DatasetRecord['lastImportStatus'],
    lastImportResult: row.last_import_result as DatasetRecord['lastImportResult'],
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toValue(row: Selectable<HrDatasetValuesTable>): DatasetValueRecord {
  return {
    pk: Number(row.pk),
    datasetId: row.dataset_id,
    id: row.id,
    code: row.code,
    parentId: row.parent_id,
    depth: Number(row.depth),
    name: row.name,
    localizedNames: datasetNames(JSON.parse(row.localized_names) as DatasetLocalizedString[]),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** A dataset's names and dimensions as stored. */
function storedAttributes(attrs: { localizedNames: DatasetName[]; dimensions: DatasetDimension[] }) {
  const dimensions = attrs.dimensions.map(
    (d): StoredDimension => ({ id: d.id, localized_names: wireNames(d.localizedNames) }),
  );
  return {
    localized_names: JSON.stringify(wireNames(attrs.localizedNames)),
    dimensions: JSON.stringify(dimensions),
  };
}

/** Every name and the code of a value, lower-cased: what `q` searches. */
function searchText(code: string, names: readonly DatasetName[]): string {
  return [code, ...names.map((n) => n.value)].join('\n').toLowerCase();
}

/** A new value's row, without its tenant. */
export interface NewDatasetValue {
  id: string;
  code: string;
  parentId: string | null;
  depth: number;
  localizedNames: DatasetName[];
}

/** Values are inserted this many to a statement (11 columns each: under SQLite's 32,766 variables). */
const INSERT_BATCH = 1000;

export class DatasetsRepository extends HrRepository {
  private datasets(clientId: HrTenantId, filter: DatasetFilter) {
    let q = this.tenant(clientId).selectFrom('hr_datasets as d').selectAll('d');
    if (filter.q !== undefined) q = q.where(containsText(['d.name'], filter.q));
    if (filter.lastImportStatus !== undefined) {
      const status = filter.lastImportStatus;
      q = status === null ? q.where('d.last_import_status', 'is', null) : q.where('d.last_import_status', '=', status);
    }
    if (filter.lastImportResult !== undefined) {
      const result = filter.lastImportResult;
      q = result === null ? q.where('d.last_import_result', 'is', null) : q.where('d.last_import_result', '=', result);
    }
    return q;
  }

  async page(
    clientId: HrTenantId,
    filter: DatasetFilter,
    request: PageRequest<DatasetSortField>,
  ): Promise<Page<DatasetRecord>> {
    const page = await listPage(this.datasets(clientId, filter), DATASET_ORDER, request);
    return { ...page, items: page.items.map(toDataset) };
  }

  async find(clientId: HrTenantId, id: string): Promise<DatasetRecord | undefined> {
    const row = await this.datasets(clientId, {}).where('d.id', '=', id).executeTakeFirst();
    return row ? toDataset(row) : undefined;
  }

  /** The dataset, its row locked until the transaction ends (PostgreSQL; SQLite writes one at a time anyway). */
  async lock(clientId: HrTenantId, id: string): Promise<DatasetRecord | undefined> {
    let q = this.datasets(clientId, {}).where('d.id', '=', id);
    if (dialectOf(this.db) === 'postgres') q = q.forUpdate();
    const row = await q.executeTakeFirst();
    return row ? toDataset(row) : undefined;
  }

  /** Inserts a dataset unless the client has one with this id; answers whether it inserted. */
  insertIfAbsent(
    clientId: HrTenantId,
    id: string,
    attrs: { localizedNames: DatasetName[]; dimensions: DatasetDimension[] },
    at: number,
  ): Promise<boolean> {
    return this.tenant(clientId).insertIfAbsent('hr_datasets', {
      id,
      name: attrs.localizedNames[0]?.value ?? id,
      ...storedAttributes(attrs),
      values_count: 0,
      values_key: id,
      last_import_status: null,
      last_import_result: null,
      created_at: at,
      updated_at: at,
    });
  }

  async update(
    clientId: HrTenantId,
    id: string,
    attrs: { localizedNames: DatasetName[]; dimensions: DatasetDimension[] },
    at: number,
  ): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_datasets as d')
      .set({
        name: attrs.localizedNames[0]?.value ?? id,
        ...storedAttributes(attrs),
        updated_at: at,
      })
      .where('d.id', '=', id)
      .execute();
  }

  /** Adds `delta` to the dataset's value count. */
  async countValues(clientId: HrTenantId, id: string, delta: number, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_datasets as d')
      .set((eb) => ({ values_count: eb('d.values_count', '+', delta), updated_at: at }))
      .where('d.id', '=', id)
      .execute();
  }

  /** Points the dataset at the values stored under `valuesKey` (an import's, staged), and sets their count. */
  async swapValues(clientId: HrTenantId, id: string, valuesKey: string, count: number, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_datasets as d')
      .set({ values_key: valuesKey, values_count: count, updated_at: at })
      .where('d.id', '=', id)
      .execute();
  }

  /** Sets the outcome of the dataset's last import. */
  async markImport(
    clientId: HrTenantId,
    id: string,
    status: 'queued' | 'in_progress' | 'finished',
    result: 'error' | 'success' | null,
  ): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_datasets as d')
      .set({ last_import_status: status, last_import_result: result })
      .where('d.id', '=', id)
      .execute();
  }

  /**
   * The key the dataset's values are stored under, as a subquery: a statement reading its values reads the key in
   * its own snapshot, so an import's swap is seen whole or not at all.
   */
  private valuesKey(clientId: HrTenantId, datasetId: string) {
    return this.tenant(clientId).selectFrom('hr_datasets as dk').select('dk.values_key').where('dk.id', '=', datasetId);
  }

  private values(clientId: HrTenantId, datasetId: string, filter: DatasetValueFilter) {
    let q = this.tenant(clientId)
      .selectFrom('hr_dataset_values as v')
      .selectAll('v')
      .where('v.dataset_id', '=', this.valuesKey(clientId, datasetId));
    if (filter.q !== undefined) q = q.where(containsText(['v.search_text'], filter.q));
    if (filter.depth !== undefined) q = q.where('v.depth', '=', filter.depth);
    if (filter.parentId !== undefined) q = q.where('v.parent_id', '=', filter.parentId);
    return q;
  }

  async valuePage(
    clientId: HrTenantId,
    datasetId: string,
    filter: DatasetValueFilter,
    request: PageRequest<DatasetValueSortField>,
  ): Promise<Page<DatasetValueRecord>> {
    const page = await listPage(this.values(clientId, datasetId, filter), VALUE_ORDER, request);
    return { ...page, items: page.items.map(toValue) };
  }

  async findValue(clientId: HrTenantId, datasetId: string, id: string): Promise<DatasetValueRecord | undefined> {
    const row = await this.values(clientId, datasetId, {}).where('v.id', '=', id).executeTakeFirst();
    return row ? toValue(row) : undefined;
  }

  /** Which of these value ids the dataset holds. */
  async existingValues(clientId: HrTenantId, datasetId: string, ids: readonly string[]): Promise<Set<string>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Set();
    const rows = await this.tenant(clientId)
      .selectFrom('hr_dataset_values as v')
      .select('v.id')
      .where('v.dataset_id', '=', this.valuesKey(clientId, datasetId))
      .where('v.id', 'in', unique)
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  async hasChildren(clientId: HrTenantId, datasetId: string, id: string): Promise<boolean> {
    const row = await this.values(clientId, datasetId, { parentId: id }).select('v.pk').limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /** Inserts values under a values key: a dataset's (`DatasetRecord.valuesKey`), or an import's staging key. */
  async insertValues(clientId: HrTenantId, valuesKey: string, values: readonly NewDatasetValue[], at: number) {
    for (let start = 0; start < values.length; start += INSERT_BATCH) {
      const rows = values.slice(start, start + INSERT_BATCH).map((v) => ({
        dataset_id: valuesKey,
        id: v.id,
        code: v.code,
        parent_id: v.parentId,
        depth: v.depth,
        name: v.localizedNames[0]?.value ?? v.code,
        localized_names: JSON.stringify(wireNames(v.localizedNames)),
        search_text: searchText(v.code, v.localizedNames),
        created_at: at,
        updated_at: at,
      }));
      await this.tenant(clientId).insertInto('hr_dataset_values', rows).execute();
    }
  }

  async updateValue(
    clientId: HrTenantId,
    datasetId: string,
    value: { id: string; code: string; localizedNames: DatasetName[] },
    at: number,
  ): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_dataset_values as v')
      .set({
        name: value.localizedNames[0]?.value ?? value.code,
        localized_names: JSON.stringify(wireNames(value.localizedNames)),
        search_text: searchText(value.code, value.localizedNames),
        updated_at: at,
      })
      .where('v.dataset_id', '=', this.valuesKey(clientId, datasetId))
      .where('v.id', '=', value.id)
      .execute();
  }

  async deleteValue(clientId: HrTenantId, datasetId: string, id: string): Promise<boolean> {
    const result = await this.tenant(clientId)
      .deleteFrom('hr_dataset_values as v')
      .where('v.dataset_id', '=', this.valuesKey(clientId, datasetId))
      .where('v.id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
