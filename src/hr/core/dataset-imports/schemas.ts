import { type Static, Type } from '@sinclair/typebox';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

/** `DatasetImportCreatePayload`. */
export const DatasetImportCreate = Type.Object({
  dataset_id: Type.String({ minLength: 1, maxLength: 100, description: 'The dataset whose values the file replaces.' }),
  upload_id: Type.String({ minLength: 1, maxLength: 64, description: 'The CSV, uploaded first with POST /uploads.' }),
});
export type DatasetImportCreate = Static<typeof DatasetImportCreate>;

const Count = Type.Integer({ minimum: 0 });

/** `DatasetImportFull`. */
export const DatasetImport = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    dataset_id: Type.String(),
    filename: Type.String(),
    status: Type.Union([Type.Literal('queued'), Type.Literal('in_progress'), Type.Literal('finished')]),
    result: Type.Union([Type.Literal('success'), Type.Literal('partial_success'), Type.Literal('error'), Type.Null()], {
      description: 'Once finished: `success` (the values were replaced) or `error` (nothing changed). All or nothing.',
    }),
    origin: Type.Literal('api'),
    creator_id: Type.Union([Type.String(), Type.Null()], {
      description: 'The HR user named with X-Atrium-User-Id, or null.',
    }),
    total_dimensions_count: Count,
    total_values_count: Count,
    started_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    stats: Type.Object({
      rows: Count,
      global_errors: Count,
      row_errors: Count,
      warnings: Count,
      internal_errors: Count,
      dimensions_created: Count,
      values_created: Count,
      values_updated: Count,
      values_deleted: Count,
    }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'DatasetImportFull', title: 'DatasetImportFull' },
);
export type DatasetImport = Static<typeof DatasetImport>;
export type DatasetImportStats = DatasetImport['stats'];

export const DatasetImportParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const DatasetImportList = declareList('dataset_imports');
export const DatasetImportListQuery = Type.Object(
  {
    ...PaginationQuery,
    dataset_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only this dataset’s.' })),
  },
  { additionalProperties: false },
);
export type DatasetImportListQuery = Static<typeof DatasetImportListQuery>;
