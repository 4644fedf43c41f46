import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { formatDateTime } from '../../../platform/time.js';
import { errorResponses } from '../../errors.js';
import { PaginationHeaders, type Paginator } from '../../lists/pagination.js';
import { presentTask } from '../tasks/present.js';
import { Process, ProcessCreate, ProcessGetQuery, ProcessListQuery, ProcessParams } from './schemas.js';
import type { ProcessesService, ProcessView } from './service.js';

export function presentProcess(view: ProcessView): Process {
  const { row } = view;
  return {
    id: row.id,
    title: row.title,
    public_title: row.public_title,
    reference: row.reference,
    employee_id: row.employee_id,
    creator_id: row.creator_id,
    process_template_id: row.process_template_id,
    description: row.description,
    publication_date: row.publication_date,
    due_date: row.due_date,
    state: row.state,
    employee_status: row.done_employee_tasks_count === row.employee_tasks_count ? 'done' : 'pending',
    company_status: row.done_company_tasks_count === row.company_tasks_count ? 'done' : 'pending',
    employee_tasks_count: row.employee_tasks_count,
    company_tasks_count: row.company_tasks_count,
    done_employee_tasks_count: row.done_employee_tasks_count,
    done_company_tasks_count: row.done_company_tasks_count,
    published: row.published === 1,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
    completed_at: row.completed_at === null ? null : formatDateTime(row.completed_at),
    ...(view.tasks ? { tasks: view.tasks.map((t) => presentTask(t)) } : { tasks_ids: view.taskIds }),
  };
}

const TAG = ['Processes'];
const NoBody = { type: 'null', description: 'No body.' } as const;

/** `/processes` (reference §3f.1). */
export async function processRoutes(
  app: FastifyInstance,
  opts: { processes: ProcessesService; paginator: Paginator },
): Promise<void> {
  const { processes, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(Process);

  api.post(
    '/processes',
    {
      schema: {
        tags: TAG,
        summary: 'Create a process from a template',
        description:
          'A `draft` process numbered `proc-<n>` (per client), with one `draft` task per task template of the template. `publish: true` publishes it at once.',
        body: ProcessCreate,
        response: { 201: full, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(presentProcess(await processes.create(request.hrAuth.clientId, request.body))),
  );

  api.get(
    '/processes',
    {
      schema: {
        tags: TAG,
        summary: 'List and search processes',
        description: 'In creation order, cursor-paginated.',
        querystring: ProcessListQuery,
        response: { 200: { ...Type.Array(full), headers: PaginationHeaders }, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const scope = { clientId: request.hrAuth.clientId, list: 'processes', keyCount: 1 };
      const { limit, position } = paginator.params(request.query, scope);
      const page = await processes.list(request.hrAuth.clientId, request.query, limit, position);
      return paginator.present(request, reply, page, scope).map(presentProcess);
    },
  );

  api.get(
    '/processes/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Get a process',
        description: '`embed=tasks` gives `tasks`; otherwise `tasks_ids`.',
        params: ProcessParams,
        querystring: ProcessGetQuery,
        response: { 200: full, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      presentProcess(await processes.get(request.hrAuth.clientId, request.params.id, request.query.embed === 'tasks')),
  );

  api.delete(
    '/processes/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Delete a process',
        description: 'For good, with its tasks and their files (the bytes go once nothing else refers to them).',
        params: ProcessParams,
        response: { 204: NoBody, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await processes.delete(request.hrAuth.clientId, request.params.id);
      return reply.status(204).send();
    },
  );

  api.put(
    '/processes/:id/publish',
    {
      schema: {
        tags: TAG,
        summary: 'Publish a process',
        description:
          'draft → pending: its tasks become `to_do`, or `blocked` while the task they depend on is not completed. Done at once (the 202 of the reference, with no body); a published process is a 422 `process_already_published`.',
        params: ProcessParams,
        response: { 202: NoBody, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await processes.publish(request.hrAuth.clientId, request.params.id);
      return reply.status(202).send();
    },
  );
}
