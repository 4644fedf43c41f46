import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { getRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentInboxItem } from './present.js';
import { InboxItem, InboxItemCreate, InboxItemList, InboxItemListQuery, InboxItemParams } from './schemas.js';
import type { InboxService } from './service.js';

const TAGS = ['Document manager: Inbox'];

/** `/inbox_items` (reference §3c.7): list and search, create with its documents, read. */
export async function inboxRoutes(app: FastifyInstance, opts: { inbox: InboxService; paginator: Paginator }) {
  const { inbox, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(InboxItem);

  listRoute(
    app,
    paginator,
    {
      path: '/inbox_items',
      tags: TAGS,
      summary: 'List and search inbox items',
      description:
        'Newest first. Pages with `per_page` and `page`, or with the `cursor` of Link / Next-Cursor / Previous-Cursor.',
      querystring: InboxItemListQuery,
      item: full,
      list: InboxItemList,
      errors: [403],
    },
    {
      page: (clientId, query, request) =>
        inbox.list(
          clientId,
          { q: query.q, state: query.state, sharedInboxId: query.shared_inbox_id, creatorId: query.creator_id },
          request,
        ),
      present: presentInboxItem,
    },
  );

  api.post(
    '/inbox_items',
    {
      schema: {
        tags: TAGS,
        summary: 'Create an inbox item',
        description:
          'With its documents, each an upload (`uploaded_files`, used up). The recipients are told by mail unless `send_notification` is false (the outbox, `GET /outbox`).',
        body: InboxItemCreate,
        response: { 201: full, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(presentInboxItem(await inbox.create(request.hrAuth.clientId, request.body))),
  );

  getRoute(
    app,
    { path: '/inbox_items/:id', tags: TAGS, summary: 'Get an inbox item', params: InboxItemParams, item: full },
    (clientId, { id }) => inbox.get(clientId, id),
    presentInboxItem,
  );
}
