import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { getRoute, upsertRoute } from '../../item-route.js';
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

  getRoute(
    app,
    {
      path: '/custom_fields/:id',
      tags: TAG,
      summary: 'Get a custom field',
      params: CustomFieldParams,
      item: Full,
      errors: [401, 404],
    },
    (clientId, { id }) => customFields.get(clientId, id),
    presentCustomField,
  );

  upsertRoute(
    app,
    {
      path: '/custom_fields/:id',
      tags: TAG,
      summary: 'Create or update a custom field',
      description:
        '201 when created, 200 when updated (applied at once; Atrium never answers 202). The type cannot change.',
      params: CustomFieldParams,
      item: Full,
      body: CustomFieldPut,
      key: 'row',
    },
    (clientId, { id }, body) => customFields.put(clientId, id, body),
    presentCustomField,
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
