import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentCustomField } from './present.js';
import {
  CustomField,
  CustomFieldList,
  CustomFieldListQuery,
  CustomFieldParams,
  CustomFieldPatch,
  CustomFieldPut,
} from './schemas.js';
import type { CustomFieldsService } from './service.js';

const TAG = ['Custom fields'];

export async function customFieldRoutes(
  app: FastifyInstance,
  opts: { customFields: CustomFieldsService; paginator: Paginator },
): Promise<void> {
  const { customFields, paginator } = opts;
  app.addSchema(CustomField);
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const Full = Type.Ref(CustomField);

  listRoute(
    app,
    paginator,
    {
      path: '/custom_fields',
      tags: TAG,
      summary: 'List custom fields',
      querystring: CustomFieldListQuery,
      item: Full,
      list: CustomFieldList,
      errors: [],
    },
    { page: (clientId, _query, request) => customFields.list(clientId, request), present: presentCustomField },
  );

  api.get(
    '/custom_fields/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Get a custom field',
        params: CustomFieldParams,
        response: { 200: Full, ...errorResponses(401, 404) },
      },
    },
    async (request) => presentCustomField(await customFields.get(request.hrAuth.clientId, request.params.id)),
  );

  api.put(
    '/custom_fields/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Create or update a custom field',
        description:
          '201 when created, 200 when updated (applied at once; Atrium never answers 202). The type cannot change.',
        params: CustomFieldParams,
        body: CustomFieldPut,
        response: { 200: Full, 201: Full, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      const { row, created } = await customFields.put(request.hrAuth.clientId, request.params.id, request.body);
      return reply.status(created ? 201 : 200).send(presentCustomField(row));
    },
  );

  api.patch(
    '/custom_fields/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Update some attributes of a custom field',
        params: CustomFieldParams,
        body: CustomFieldPatch,
        response: { 200: Full, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) =>
      presentCustomField(await customFields.patch(request.hrAuth.clientId, request.params.id, request.body)),
  );
}
