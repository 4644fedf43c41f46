import { type Static, Type } from '@sinclair/typebox';
import { FormDefinition } from '../../core/forms/schemas.js';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

/** Ids of process and task templates (reference §3f.2): chosen by the client. */
export const TEMPLATE_ID_PATTERN = '^[a-z0-9_-]+$';

/**
 * The path id, loosely: a GET of an id that cannot exist is a plain 404, and a PUT with a malformed id is a 422
 * naming `id` (the service checks the pattern), rather than a 404 that would hide the mistake.
 */
const PathId = (description: string) => Type.String({ minLength: 1, maxLength: 255, description });

export const ProcessTemplateParams = Type.Object({
  id: PathId('The process template id: lower-case letters, digits, `-` and `_`.'),
});
export const TaskTemplateParams = Type.Object({
  process_template_id: PathId('The process template id.'),
  id: PathId('The task template id: lower-case letters, digits, `-` and `_`.'),
});
export const TaskTemplateListParams = Type.Object({ process_template_id: PathId('The process template id.') });

const ReadOnly = (description: string) =>
  Type.Optional(Type.Unknown({ description: `Read-only; ignored. ${description}` }));

export const Actor = Type.Object({
  origin: Type.Union([Type.Literal('application'), Type.Literal('user')]),
  id: Type.String({ description: 'The application (or HR user) id.' }),
});

export const RestrictionOrganization = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255, description: 'An organization code (`/organizations`).' }),
  operator: Type.Union([Type.Literal('='), Type.Literal('<=')], {
    description: '`=`: this organization; `<=`: this organization and those below it.',
  }),
});
export const Restriction = Type.Object({
  organizations: Type.Array(RestrictionOrganization, { maxItems: 100 }),
});

const templateFields = {
  title: Type.String({ minLength: 1, maxLength: 255 }),
  public_title: Type.Optional(
    Type.Union([Type.String({ maxLength: 255 }), Type.Null()], { description: 'Title shown to the employee.' }),
  ),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 20_000 }), Type.Null()])),
  automatic_archiving: Type.Optional(
    Type.Boolean({ default: false, description: 'True if an employee-archive post-process action is set.' }),
  ),
  restrictions: Type.Optional(
    Type.Array(Restriction, {
      maxItems: 50,
      description: 'Employees the template is meant for, by organization. Stored and returned; not enforced.',
    }),
  ),
};

export const ProcessTemplatePut = Type.Object(
  {
    id: Type.Optional(Type.String({ maxLength: 255, description: 'Read-only; when sent, it must be the path id.' })),
    ...templateFields,
    created_at: ReadOnly('Set by the server.'),
    created_by: ReadOnly('Set by the server.'),
    updated_at: ReadOnly('Set by the server.'),
    updated_by: ReadOnly('Set by the server.'),
  },
  { additionalProperties: false },
);
export type ProcessTemplatePut = Static<typeof ProcessTemplatePut>;

export const ProcessTemplate = Type.Object(
  {
    id: Type.String({ pattern: TEMPLATE_ID_PATTERN }),
    title: Type.String(),
    public_title: Type.Union([Type.String(), Type.Null()]),
    description: Type.Union([Type.String(), Type.Null()]),
    automatic_archiving: Type.Boolean(),
    restrictions: Type.Array(Restriction),
    created_at: Type.String({ format: 'date-time' }),
    created_by: Actor,
    updated_at: Type.String({ format: 'date-time' }),
    updated_by: Actor,
  },
  { $id: 'ProcessTemplate', title: 'ProcessTemplate' },
);
export type ProcessTemplate = Static<typeof ProcessTemplate>;

const titleFilter = Type.Optional(
  Type.String({ minLength: 1, maxLength: 255, description: 'Templates whose title contains this text (any case).' }),
);
/** `GET /process_templates`: in creation order. */
export const ProcessTemplateList = declareList('process_templates');

export const ProcessTemplateListQuery = Type.Object(
  { ...PaginationQuery, title: titleFilter },
  { additionalProperties: false },
);
export const ProcessTemplateCountQuery = Type.Object({ title: titleFilter }, { additionalProperties: false });

// ------------------------------------------------------------ task templates

