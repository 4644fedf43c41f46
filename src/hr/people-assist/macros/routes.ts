import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentMacro, presentMacroDetail } from './present.js';
import {
  MacroCountQuery,
  MacroDetail,
  MacroGetQuery,
  MacroList,
  MacroListDeclaration,
  MacroListQuery,
  MacroParams,
  MacroPut,
} from './schemas.js';
import type { MacrosService } from './service.js';

const TAG = ['People Assist: Macros'];

/** `/macros`: count, list (page or cursor, sort, q), GET (`embed=actions`) and PUT upsert (reference §3d.8). */
export async function macroRoutes(
  app: FastifyInstance,
  opts: { macros: MacrosService; paginator: Paginator },
): Promise<void> {
  const { macros, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const detail = Type.Ref(MacroDetail);

  listRoute(
    app,
    paginator,
    {
      path: '/macros',
      tags: TAG,
      summary: 'List macros',
      description:
        'Sorted by `sort` (default `-updated_at`). Pages with `per_page` and `page`, or with the `cursor` of Link / Next-Cursor / Previous-Cursor.',
      querystring: MacroListQuery,
      item: Type.Ref(MacroList),
      list: MacroListDeclaration,
      errors: [403],
      count: 'Count macros',
      countQuerystring: MacroCountQuery,
    },
    {
      page: (clientId, query, request) => macros.list(clientId, query.q ? { q: query.q } : {}, request),
      count: (clientId, query) => macros.count(clientId, query.q ? { q: query.q } : {}),
      present: presentMacro,
    },
  );

  api.get(
    '/macros/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Get a macro',
        params: MacroParams,
        querystring: MacroGetQuery,
        response: { 200: detail, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      presentMacroDetail(
        await macros.get(request.hrAuth.clientId, request.params.id),
        request.query.embed === 'actions',
      ),
  );

  api.put(
    '/macros/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Create or update a macro',
        description: 'An upsert at the id: 201 when created, 200 when updated. The answer includes the actions.',
        params: MacroParams,
        body: MacroPut,
        response: { 200: detail, 201: detail, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      const { macro, created } = await macros.put(request.hrAuth.clientId, request.params.id, request.body);
      return reply.status(created ? 201 : 200).send(presentMacroDetail(macro, true));
    },
  );
}
