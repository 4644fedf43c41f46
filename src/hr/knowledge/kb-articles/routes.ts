import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { deleteRoute } from '../../item-route.js';
import { listCall, sendPage } from '../../lists/list.js';
import { PaginationHeaders, type Paginator } from '../../lists/pagination.js';
import { presentKbArticle } from './present.js';
import {
  KbArticleList,
  KbArticleListQuery,
  KbArticleParams,
  KbArticlePatch,
  KbArticlePut,
  KbArticle as KbArticleSchema,
  KbTag,
  KbTagList,
  KbTagListQuery,
} from './schemas.js';
import type { KbArticlesService } from './service.js';

const tags = ['People Assist: Articles'];

/** `/kb_articles` and `/kb_tags` (reference §3e.2, §3e.3). */
export async function kbArticleRoutes(
  app: FastifyInstance,
  opts: { kbArticles: KbArticlesService; paginator: Paginator },
): Promise<void> {
  const { kbArticles, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(KbArticleSchema);

  api.get(
    '/kb_articles',
    {
      schema: {
        tags,
        summary: 'List and search knowledge-base articles',
        description:
          'Default order `-updated_at`. With `q`, articles holding every word (titles, bodies without HTML, search keywords), by relevance. With `employee_id`, only the published articles that employee may see. Version bodies only with `embed=versions.body`.',
        querystring: KbArticleListQuery,
        response: { 200: { ...Type.Array(full), headers: PaginationHeaders }, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      const { query } = request;
      const clientId = request.hrAuth.clientId;
      // Cursors are bound to the ordering: a ranked search (`q`) pages by offset, a sorted list by its keyset.
      const call = listCall(paginator, KbArticleList, clientId, query, query.q !== undefined ? 'q' : undefined);
      const page = await kbArticles.list(clientId, query, call.request);
      const bodies = query.embed === 'versions.body' || query.once_on_employee_homepage === 'true';
      return sendPage(paginator, request, reply, page, call.scope).map((v) => presentKbArticle(v, bodies));
    },
  );

  api.get(
    '/kb_articles/:id',
    {
      schema: {
        tags,
        summary: 'Get a knowledge-base article',
        params: KbArticleParams,
        response: { 200: full, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => presentKbArticle(await kbArticles.get(request.hrAuth.clientId, request.params.id), true),
  );

  api.put(
    '/kb_articles/:id',
    {
      schema: {
        tags,
        summary: 'Create or update a knowledge-base article',
        description:
          'An upsert at the client-chosen UUID: 201 when created, 200 when updated. The versions sent are the complete list, one per language.',
        params: KbArticleParams,
        body: KbArticlePut,
        response: { 200: full, 201: full, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      const { article, created } = await kbArticles.put(request.hrAuth.clientId, request.params.id, request.body);
      return reply.status(created ? 201 : 200).send(presentKbArticle(article, true));
    },
  );

  api.patch(
    '/kb_articles/:id',
    {
      schema: {
        tags,
        summary: 'Publish or unpublish a knowledge-base article, and related attributes',
        description:
          'Only what is sent changes. `status` is `draft` or `published` (`scheduled` only through PUT). Perimeters may be spelled `employee_perimeters` (the reference’s PATCH) or `employees_perimeters`.',
        params: KbArticleParams,
        body: KbArticlePatch,
        response: { 200: full, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) =>
      presentKbArticle(await kbArticles.patch(request.hrAuth.clientId, request.params.id, request.body), true),
  );

  deleteRoute(
    app,
    {
      path: '/kb_articles/:id',
      tags: tags,
      summary: 'Delete a knowledge-base article (irreversible)',
      params: KbArticleParams,
    },
    (clientId, { id }) => kbArticles.delete(clientId, id),
  );

  api.get(
    '/kb_tags',
    {
      schema: {
        tags,
        summary: 'List knowledge-base tags',
        description:
          'Distinct tags of the client’s articles (one per label, ignoring case, and language), alphabetical.',
        querystring: KbTagListQuery,
        response: {
          200: { ...Type.Array(Type.Ref(KbTag)), headers: PaginationHeaders },
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const { clientId } = request.hrAuth;
      const call = listCall(paginator, KbTagList, clientId, request.query);
      const page = await kbArticles.tags(clientId, request.query, call.request);
      return sendPage(paginator, request, reply, page, call.scope).map((t) => ({
        language_code: t.languageCode,
        label: t.label,
      }));
    },
  );
}
