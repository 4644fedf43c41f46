import { type Static, Type } from '@sinclair/typebox';
import { declareSortedList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';
import { SortQuery } from '../../lists/sort.js';

/** Dimensions a dataset may have, and values it may hold (reference §4.5). */
export const MAX_DIMENSIONS = 10;
export const MAX_VALUES = 300_000;

/** A dataset's or dimension's id, and each segment of a value's id (the pattern, for the import's CSV too). */
export const CODE = '[A-Za-z0-9_-]{1,100}';
/** A `language_code`. */
export const LANGUAGE_CODE = '^[a-z]{2,3}(-[a-z0-9]{2,8})*$';

/** A dataset's or dimension's id, and each segment of a value's id. */
const Code = (description: string) => Type.String({ pattern: `^${CODE}$`, description });

/** `LocalizedString`. */
export const DatasetLocalizedString = Type.Object({
  language_code: Type.String({
    pattern: LANGUAGE_CODE,
    maxLength: 35,
    description: 'BCP 47, lower case (`en-us`).',
  }),
  value: Type.String({ minLength: 1, maxLength: 255 }),
});
export type DatasetLocalizedString = Static<typeof DatasetLocalizedString>;

const LocalizedNames = (description: string, minItems: number) =>
  Type.Array(DatasetLocalizedString, {
    minItems,
    maxItems: 50,
    description: `${description} The first entry gives \`name\`.`,
  });

/** `DatasetDimensionCreatePayload`. */
export const DatasetDimensionInput = Type.Object({
  id: Code('The dimension id (`cities`): the level of the values at its position.'),
  localized_names: LocalizedNames('Names of the level.', 0),
});

/** `DatasetCreatePayload` (PUT /datasets/{id}). */
export const DatasetPut = Type.Object({
  localized_names: LocalizedNames('Names of the dataset.', 1),
  dimensions: Type.Array(DatasetDimensionInput, {
    minItems: 1,
    maxItems: MAX_DIMENSIONS,
    description:
      'The levels, root first (at most 10). An existing dimension cannot be removed, moved or renamed (its id); new ones are added after the existing ones.',
  }),
});
export type DatasetPut = Static<typeof DatasetPut>;

/** `DatasetFull`. */
export const Dataset = Type.Object(
  {
    id: Type.String(),
    name: Type.String({ description: 'The first localized name.' }),
    localized_names: Type.Array(DatasetLocalizedString),
    dimensions: Type.Array(
      Type.Object({
        id: Type.String(),
        localized_names: Type.Array(DatasetLocalizedString),
        name: Type.Union([Type.String(), Type.Null()], { description: 'The first localized name, or null.' }),
      }),
    ),
    values_count: Type.Integer(),
    last_import_status: Type.Union([
      Type.Literal('queued'),
      Type.Literal('in_progress'),
      Type.Literal('finished'),
      Type.Null(),
    ]),
    last_import_result: Type.Union([Type.Literal('error'), Type.Literal('success'), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'DatasetFull', title: 'DatasetFull' },
);
export type Dataset = Static<typeof Dataset>;

/** `DatasetValueCreatePayload`. */
export const DatasetValuePut = Type.Object({
  localized_names: LocalizedNames('Names of the value.', 1),
});
export type DatasetValuePut = Static<typeof DatasetValuePut>;

/** `DatasetValueFull`. */
export const DatasetValue = Type.Object(
  {
    id: Type.String({ description: 'The dotted path from the root (`uk.london`).' }),
    code: Type.String({ description: 'The last segment of the path.' }),
    name: Type.String({ description: 'The first localized name.' }),
    localized_names: Type.Array(DatasetLocalizedString),
    dataset_id: Type.String(),
    dimension_id: Type.String({ description: 'The dimension (level) of the value.' }),
  },
  { $id: 'DatasetValueFull', title: 'DatasetValueFull' },
);
export type DatasetValue = Static<typeof DatasetValue>;

export const DatasetParams = Type.Object({ id: Code('The dataset id.') });
export const DatasetValueParams = Type.Object({
  id: Code('The dataset id.'),
  value_id: Type.String({
    pattern: `^${CODE}(\\.${CODE}){0,${MAX_DIMENSIONS - 1}}$`,
    description: 'The dotted path of the value (`uk.london`): its parent’s path, a dot and its code.',
  }),
});

export const DATASET_SORT_FIELDS = ['name', 'created_at', 'updated_at'] as const;
export type DatasetSortField = (typeof DATASET_SORT_FIELDS)[number];
export const DatasetList = declareSortedList('datasets', DATASET_SORT_FIELDS, '+created_at');

const NullableFilter = <T extends string>(values: readonly T[], description: string) =>
  Type.Optional(Type.Union([Type.Literal('null'), ...values.map((v) => Type.Literal(v))], { description }));

export const DatasetListQuery = Type.Object(
  {
    ...PaginationQuery,
    q: Type.Optional(Type.String({ minLength: 2, maxLength: 255, description: 'Part of the name (at least 2).' })),
    last_import_status: NullableFilter(
      ['queued', 'in_progress', 'finished'],
      '`null` for datasets never imported into.',
    ),
    last_import_result: NullableFilter(['error', 'success'], '`null` for datasets never imported into.'),
    sort: SortQuery(DATASET_SORT_FIELDS, '+created_at'),
  },
  { additionalProperties: false },
);
export type DatasetListQuery = Static<typeof DatasetListQuery>;

export const DATASET_VALUE_SORT_FIELDS = ['name'] as const;
export type DatasetValueSortField = (typeof DATASET_VALUE_SORT_FIELDS)[number];
export const DatasetValueList = declareSortedList('dataset_values', DATASET_VALUE_SORT_FIELDS, '+name');

export const DatasetValueListQuery = Type.Object(
  {
    per_page: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1000,
        default: 20,
        description:
          'Items per page (default 20, at most 1000: a larger value is served as 1000, or refused with ATRIUM_STRICT=1).',
      }),
    ),
    cursor: PaginationQuery.cursor,
    q: Type.Optional(
      Type.String({ minLength: 2, maxLength: 255, description: 'Part of a name (any language) or of the code.' }),
    ),
    dimension: Type.Optional(Code('Only the values of this dimension (level).')),
    parent_code: Type.Optional(
      Type.String({
        pattern: `^${CODE}(\\.${CODE}){0,${MAX_DIMENSIONS - 1}}$`,
        description: 'Only the values right under this value, named by its id (its dotted path).',
      }),
    ),
    sort: SortQuery(DATASET_VALUE_SORT_FIELDS, '+name'),
  },
  { additionalProperties: false },
);
export type DatasetValueListQuery = Static<typeof DatasetValueListQuery>;
