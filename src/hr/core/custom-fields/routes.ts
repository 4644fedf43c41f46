import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { formatDateTime } from '../../../platform/time.js';
import { errorResponses } from '../../errors.js';
import { PaginationHeaders, type Paginator } from '../../lists/pagination.js';
import type { CustomFieldRow } from './repository.js';
import { CustomField, CustomFieldListQuery, CustomFieldParams, CustomFieldPatch, CustomFieldPut } from './schemas.js';
import type { CustomFieldsService } from './service.js';

export function presentCustomField(row: CustomFieldRow): CustomField {
  return {
    id: row.id,
    label: row.label,
    type: row.type,
    authorized_values: JSON.parse(row.authorized_values),
    hierarchical: row.hierarchical === 1,
    default_value: row.default_value,
    localized_labels: JSON.parse(row.localized_labels),
    visible: row.visible === 1,
    allow_access_restrictions: row.allow_access_restrictions === 1,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}

const TAG = ['Custom fields'];
const LIST = { list: 'custom_fields', keyCount: 1 };

export async function customFieldRoutes(
  app: FastifyInstance,
  opts: { customFields: CustomFieldsService; paginator: Paginator },
): Promise<void> {
  const { customFields, paginator } = opts;
  app.addSchema(CustomField);
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const Full = Type.Ref(CustomField);

  api.get(
    '/custom_fields',
    {
      schema: {
        tags: TAG,
        summary: 'List custom fields',
        querystring: CustomFieldListQuery,
        response: { 200: { ...Type.Array(Full), headers: PaginationHeaders }, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const scope = { clientId: request.hrAuth.clientId, ...LIST };
      const { limit, position } = paginator.params(request.query, scope);
      const page = await customFields.list(request.hrAuth.clientId, limit, position);
      return paginator.present(request, reply, page, scope).map(presentCustomField);
    },
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
