import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { NoBody } from '../../../platform/http/no-body.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { deleteRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentProcess } from './present.js';
import { Process, ProcessCreate, ProcessGetQuery, ProcessList, ProcessListQuery, ProcessParams } from './schemas.js';
import type { ProcessesService } from './service.js';

const TAG = ['Processes'];

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

  listRoute(
    app,
    paginator,
    {
      path: '/processes',
      tags: TAG,
      summary: 'List and search processes',
      description: 'In creation order, cursor-paginated.',
      querystring: ProcessListQuery,
      item: full,
      list: ProcessList,
      errors: [403],
    },
    { page: (clientId, query, request) => processes.list(clientId, query, request), present: presentProcess },
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

  deleteRoute(
    app,
    {
      path: '/processes/:id',
      tags: TAG,
      summary: 'Delete a process',
      description: 'For good, with its tasks and their files (the bytes go once nothing else refers to them).',
      params: ProcessParams,
    },
    (clientId, { id }) => processes.delete(clientId, id),
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
