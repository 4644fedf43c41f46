import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { NoBody } from '../../../platform/http/no-body.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { getRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentProcessTemplate, presentTaskTemplate } from './present.js';
import {
  ProcessTemplate,
  ProcessTemplateCountQuery,
  ProcessTemplateList,
  ProcessTemplateListQuery,
  ProcessTemplateParams,
  ProcessTemplatePut,
  TaskTemplate,
  TaskTemplateListParams,
  TaskTemplateParams,
  TaskTemplatePut,
} from './schemas.js';
import { MAX_TASK_TEMPLATES, type ProcessTemplatesService } from './service.js';

const TAG = ['Process templates'];

/** `/process_templates` (reference §3f.2); their task templates are taskTemplateRoutes'. */
export async function processTemplateRoutes(
  app: FastifyInstance,
  opts: { processTemplates: ProcessTemplatesService; paginator: Paginator },
): Promise<void> {
  const { processTemplates, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(ProcessTemplate);

  listRoute(
    app,
    paginator,
    {
      path: '/process_templates',
      tags: TAG,
      summary: 'List process templates',
      description:
        'In creation order. The reference declares no pagination here; Atrium pages it like every list (`per_page`, cursors), which a client that reads one page of up to 100 never notices.',
      querystring: ProcessTemplateListQuery,
      item: full,
      list: ProcessTemplateList,
      errors: [403],
      count: 'Count process templates',
      countQuerystring: ProcessTemplateCountQuery,
    },
    {
      page: (clientId, query, request) => processTemplates.list(clientId, query.title, request),
      count: (clientId, query) => processTemplates.count(clientId, query.title),
      present: presentProcessTemplate,
    },
  );

  getRoute(
    app,
    {
      path: '/process_templates/:id',
      tags: TAG,
      summary: 'Get a process template',
      params: ProcessTemplateParams,
      item: full,
    },
    (clientId, { id }) => processTemplates.get(clientId, id),
    presentProcessTemplate,
  );

  api.put(
    '/process_templates/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Create or update a process template',
        description:
          'An upsert at the client-chosen id (`^[a-z0-9\\-\\_]+$`; another id is a 422 on `id`): 201 when created, 200 when updated. An update replaces every attribute. Read-only attributes may be sent back and are ignored.',
        params: ProcessTemplateParams,
        body: ProcessTemplatePut,
        response: { 200: full, 201: full, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      const { template, created } = await processTemplates.put(
        request.hrAuth.clientId,
        request.params.id,
        request.body,
        {
          origin: 'application',
          id: request.hrAuth.applicationId,
        },
      );
      return reply.status(created ? 201 : 200).send(presentProcessTemplate(template));
    },
  );
}

/** `/process_templates/{id}/task_templates` (reference §3f.2). */
export async function taskTemplateRoutes(
  app: FastifyInstance,
  opts: { processTemplates: ProcessTemplatesService },
): Promise<void> {
  const { processTemplates } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const task = Type.Ref(TaskTemplate);

  api.get(
    '/process_templates/:process_template_id/task_templates',
    {
      schema: {
        tags: TAG,
        summary: 'List the task templates of a process template',
        description: `Every task template (at most ${MAX_TASK_TEMPLATES}), in creation order; not paginated, as in the reference.`,
        params: TaskTemplateListParams,
        response: { 200: Type.Array(task), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) =>
      (await processTemplates.taskTemplates(request.hrAuth.clientId, request.params.process_template_id)).map(
        presentTaskTemplate,
      ),
  );

  api.get(
    '/process_templates/:process_template_id/task_templates/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Get a task template',
        description: 'Typed by its `type`: the type-specific attributes of the other types are absent.',
        params: TaskTemplateParams,
        response: { 200: task, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) =>
      presentTaskTemplate(
        await processTemplates.taskTemplate(
          request.hrAuth.clientId,
          request.params.process_template_id,
          request.params.id,
        ),
      ),
  );

  api.put(
    '/process_templates/:process_template_id/task_templates/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Create or update a task template',
        description:
          'An upsert at the client-chosen id: 201 when created, 200 when updated; the `type` cannot change. Each type takes its own attributes (422 `not_allowed` for another type’s). Processes already created keep the tasks they were made with.',
        params: TaskTemplateParams,
        body: TaskTemplatePut,
        response: { 200: task, 201: task, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      const { template, created } = await processTemplates.putTaskTemplate(
        request.hrAuth.clientId,
        request.params.process_template_id,
        request.params.id,
        request.body,
      );
      return reply.status(created ? 201 : 200).send(presentTaskTemplate(template));
    },
  );

  api.delete(
    '/process_templates/:process_template_id/task_templates/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Delete a task template',
        description:
          'Refused (422 `task_template_has_dependants`) while another task template depends on it. Processes already created keep their tasks.',
        params: TaskTemplateParams,
        response: { 204: NoBody, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await processTemplates.deleteTaskTemplate(
        request.hrAuth.clientId,
        request.params.process_template_id,
        request.params.id,
      );
      return reply.status(204).send();
    },
  );
}
