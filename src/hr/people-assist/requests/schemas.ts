import { type Static, Type } from '@sinclair/typebox';
import { CommaListSchema } from '../../../platform/lists.js';
import { FormData } from '../../core/forms/schemas.js';
import { declareList, declareSortedList } from '../../lists/declaration.js';
import { MAX_PER_PAGE, PaginationQuery } from '../../lists/pagination.js';
import { SortQuery } from '../../lists/sort.js';

export const STATUSES = ['created', 'opened', 'pending', 'closed', 'archived'] as const;
export const PRIORITIES = ['1', '2', '3'] as const;
export const ORIGINS = ['PHONE', 'MAIL', 'PEOPLEASK', 'API', 'POST', 'IM', 'PERSON', 'OTHER', 'MOBILE_APP'] as const;
export const REQUEST_SORT_FIELDS = [
  'request_number',
  'name',
  'status',
  'priority',
  'created_at',
  'updated_at',
] as const;
export const REQUEST_DEFAULT_SORT = '-updated_at';

/** `GET /requests`: sorted by `sort`, default `-updated_at`. */
export const RequestList = declareSortedList('requests', REQUEST_SORT_FIELDS, REQUEST_DEFAULT_SORT);

/** `GET /requests/{id}/linked_requests`: newest first, one list per request. */
export const LinkedRequestList = declareList('linked_requests');
export const REQUEST_EMBEDS = ['creator', 'employee', 'closed_by'] as const;

const Uuid = Type.String({ minLength: 1, maxLength: 64 });
const Enum = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

/** `UserSimplified`: a user (or, for a creator, possibly an employee) in embeds and assignee lists. */
export const UserSimplified = Type.Object(
  {
    id: Type.String(),
    firstname: Type.String(),
    lastname: Type.String(),
    email: Type.Union([Type.String(), Type.Null()]),
    external_id: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'UserSimplified', title: 'UserSimplified' },
);
export type UserSimplified = Static<typeof UserSimplified>;

/** `EmployeeSimplified`. */
export const EmployeeSimplified = Type.Object(
  {
    id: Type.String(),
    external_id: Type.Union([Type.String(), Type.Null()]),
    firstname: Type.String(),
    lastname: Type.String(),
    email: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'EmployeeSimplified', title: 'EmployeeSimplified' },
);
export type EmployeeSimplified = Static<typeof EmployeeSimplified>;

const Attachment = Type.Object({ id: Type.String(), name: Type.String() });
const FormFile = Type.Object({ id: Type.String(), filename: Type.String(), field_id: Type.String() });
/** `RequestFeedback`: the employee's rating (reference §3d.1). */
const RequestFeedback = Type.Object({
  rate: Type.Number({ minimum: 1, maximum: 5 }),
  comment: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
});

const requestFields = {
  id: Type.String({ format: 'uuid' }),
  request_number: Type.String({ description: 'A per-client counter, as a string of digits.' }),
  name: Type.String({ description: "The form's name." }),
  status: Enum(STATUSES),
  priority: Enum(PRIORITIES, '1 low, 2 normal (the default), 3 high.'),
  employee_id: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: 'The employee the request concerns, null when none. Always sent, unless `embed=employee`.',
    }),
  ),
  employee: Type.Optional(
    Type.Union([Type.Ref(EmployeeSimplified), Type.Null()], {
      description: 'With `embed=employee`, instead of `employee_id`; null when the request concerns no employee.',
    }),
  ),
  creator_id: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: 'The creator (user or employee), null when none. Always sent, unless `embed=creator`.',
    }),
  ),
  creator: Type.Optional(
    Type.Union([Type.Ref(UserSimplified), Type.Null()], {
      description: 'With `embed=creator`, instead of `creator_id`; null when there is no creator.',
    }),
  ),
  closed_by_id: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description:
        'The user who closed it; null while open or when closed without a user. Always sent, unless `embed=closed_by`.',
    }),
  ),
  closed_by: Type.Optional(
    Type.Union([Type.Ref(UserSimplified), Type.Null()], {
      description: 'With `embed=closed_by`, instead of `closed_by_id`; null when `closed_by_id` would be.',
    }),
  ),
  organization_ids: Type.Array(Type.String(), {
    description: "The employee's organizations at creation, or the one given.",
  }),
  form_id: Type.String(),
  form_data: FormData,
  form_files: Type.Array(FormFile),
  due_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'Null when none is set.' }),
  custom_status: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()]),
  category: Type.Object({ id: Type.String(), name: Type.String() }),
  feedback: Type.Union([RequestFeedback, Type.Null()], {
    description: 'Always null: the reference has no client path to post feedback, so no request has any.',
  }),
  origin: Enum(ORIGINS),
  read_by_employee: Type.Boolean(),
  public_comment_count: Type.Integer(),
  internal_comment_count: Type.Integer(),
  total_comment_count: Type.Integer(),
  public_deleted_comment_count: Type.Integer(),
  internal_deleted_comment_count: Type.Integer(),
  total_deleted_comment_count: Type.Integer(),
  attachment_count: Type.Integer(),
  read_only: Type.Boolean(),
  visible_by_employee: Type.Boolean(),
  need_edit_by_employee: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  closed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Null until closed.' }),
  archived_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Null until archived.',
  }),
};

