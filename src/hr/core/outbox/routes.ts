import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentMail } from './present.js';
import { OutboxList, OutboxListQuery, OutboxMail } from './schemas.js';
import type { OutboxService } from './service.js';

/** `GET /outbox` (an Atrium extension): the mail Atrium would have sent. */
export async function outboxRoutes(
  app: FastifyInstance,
  opts: { outbox: OutboxService; paginator: Paginator },
): Promise<void> {
  const { outbox, paginator } = opts;
  listRoute(
    app,
    paginator,
    {
      path: '/outbox',
      tags: ['Atrium extensions'],
      summary: 'List the mail Atrium would have sent',
      description:
        'Atrium extension (not in the reference). Atrium sends no mail: each invitation, reminder or signed document it would have mailed is recorded here instead, newest first.',
      querystring: OutboxListQuery,
      item: Type.Ref(OutboxMail),
      list: OutboxList,
      errors: [403],
    },
    {
      page: (clientId, query, request) =>
        outbox.list(clientId, { kind: query.kind, relatedId: query.related_id }, request),
      present: presentMail,
    },
  );
}
