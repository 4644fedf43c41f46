import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { formatDateTime } from '../../../platform/time.js';
import { errorResponses } from '../../errors.js';
import { PaginationHeaders, type Paginator } from '../../lists/pagination.js';
import type { ProcessTemplateRow, TaskTemplateRow } from './repository.js';
import {
  ProcessTemplate,
  ProcessTemplateCountQuery,
  ProcessTemplateListQuery,
  ProcessTemplateParams,
  ProcessTemplatePut,
  type TaskSettings,
  TaskTemplate,
  TaskTemplateListParams,
  TaskTemplateParams,
  TaskTemplatePut,
} from './schemas.js';
import { MAX_TASK_TEMPLATES, type ProcessTemplatesService } from './service.js';

export function presentProcessTemplate(row: ProcessTemplateRow): ProcessTemplate {
  return {
    id: row.id,
    title: row.title,
    public_title: row.public_title,
    description: row.description,
    automatic_archiving: row.automatic_archiving === 1,
    restrictions: JSON.parse(row.restrictions),
    created_at: formatDateTime(row.created_at),
    created_by: JSON.parse(row.created_by),
    updated_at: formatDateTime(row.updated_at),
    updated_by: JSON.parse(row.updated_by),
  };
}

export function presentTaskTemplate(row: TaskTemplateRow): TaskTemplate {
  const settings = JSON.parse(row.settings) as TaskSettings;
  return {
    id: row.id,
    process_template_id: row.process_template_id,
    type: row.type,
    name: row.name,
    description: row.description,
    assigned_to: row.assigned_to,
    depends_on_id: row.depends_on_id,
    fetch_previous_data: row.fetch_previous_data === 1,
    role_id: row.role_id,
    email_notifications: JSON.parse(row.email_notifications),
    ...(settings.message !== undefined ? { message: settings.message } : {}),
    ...(settings.formidable !== undefined ? { process_form_id: row.id, formidable: settings.formidable } : {}),
    ...(settings.pdf_template_id !== undefined ? { pdf_template_id: settings.pdf_template_id } : {}),
    ...(settings.signature_zone_id !== undefined ? { signature_zone_id: settings.signature_zone_id } : {}),
    ...(row.filename !== null ? { uploaded_document: row.filename } : {}),
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}

const TAG = ['Process templates'];
const NoBody = { type: 'null', description: 'No body.' } as const;

/** `/process_templates` and `/process_templates/{id}/task_templates` (reference §3f.2). */
export async function processTemplateRoutes(
  app: FastifyInstance,
  opts: { processTemplates: ProcessTemplatesService; paginator: Paginator },
): Promise<void> {
  const { processTemplates, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(ProcessTemplate);
  const task = Type.Ref(TaskTemplate);

  // Declared before GET so it replaces Fastify's automatic HEAD route.
  api.head(
    '/process_templates',
    {
      config: { swagger: { exposeHeadRoute: true } },
      schema: {
        tags: TAG,
        summary: 'Count process templates',
        description: 'Same filter as the list; the count is in `X-Total-Count`.',
        querystring: ProcessTemplateCountQuery,
        response: {
          200: {
            type: 'null',
            description: 'Count in X-Total-Count.',
            headers: Type.Object({ 'X-Total-Count': Type.Integer({ description: 'Number of matching templates.' }) }),
          },
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const total = await processTemplates.count(request.hrAuth.clientId, request.query.title);
      return reply.header('X-Total-Count', String(total)).status(200).send();
    },
  );

  api.get(
    '/process_templates',
    {
      schema: {
        tags: TAG,
        summary: 'List process templates',
        description:
          'In creation order. The reference declares no pagination here; Atrium pages it like every list (`per_page`, cursors), which a client that reads one page of up to 100 never notices.',
        querystring: ProcessTemplateListQuery,
        response: { 200: { ...Type.Array(full), headers: PaginationHeaders }, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const scope = { clientId: request.hrAuth.clientId, list: 'process_templates', keyCount: 1 };
      const { limit, position } = paginator.params(request.query, scope);
      const page = await processTemplates.list(request.hrAuth.clientId, request.query.title, limit, position);
      return paginator.present(request, reply, page, scope).map(presentProcessTemplate);
    },
  );

  api.get(
    '/process_templates/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Get a process template',
        params: ProcessTemplateParams,
        response: { 200: full, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => presentProcessTemplate(await processTemplates.get(request.hrAuth.clientId, request.params.id)),
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