export const RequestFull = Type.Object(requestFields, { $id: 'RequestFull', title: 'RequestFull' });
export type RequestFull = Static<typeof RequestFull>;
export const RequestFullWithAttachments = Type.Object(
  { ...requestFields, attachments: Type.Array(Attachment) },
  { $id: 'RequestFullWithAttachments', title: 'RequestFullWithAttachments' },
);
export type RequestFullWithAttachments = Static<typeof RequestFullWithAttachments>;

const UploadIds = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  maxItems: 50,
  description: 'Upload ids from `POST /uploads`; each becomes a request attachment.',
});

/** `RequestPostCreatePayload`. */
export const RequestCreate = Type.Object({
  form_id: Type.String({ minLength: 1, maxLength: 100 }),
  form_data: FormData,
  origin: Type.Optional(Enum(ORIGINS, 'Default `API`.')),
  attachment_upload_ids: Type.Optional(UploadIds),
  draft_id: Type.Optional(
    Type.String({ maxLength: 64, description: 'Drafts have no client path; any value is a 422.' }),
  ),
  employee_id: Type.Optional(Type.String({ maxLength: 64, description: 'Required when the form needs an employee.' })),
  employee_external_id: Type.Optional(Type.String({ maxLength: 255 })),
  organization_id: Type.Optional(Type.String({ maxLength: 255, description: 'An organization code.' })),
  creator_id: Type.Optional(Type.String({ maxLength: 64, description: 'A user (or the employee) id.' })),
  creator_external_id: Type.Optional(Type.String({ maxLength: 255 })),
  visible_by_employee: Type.Optional(Type.Boolean({ default: false })),
  priority: Type.Optional(Enum(PRIORITIES, 'Atrium accepts it on create; default "2".')),
  due_date: Type.Optional(Type.String({ format: 'date' })),
});
export type RequestCreate = Static<typeof RequestCreate>;

/** `RequestPatchPayload`, plus `status` (as in the reference's example), `priority` and `due_date`. */
export const RequestPatch = Type.Object({
  form_data: Type.Optional(FormData),
  status: Type.Optional(
    Enum(
      STATUSES,
      'Moves forward in created → opened → pending → closed → archived; a closed request may go back to opened; archived is final.',
    ),
  ),
  priority: Type.Optional(Enum(PRIORITIES)),
  due_date: Type.Optional(Type.Union([Type.String({ format: 'date' }), Type.Null()])),
});
export type RequestPatch = Static<typeof RequestPatch>;

export const RequestParams = Type.Object({ id: Uuid });
export const RequestFileParams = Type.Object({ id: Uuid, file_id: Uuid });
export const RequestAttachmentParams = Type.Object({ id: Uuid, attachment_id: Uuid });
export const CommentAttachmentParams = Type.Object({ id: Uuid, comment_id: Uuid, attachment_id: Uuid });

const embeds = Type.Optional(
  CommaListSchema(REQUEST_EMBEDS, {
    minLength: 1,
    maxLength: 2000,
    description: 'Comma-separated: creator, employee, closed_by.',
  }),
);
const csv = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description }));
const day = (description: string) => Type.Optional(Type.String({ format: 'date', description }));

