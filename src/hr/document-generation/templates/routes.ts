import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { deleteRoute, getRoute, upsertRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { TAG_TEMPLATES } from '../tags.js';
import { presentTemplate } from './present.js';
import {
  Template,
  TemplateList,
  TemplateListQuery,
  TemplateParams,
  TemplatePatch,
  TemplatePayload,
} from './schemas.js';
import { type TemplatesService, templateFilter } from './service.js';

/** `/document_generation_templates`: the templates' metadata (reference §5.5). */
export async function templateRoutes(
  app: FastifyInstance,
  opts: { templates: TemplatesService; paginator: Paginator },
): Promise<void> {
  const { templates, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const Full = Type.Ref(Template);
  const path = '/document_generation_templates/:id';

  listRoute(
    app,
    paginator,
    {
      path: '/document_generation_templates',
      tags: TAG_TEMPLATES,
      summary: 'List document generation templates',
      querystring: TemplateListQuery,
      item: Full,
      list: TemplateList,
      errors: [],
    },
    {
      page: (clientId, query, request) => templates.list(clientId, templateFilter(query), request),
      present: presentTemplate,
    },
  );

  api.post(
    '/document_generation_templates',
    {
      schema: {
        tags: TAG_TEMPLATES,
        summary: 'Create a document generation template',
        description: 'The metadata only: upload its document with `POST /document_generation_templates/{id}/file`.',
        body: TemplatePayload,
        response: { 201: Full, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(presentTemplate(await templates.create(request.hrAuth.clientId, request.body))),
  );

  getRoute(
    app,
    { path, tags: TAG_TEMPLATES, summary: 'Get a document generation template', params: TemplateParams, item: Full },
    (clientId, { id }) => templates.get(clientId, id),
    presentTemplate,
  );

  upsertRoute(
    app,
    {
      path,
      tags: TAG_TEMPLATES,
      summary: 'Create or update a document generation template',
      description:
        'An upsert at the id (a UUID): 201 when created, 200 when updated. Optional fields left out keep their values.',
      params: TemplateParams,
      item: Full,
      body: TemplatePayload,
      key: 'template',
    },
    (clientId, { id }, body) => templates.put(clientId, id, body),
    presentTemplate,
  );

  api.patch(
    path,
    {
      schema: {
        tags: TAG_TEMPLATES,
        summary: 'Update some attributes of a document generation template',
        params: TemplateParams,
        body: TemplatePatch,
        response: { 200: Full, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => presentTemplate(await templates.patch(request.hrAuth.clientId, request.params.id, request.body)),
  );

  deleteRoute(
    app,
    {
      path,
      tags: TAG_TEMPLATES,
      summary: 'Delete a document generation template',
      description:
        'The template and all its versions. 409 while another template inserts it as a fragment. Documents generated from it stay.',
      params: TemplateParams,
      errors: [401, 403, 404, 409],
    },
    (clientId, { id }) => templates.remove(clientId, id),
  );
}
