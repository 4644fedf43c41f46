import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { deleteRoute, getRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentKbCategory } from './present.js';
import {
  KbCategoryGetQuery,
  KbCategoryList,
  KbCategoryListQuery,
  KbCategoryParams,
  KbCategoryPatch,
  KbCategoryPut,
  KbCategoryPutQuery,
  KbCategory as KbCategorySchema,
} from './schemas.js';
import type { KbCategoriesService } from './service.js';

const tags = ['People Assist: Categories'];

/** `/kb_categories` (reference §3e.1): list, GET, PUT upsert, PATCH order, DELETE. */
export async function kbCategoryRoutes(
  app: FastifyInstance,
  opts: { kbCategories: KbCategoriesService; paginator: Paginator },
): Promise<void> {
  const { kbCategories, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(KbCategorySchema);

  listRoute(
    app,
    paginator,
    {
      path: '/kb_categories',
      tags,
      summary: 'List knowledge-base categories',
      description: 'Always sorted by `order` (then by creation, for equal orders).',
      querystring: KbCategoryListQuery,
      item: full,
      list: KbCategoryList,
      errors: [403],
    },
    { page: (clientId, query, request) => kbCategories.list(clientId, query, request), present: presentKbCategory },
  );

  getRoute(
    app,
    {
      path: '/kb_categories/:id',
      tags: tags,
      summary: 'Get a knowledge-base category',
      params: KbCategoryParams,
      querystring: KbCategoryGetQuery,
      item: full,
      errors: [400, 401, 403, 404],
    },
    (clientId, { id }) => kbCategories.get(clientId, id),
    presentKbCategory,
  );

  api.put(
    '/kb_categories/:id',
    {
      schema: {
        tags,
        summary: 'Create or update a knowledge-base category',
        description:
          'An upsert at the client-chosen UUID. As in the reference, it answers 200 whether it created or updated, and the answer is an **array** holding the category.',
        params: KbCategoryParams,
        querystring: KbCategoryPutQuery,
        body: KbCategoryPut,
        response: { 200: Type.Array(full), ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request) => {
      const { category } = await kbCategories.put(request.hrAuth.clientId, request.params.id, request.body);
      return [presentKbCategory(category)];
    },
  );

  api.patch(
    '/kb_categories/:id',
    {
      schema: {
        tags,
        summary: 'Change the order of a knowledge-base category',
        params: KbCategoryParams,
        body: KbCategoryPatch,
        response: { 200: full, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) =>
      presentKbCategory(await kbCategories.patch(request.hrAuth.clientId, request.params.id, request.body)),
  );

  deleteRoute(
    app,
    {
      path: '/kb_categories/:id',
      tags: tags,
      summary: 'Delete a knowledge-base category',
      description:
        'Only when nothing is linked to it; otherwise 400 (`KbCategoryDeletionError`) whose `errors` carry `category_has_linked_articles`, `category_has_linked_forms`, `category_has_linked_requests` or `category_default_form_has_linked_entities`.',
      params: KbCategoryParams,
      errors: [400, 401, 403, 404],
    },
    (clientId, { id }) => kbCategories.delete(clientId, id),
  );
}
