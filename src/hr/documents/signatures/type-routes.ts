/** `/signature_types` (reference §5.4): the three signature types, the same for every client. */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../../platform/errors.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentSignatureType } from './present.js';
import { SignatureType, SignatureTypeList, SignatureTypeListQuery, SignatureTypeParams } from './schemas.js';
import { SIGNATURE_TYPES } from './types.js';

const TYPES = ['Document manager: Signature types'];

/** `/signature_types`: list (paged in memory) and read; Atrium is their signing backend (docs/hr-api.md). */
export async function signatureTypeRoutes(app: FastifyInstance, opts: { paginator: Paginator }): Promise<void> {
  const { paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  listRoute(
    app,
    paginator,
    {
      path: '/signature_types',
      tags: TYPES,
      summary: 'List signature types',
      description: 'The same three types for every client: Atrium is their signing backend (docs/hr-api.md).',
      querystring: SignatureTypeListQuery,
      item: Type.Ref(SignatureType),
      list: SignatureTypeList,
      errors: [403],
    },
    {
      page: async (_clientId, _query, request) => {
        // A fixed list of three, paged in memory by id (the order it is listed in).
        const at = request.at.position;
        let from = request.at.offset ?? 0;
        if (at) {
          const index = SIGNATURE_TYPES.findIndex((t) => t.id === at.keys[0]);
          from = at.direction === 'after' ? index + 1 : Math.max(0, index - request.limit);
        }
        const items = SIGNATURE_TYPES.slice(from, from + request.limit);
        const last = items[items.length - 1];
        const first = items[0];
        return {
          items,
          ...(last && from + items.length < SIGNATURE_TYPES.length
            ? { next: { keys: [last.id], direction: 'after' as const, inclusive: false } }
            : {}),
          ...(first && from > 0
            ? { previous: { keys: [first.id], direction: 'before' as const, inclusive: false } }
            : {}),
        };
      },
      present: presentSignatureType,
    },
  );

  api.get(
    '/signature_types/:id',
    {
      schema: {
        tags: TYPES,
        summary: 'Get a signature type',
        params: SignatureTypeParams,
        response: { 200: Type.Ref(SignatureType), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const type = SIGNATURE_TYPES.find((t) => t.id === request.params.id);
      if (!type) throw new NotFoundError('signature type', request.params.id);
      return type;
    },
  );
}
