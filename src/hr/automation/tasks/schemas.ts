import { type Static, Type } from '@sinclair/typebox';
import { type CommaList, CommaListSchema } from '../../../platform/lists.js';
import { FormAnswer, FormData } from '../../core/forms/schemas.js';
import { declareSortedList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';
import type { SortTerm } from '../../lists/sort.js';
import { Assignee, TaskType } from '../process-templates/schemas.js';

export const TASK_STATUSES = ['blocked', 'canceled', 'completed', 'draft', 'to_do'] as const;
export const TaskStatus = Type.Union(
  TASK_STATUSES.map((s) => Type.Literal(s)),
  {
    description:
      '`draft`: the process is not published; `blocked`: waiting for the task it depends on; `to_do`; `completed`.',
  },
);

export const TaskParams = Type.Object({ id: Type.String({ format: 'uuid', description: 'Task id.' }) });
export const TaskFileParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Task id.' }),
  file_id: Type.String({ format: 'uuid', description: 'Task file id.' }),
});

const FileRef = Type.Object({ id: Type.String(), filename: Type.String() });
const FormFile = Type.Object({ id: Type.String(), filename: Type.String(), field_id: Type.String() });

/** Who completed a task: an HR user or the employee (`EmployeeSimplified`). */
export const Person = Type.Object({
  id: Type.String(),
  firstname: Type.String(),
  lastname: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  external_id: Type.Union([Type.String(), Type.Null()]),
});

const NoGeometry = Type.Null({ description: 'Always null: Atrium keeps no zone geometry.' });

/** `SignatureZoneField`: the reference's geometry fields are sent, null (Atrium keeps no PDF templates). */
export const SignatureZone = Type.Object(
  {
    id: Type.String(),
    position_x: NoGeometry,
    position_y: NoGeometry,
    width: NoGeometry,
    height: NoGeometry,
    page: NoGeometry,
    pdf_template_id: Type.String(),
  },
  {
    description: 'Atrium keeps no PDF templates: the zone is known by its id and its template’s; its geometry is null.',
  },
);

export const Task = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    description: Type.String({ description: 'May contain HTML.' }),
    type: TaskType,
    process_id: Type.String(),
    template_task_id: Type.String({ description: 'The task template it was made from.' }),
    depends_on_id: Type.Union([Type.String(), Type.Null()], {
      description: 'The task of the same process it waits for.',
    }),
    assigned_to: Assignee,
    role_id: Type.Union([Type.String(), Type.Null()]),
    fetch_previous_data: Type.Boolean(),
    status: TaskStatus,
    due_date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    reminder_offset: Type.Union([Type.Integer(), Type.Null()], { description: 'Days before the due date.' }),
    scheduled_reminder_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description:
        'When the reminder is due: 09:00 UTC, `reminder_offset` days before `due_date`; null without both, or once the task is completed.',
    }),
    validation_events_ids: Type.Array(Type.Integer(), {
      description: 'Reviews of (or by) this task, latest first.',
    }),
    has_requested_changes: Type.Boolean({ description: 'A validation task refused it at least once.' }),
    completed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    completed_by_id: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'The HR user or employee who completed it; null when the application did, or not completed.',
      }),
    ),
    completed_by: Type.Optional(Type.Union([Person, Type.Null()], { description: 'With `embed=completed_by`.' })),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    message: Type.Optional(Type.String({ description: '`basic`: the message (HTML).' })),
    files: Type.Optional(
      Type.Array(FileRef, {
        description:
          '`acknowledgment`: the document to acknowledge; `signature`, `fill_pdf`: the file that completed it.',
      }),
    ),
    uploaded_document: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: '`acknowledgment`: the document’s file name (null when the task has none).',
      }),
    ),
    form_id: Type.Optional(Type.String({ description: '`fill_form`, `fill_pdf`: the form (its task template id).' })),
    form_data: Type.Optional(Type.Array(Type.Object({ field_id: Type.String(), values: Type.Array(Type.Unknown()) }))),
    form_files: Type.Optional(Type.Array(FormFile, { description: 'Files answering file fields.' })),
    pdf_template_id: Type.Optional(Type.String()),
    signature_zone_id: Type.Optional(Type.String({ description: '`signature`, without `embed=signature_zone`.' })),
    signature_zone: Type.Optional(SignatureZone),
  },
  { $id: 'TaskFull', title: 'TaskFull' },
);
export type Task = Static<typeof Task>;

