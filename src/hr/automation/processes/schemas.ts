import { type Static, Type } from '@sinclair/typebox';
import { CommaListSchema } from '../../../platform/lists.js';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';
import { Task } from '../tasks/schemas.js';

export const PROCESS_STATES = ['draft', 'publishing', 'pending', 'done', 'cancelled', 'finalizing', 'error'] as const;

export const ProcessParams = Type.Object({ id: Type.String({ format: 'uuid', description: 'Process id.' }) });

const DateText = (description: string) => Type.String({ format: 'date', description: `${description} YYYY-MM-DD.` });
const Id = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 255, description }));

export const ProcessCreate = Type.Object(
  {
    process_template_id: Type.String({ minLength: 1, maxLength: 255, description: 'The template to run.' }),
    publish: Type.Boolean({
      description: 'true: publish at once (as `PUT /processes/{id}/publish`); false: the process stays a draft.',
    }),
    employee_id: Id('The employee the process concerns. Give it or employee_external_id.'),
    employee_external_id: Id('The employee, by external id; ignored when employee_id is given.'),
    creator_id: Id('The HR user (`/users`) who creates the process. Give it or creator_external_id.'),
    creator_external_id: Id('The creator, by external id; ignored when creator_id is given.'),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Default: the template’s title.' })),
    description: Type.Optional(
      Type.Union([Type.String({ maxLength: 20_000 }), Type.Null()], {
        description: 'Default: the template’s description.',
      }),
    ),
    due_date: Type.Optional(
      Type.Union([
        DateText('When the process should be done; its tasks start with it as their due date.'),
        Type.Null(),
      ]),
    ),
    publication_date: Type.Optional(
      Type.Union([
        DateText('Publication date. Stored and filterable; Atrium runs no cron: publish explicitly.'),
        Type.Null(),
      ]),
    ),
  },
  { additionalProperties: false },
);
export type ProcessCreate = Static<typeof ProcessCreate>;

const Status = Type.Union([Type.Literal('pending'), Type.Literal('done')]);

const processFields = {
  id: Type.String({ format: 'uuid' }),
  title: Type.String(),
  public_title: Type.Union([Type.String(), Type.Null()], { description: 'Title shown to the employee.' }),
  reference: Type.String({ pattern: '^proc-[0-9]+$', description: '`proc-<n>`, numbered per client from 1.' }),
  employee_id: Type.String(),
  creator_id: Type.String(),
  process_template_id: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  publication_date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
  due_date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
  state: Type.Union(
    PROCESS_STATES.map((s) => Type.Literal(s)),
    { description: 'Atrium uses `draft` → `pending` (published) → `done` (every task completed).' },
  ),
  employee_status: Type.Union([Status], { description: '`done` when every task assigned to the employee is.' }),
  company_status: Type.Union([Status], { description: '`done` when every task assigned to users is.' }),
  employee_tasks_count: Type.Integer(),
  company_tasks_count: Type.Integer(),
  done_employee_tasks_count: Type.Integer(),
  done_company_tasks_count: Type.Integer(),
  published: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  completed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  tasks_ids: Type.Optional(
    Type.Array(Type.String(), { description: 'Without `embed=tasks`: the task ids, in order.' }),
  ),
  tasks: Type.Optional(Type.Array(Type.Ref(Task), { description: 'With `embed=tasks`: the tasks, in order.' })),
};

export const Process = Type.Object(processFields, { $id: 'ProcessFull', title: 'ProcessFull' });
export type Process = Static<typeof Process>;

const Embed = Type.Optional(
  Type.Literal('tasks', { description: '`tasks`: the tasks themselves instead of `tasks_ids`.' }),
);

export const ProcessGetQuery = Type.Object({ embed: Embed }, { additionalProperties: false });

const DateOrDateTime = (description: string) =>
  Type.Optional(
    Type.String({ maxLength: 40, 'x-date-or-datetime': true, description: `${description} A date or a datetime.` }),
  );

/** `GET /processes`: in creation order. */
export const ProcessList = declareList('processes');

export const ProcessListQuery = Type.Object(
  {
    ...PaginationQuery,
    employee_id: Type.Optional(Type.String({ maxLength: 255 })),
    template_id: Type.Optional(Type.String({ maxLength: 255, description: 'Processes of this process template.' })),
    creator_id: Type.Optional(Type.String({ maxLength: 255 })),
    publication_date: Type.Optional(DateText('Processes with this publication date.')),
    state: Type.Optional(
      CommaListSchema(PROCESS_STATES, {
        maxLength: 200,
        description: 'Comma-separated states, such as `done,cancelled,error`.',
      }),
    ),
    due_date_since: Type.Optional(DateText('Due on or after.')),
    due_date_until: Type.Optional(DateText('Due on or before.')),
    created_at_since: DateOrDateTime('Created at or after.'),
    created_at_until: DateOrDateTime('Created at or before (a date: until the end of that day).'),
    completed_at_since: DateOrDateTime('Completed at or after.'),
    reference: Type.Optional(Type.String({ maxLength: 32, description: 'Exact reference (`proc-12`).' })),
    embed: Embed,
  },
  { additionalProperties: false },
);
export type ProcessListQuery = Static<typeof ProcessListQuery>;
