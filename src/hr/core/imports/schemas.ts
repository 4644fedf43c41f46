import { type Static, Type } from '@sinclair/typebox';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

export const IMPORT_TYPES = ['employee', 'manager', 'organization'] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

/** `ImportCreatePayload`. */
export const ImportCreate = Type.Object({
  type: Type.Union(
    IMPORT_TYPES.map((t) => Type.Literal(t)),
    { description: 'What the rows are: employees, managers (HR users) or organizations.' },
  ),
  creator: Type.Optional(
    Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description: 'The HR user who asks for the import (a user id), shown as `creator`.',
    }),
  ),
  uploaded_file: Type.Object(
    {
      file_id: Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'The id POST /document or POST /uploads answered.',
      }),
      filename: Type.Optional(Type.String({ maxLength: 255 })),
    },
    { description: '`DocumentFileId`: the CSV, uploaded first.' },
  ),
});
export type ImportCreate = Static<typeof ImportCreate>;

const Count = Type.Integer({ minimum: 0 });

/** `ImportFull`. */
export const Import = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    type: Type.Union(IMPORT_TYPES.map((t) => Type.Literal(t))),
    creator: Type.Union([Type.String(), Type.Null()]),
    status: Type.Union(
      ['created', 'in_progress', 'success', 'partial_success', 'failed'].map((s) => Type.Literal(s)),
      {
        description:
          '`created` until its job starts, `in_progress`, then `success` (every row applied), `partial_success` (some rows failed) or `failed` (no row applied, or the file could not be read).',
      },
    ),
    origin: Type.Literal('api'),
    rows_count: Count,
    created_objects_count: Count,
    updated_objects_count: Count,
    deleted_objects_count: Count,
    errors_count: Count,
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'ImportFull', title: 'ImportFull' },
);
export type Import = Static<typeof Import>;

export const ImportParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const ImportList = declareList('imports');
export const ImportListQuery = Type.Object(
  {
    ...PaginationQuery,
    type: Type.Optional(Type.Union(IMPORT_TYPES.map((t) => Type.Literal(t)))),
    created_at_since: Type.Optional(
      Type.String({ format: 'date', description: 'Imports made on this day or later (YYYY-MM-DD).' }),
    ),
    created_at_until: Type.Optional(
      Type.String({ format: 'date', description: 'Imports made on this day or earlier (YYYY-MM-DD).' }),
    ),
  },
  { additionalProperties: false },
);
export type ImportListQuery = Static<typeof ImportListQuery>;
