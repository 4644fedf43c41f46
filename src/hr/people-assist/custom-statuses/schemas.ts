import { type Static, Type } from '@sinclair/typebox';
import { declareSortedList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';
import { SortQuery } from '../../lists/sort.js';

export const WorkflowId = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[a-z0-9][a-z0-9_-]*$',
  description: 'Lower-case slug (`to-send`).',
});

export const WORKFLOW_SORT_FIELDS = ['name', 'created_at', 'updated_at'] as const;
export const WORKFLOW_DEFAULT_SORT = '-updated_at';
export type WorkflowSortField = (typeof WORKFLOW_SORT_FIELDS)[number];

/** `GET /custom_status`: sorted by `sort`, default `-updated_at`. */
export const CustomStatusList = declareSortedList('custom_status', WORKFLOW_SORT_FIELDS, WORKFLOW_DEFAULT_SORT);

/** `page` and `per_page` (reference "PP + PG"), cursors, `sort` and `q` of the macro and custom-status lists. */
export const WorkflowListQuery = {
  ...PaginationQuery,
  page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100000, description: '1-based page number (with `per_page`).' }),
  ),
  sort: SortQuery(WORKFLOW_SORT_FIELDS, WORKFLOW_DEFAULT_SORT),
};

export const CustomStatus = Type.Object(
  {
    id: WorkflowId,
    name: Type.String(),
    is_active: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'CustomStatusDetail', title: 'CustomStatusDetail' },
);
export type CustomStatus = Static<typeof CustomStatus>;

export const CustomStatusPut = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  is_active: Type.Optional(
    Type.Boolean({ default: true, description: 'Inactive statuses stay on requests but macros cannot set them.' }),
  ),
});
export type CustomStatusPut = Static<typeof CustomStatusPut>;

export const CustomStatusParams = Type.Object({ id: WorkflowId });

export const CustomStatusListQuery = Type.Object(
  {
    ...WorkflowListQuery,
    q: Type.Optional(
      Type.String({ minLength: 3, maxLength: 255, description: 'Part of the name (at least 3 characters).' }),
    ),
  },
  { additionalProperties: false },
);
export type CustomStatusListQuery = Static<typeof CustomStatusListQuery>;
export const CustomStatusCountQuery = Type.Object(
  { q: CustomStatusListQuery.properties.q },
  { additionalProperties: false },
);
