import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { getRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentPdfTemplate, presentPdfTemplateSummary } from './present.js';
import {
  PdfTemplate,
  PdfTemplateCountQuery,
  PdfTemplateList,
  PdfTemplateListQuery,
  PdfTemplateParams,
  PdfTemplatePut,
  PdfTemplateSummary,
} from './schemas.js';
import type { PdfTemplatesService } from './service.js';

const TAG = ['Process PDF templates'];

/** `/process_pdf_templates` (reference §3f.2, "PDF templates"). */
export async function pdfTemplateRoutes(
  app: FastifyInstance,
  opts: { pdfTemplates: PdfTemplatesService; paginator: Paginator },
): Promise<void> {
  const { pdfTemplates, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(PdfTemplate);

  listRoute(
    app,
    paginator,
    {
      path: '/process_pdf_templates',
      tags: TAG,
      summary: 'List PDF templates',
      description:
        'In creation order (`PdfTemplateList` items). The reference declares no pagination here; Atrium pages it like every list (`per_page`, cursors).',
      querystring: PdfTemplateListQuery,
      item: Type.Ref(PdfTemplateSummary),
      list: PdfTemplateList,
      errors: [403],
      count: 'Count PDF templates',
      countQuerystring: PdfTemplateCountQuery,
    },
    {
      page: (clientId, _query, request) => pdfTemplates.list(clientId, request),
      count: (clientId) => pdfTemplates.count(clientId),
      present: presentPdfTemplateSummary,
    },
  );

  getRoute(
    app,
    {
      path: '/process_pdf_templates/:id',
      tags: TAG,
      summary: 'Get a PDF template',
      params: PdfTemplateParams,
      item: full,
    },
    (clientId, { id }) => pdfTemplates.get(clientId, id),
    presentPdfTemplate,
  );

  api.put(
    '/process_pdf_templates/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Create or update a PDF template',
        description:
          'An upsert at the client-chosen id (`^[a-z0-9\\-\\_]+$`; another id is a 422 on `id`): 201 when created, 200 when updated. `upload_id` (a PDF upload) is required on create and replaces the file on update; every other attribute is replaced. Zone ids are unique, a zone’s page is within the PDF, each PDF field is mapped once (422 field errors).',
        params: PdfTemplateParams,
        body: PdfTemplatePut,
        response: { 200: full, 201: full, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      const { template, created } = await pdfTemplates.put(request.hrAuth.clientId, request.params.id, request.body);
      return reply.status(created ? 201 : 200).send(presentPdfTemplate(template));
    },
  );
}