export const RequestListQuery = Type.Object(
  {
    ...PaginationQuery,
    status: Type.Optional(
      CommaListSchema(STATUSES, { minLength: 1, maxLength: 2000, description: 'Comma-separated statuses.' }),
    ),
    sort: SortQuery(REQUEST_SORT_FIELDS, REQUEST_DEFAULT_SORT),
    embed: embeds,
    organization_id: csv('Organization codes (comma-separated).'),
    form_id: csv('Form slugs (comma-separated).'),
    categories_ids: csv('Category ids (comma-separated).'),
    employee_id: Type.Optional(Uuid),
    employee_external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    creator_id: Type.Optional(Uuid),
    creator_external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    priority: Type.Optional(
      CommaListSchema(PRIORITIES, {
        minLength: 1,
        maxLength: 2000,
        description: 'Comma-separated priorities: 1, 2, 3.',
      }),
    ),
    assignee_id: Type.Optional(Uuid),
    custom_status_id: csv('One custom status id or a comma-separated list.'),
    created_at_since: day('Created on or after this day.'),
    created_at_until: day('Created on or before this day.'),
    updated_at_since: day('Updated on or after this day.'),
    updated_at_until: day('Updated on or before this day.'),
    closed_at_since: day('Closed on or after this day.'),
    closed_at_until: day('Closed on or before this day.'),
    archived_at_since: day('Archived on or after this day.'),
    archived_at_until: day('Archived on or before this day.'),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'Words found in the name, the answers, the request number or the employee numbers.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type RequestListQuery = Static<typeof RequestListQuery>;

export const EmbedQuery = Type.Object({ embed: embeds }, { additionalProperties: false });

/** `RequestComment`. */
export const RequestComment = Type.Object(
  {
    id: Type.String(),
    creator_id: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'Null for a comment nobody wrote (a macro with no user). Always sent, unless `embed=creator`.',
      }),
    ),
    creator: Type.Optional(
      Type.Union([Type.Ref(UserSimplified), Type.Null()], {
        description: 'With `embed=creator`, instead of `creator_id`.',
      }),
    ),
    created_at: Type.String({ format: 'date-time' }),
    content: Type.String(),
    is_informative: Type.Boolean(),
    is_internal: Type.Boolean(),
    comment_source: Type.String(),
    is_deleted: Type.Boolean(),
    attachments: Type.Array(Attachment),
  },
  { $id: 'RequestComment', title: 'RequestComment' },
);
export type RequestComment = Static<typeof RequestComment>;

/** `RequestPostComment`. */
export const CommentCreate = Type.Object({
  content: Type.String({ maxLength: 20000 }),
  attachment_upload_ids: Type.Optional(UploadIds),
  is_internal: Type.Optional(Type.Boolean({ default: false })),
  creator_id: Type.Optional(Type.String({ maxLength: 64, description: 'Required unless creator_external_id.' })),
  creator_external_id: Type.Optional(Type.String({ maxLength: 255 })),
});
export type CommentCreate = Static<typeof CommentCreate>;

/** `GET /requests/{id}/comments`: newest first, one list per request. */
export const CommentList = declareList('request_comments');

export const CommentListQuery = Type.Object(
  {
    ...PaginationQuery,
    // The reference answers every comment at once: a page of the largest size keeps most requests in one answer.
    per_page: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_PER_PAGE,
        default: MAX_PER_PAGE,
        description: `Comments per page (default and most ${MAX_PER_PAGE}); further pages through Link / Next-Cursor.`,
      }),
    ),
    embed: Type.Optional(Type.Literal('creator')),
  },
  { additionalProperties: false },
);

export const AssigneeQuery = Type.Object(
  {
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000000, default: 0 })),
    length: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  },
  { additionalProperties: false },
);

export const LinkedListQuery = Type.Object({ ...PaginationQuery }, { additionalProperties: false });
export const LinkCreate = Type.Object({
  uuid: Type.Array(Uuid, { minItems: 1, maxItems: 100, description: 'Ids of the requests to link.' }),
});

export const MacroRun = Type.Object({ macro_id: Type.String({ minLength: 1, maxLength: 100 }) });