/** `GET /tasks`: sorted by `sort`, default `-created_at`. */
export const TaskList = declareSortedList('tasks', ['completed_at', 'created_at', 'due_date'] as const, '-created_at');

export const TaskListQuery = Type.Object(
  {
    ...PaginationQuery,
    status: Type.Optional(TaskStatus),
    type: Type.Optional(TaskType),
    template_task_id: Type.Optional(Type.String({ maxLength: 255 })),
    process_id: Type.Optional(Type.String({ maxLength: 255 })),
    sort: Type.Optional(
      Type.Unsafe<CommaList<SortTerm<'completed_at' | 'created_at' | 'due_date'>>>(
        Type.String({
          maxLength: 100,
          description:
            'Comma-separated `+` or `-` (ascending, descending) `completed_at`, `created_at`, `due_date`; default `-created_at`. Tasks without the date sort as the earliest.',
        }),
      ),
    ),
    completed_at_since: Type.Optional(
      Type.String({ maxLength: 40, 'x-date-or-datetime': true, description: 'Completed at or after (≥).' }),
    ),
    completed_at_until: Type.Optional(
      Type.String({ maxLength: 40, 'x-date-or-datetime': true, description: 'Completed before (<).' }),
    ),
    has_requested_changes: Type.Optional(Type.Boolean({ description: 'Reviewed tasks that were refused.' })),
    has_due_date: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type TaskListQuery = Static<typeof TaskListQuery>;

export const TaskGetQuery = Type.Object(
  {
    embed: Type.Optional(
      CommaListSchema(['completed_by', 'signature_zone'], {
        maxLength: 100,
        description:
          'Comma-separated: `completed_by` (replaces completed_by_id), `signature_zone` (signature tasks; replaces signature_zone_id). Optional, although the reference marks it required.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const TaskPatch = Type.Object(
  {
    due_date: Type.Optional(Type.Union([Type.String({ format: 'date', description: 'YYYY-MM-DD.' }), Type.Null()])),
    reminder_offset: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: 365, description: 'Days before the due date.' }), Type.Null()]),
    ),
  },
  { additionalProperties: false },
);
export type TaskPatch = Static<typeof TaskPatch>;

export const TaskFill = Type.Object({ form_data: FormData }, { additionalProperties: false });
export type TaskFill = Static<typeof TaskFill>;

export const TaskComplete = Type.Object(
  {
    completed_by_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'Who completed it: an HR user (`users` tasks) or the process’s employee (`employee` tasks).',
      }),
    ),
    form_data: Type.Optional(
      Type.Array(FormAnswer, {
        maxItems: 300,
        description:
          '`fill_form`, `fill_pdf`: answers (as in `/fill`), merged over the saved draft field by field; every required field must then be answered.',
      }),
    ),
    upload_id: Type.Optional(
      Type.String({
        format: 'uuid',
        description: '`fill_pdf`, `signature` (required): the upload of the filled or signed document.',
      }),
    ),
    state: Type.Optional(
      Type.Union([Type.Literal('accepted'), Type.Literal('refused')], {
        description:
          '`validation` only (default `accepted`). `refused` sends the reviewed task back to `to_do` (with `has_requested_changes`) and this task back to `blocked`.',
      }),
    ),
    reason: Type.Optional(Type.String({ maxLength: 5000, description: '`validation`: why.' })),
  },
  { additionalProperties: false },
);
export type TaskComplete = Static<typeof TaskComplete>;

export const TaskFilePost = Type.Object(
  {
    upload_id: Type.String({ format: 'uuid', description: 'An upload (`POST /uploads`); it is used up.' }),
    task_id: Type.String({ maxLength: 64, description: 'The task of the path.' }),
    field_id: Type.String({ minLength: 1, maxLength: 100, description: 'A `file` field of the task’s form.' }),
  },
  { additionalProperties: false },
);
export type TaskFilePost = Static<typeof TaskFilePost>;

export const TaskFilePatch = Type.Object(
  { upload_id: Type.String({ format: 'uuid', description: 'The replacing upload; it is used up.' }) },
  { additionalProperties: false },
);

export const TaskFile = Type.Object(
  { id: Type.String(), task_id: Type.String(), filename: Type.String(), field_id: Type.String() },
  { $id: 'TaskFileResource', title: 'TaskFileResource' },
);
export type TaskFile = Static<typeof TaskFile>;