export const TASK_TYPES = ['acknowledgment', 'basic', 'fill_form', 'fill_pdf', 'signature', 'validation'] as const;
export const TaskType = Type.Union(
  TASK_TYPES.map((t) => Type.Literal(t)),
  {
    description:
      '`acknowledgment` (acknowledge a document), `basic` (a custom task), `fill_form` (fill out a web form), `fill_pdf`, `signature` (sign a document), `validation` (review the task it depends on).',
  },
);
export const Assignee = Type.Union([Type.Literal('users'), Type.Literal('employee')], {
  description: '`employee`: the employee the process concerns; `users`: HR users (the company).',
});

export const EmailNotification = Type.Object({
  subject: Type.String({ minLength: 1, maxLength: 255 }),
  body: Type.String({ maxLength: 20_000 }),
  role_ids: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
    maxItems: 50,
    description: 'Roles (`/roles`) whose users are notified.',
  }),
});

export const TaskTemplatePut = Type.Object(
  {
    id: Type.Optional(Type.String({ maxLength: 255, description: 'Read-only; when sent, it must be the path id.' })),
    process_template_id: Type.Optional(
      Type.String({ maxLength: 255, description: 'Read-only; when sent, it must be the path id.' }),
    ),
    type: TaskType,
    name: Type.String({ minLength: 1, maxLength: 255 }),
    description: Type.Optional(Type.String({ maxLength: 20_000, description: 'May contain HTML.' })),
    assigned_to: Assignee,
    depends_on_id: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 255 }), Type.Null()], {
        description:
          'Another task template of the same process template: tasks made from this one wait (`blocked`) until it is completed. Required for `validation` (the task it reviews).',
      }),
    ),
    fetch_previous_data: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'Share data with the parent task: a form task starts with the answers of the task it depends on.',
      }),
    ),
    role_id: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 255 }), Type.Null()], {
        description: 'The role (`/roles`) that completes or monitors the task.',
      }),
    ),
    email_notifications: Type.Optional(Type.Array(EmailNotification, { maxItems: 1 })),
    message: Type.Optional(Type.String({ maxLength: 20_000, description: '`basic` only: the message (HTML).' })),
    formidable: Type.Optional(
      Type.Object(FormDefinition.properties, {
        description:
          '`fill_form` (required) and `fill_pdf` (optional): the form the task asks to fill, in the formidable shape of request forms.',
      }),
    ),
    upload_id: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          '`acknowledgment` only: the upload (`POST /uploads`) of the document to acknowledge. Required on create; on update it replaces the document.',
      }),
    ),
    pdf_template_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: '`fill_pdf` and `signature` (required).' }),
    ),
    signature_zone_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: '`signature` only (required).' }),
    ),
    process_form_id: ReadOnly('The form id (`fill_form`): the task template id.'),
    uploaded_document: ReadOnly('The name of the document to acknowledge.'),
    created_at: ReadOnly('Set by the server.'),
    updated_at: ReadOnly('Set by the server.'),
  },
  { additionalProperties: false },
);
export type TaskTemplatePut = Static<typeof TaskTemplatePut>;

export const TaskTemplate = Type.Object(
  {
    id: Type.String({ pattern: TEMPLATE_ID_PATTERN }),
    process_template_id: Type.String(),
    type: TaskType,
    name: Type.String(),
    description: Type.String(),
    assigned_to: Assignee,
    depends_on_id: Type.Union([Type.String(), Type.Null()]),
    fetch_previous_data: Type.Boolean(),
    role_id: Type.Union([Type.String(), Type.Null()]),
    email_notifications: Type.Array(EmailNotification),
    message: Type.Optional(Type.String({ description: '`basic`.' })),
    process_form_id: Type.Optional(Type.String({ description: '`fill_form`, `fill_pdf` with a form: the form id.' })),
    formidable: Type.Optional(
      Type.Object(FormDefinition.properties, { description: '`fill_form`, `fill_pdf`: the form.' }),
    ),
    pdf_template_id: Type.Optional(Type.String({ description: '`fill_pdf`, `signature`.' })),
    signature_zone_id: Type.Optional(Type.String({ description: '`signature`.' })),
    uploaded_document: Type.Optional(
      Type.String({ description: '`acknowledgment`: the file name of the document to acknowledge.' }),
    ),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'TaskTemplateDetail', title: 'TaskTemplateDetail' },
);
export type TaskTemplate = Static<typeof TaskTemplate>;

/** What a template stores of its type's own fields (the `settings` JSON), shared with the tasks made from it. */
export interface TaskSettings {
  message?: string;
  formidable?: FormDefinition;
  pdf_template_id?: string;
  signature_zone_id?: string;
}
