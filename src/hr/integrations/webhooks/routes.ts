import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { deleteRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentAttempt, presentWebhook } from './present.js';
import {
  DeliveryParams,
  Webhook,
  WebhookAttempt,
  WebhookAttemptList,
  WebhookAttemptListQuery,
  WebhookCreate,
  WebhookList,
  WebhookListQuery,
  WebhookParams,
} from './schemas.js';
import type { WebhooksService, WebhookView } from './service.js';

const TAG = ['Webhooks'];
const EXTENSION = 'Atrium extension (not in the reference).';
const present = (view: WebhookView) => presentWebhook(view.webhook, view.signatureKey);
/** What a view pass (the console, docs/admin.md "View passes") reads in place of a webhook's signature key. */
export const HIDDEN_FROM_VIEW_PASSES = '(hidden from view passes)';
/** A webhook as this caller may see it: a view pass never reads its signature key. */
const shown = (request: FastifyRequest, view: WebhookView): WebhookView =>
  request.viewPass ? { ...view, signatureKey: HIDDEN_FROM_VIEW_PASSES } : view;

/** `/webhooks` (reference §3f.5): list, create, read, replace, delete. */
export async function webhookRoutes(
  app: FastifyInstance,
  opts: { webhooks: WebhooksService; paginator: Paginator },
): Promise<void> {
  const { webhooks, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(Webhook);

  listRoute(
    app,
    paginator,
    {
      path: '/webhooks',
      tags: TAG,
      summary: 'List webhooks',
      description: 'In creation order, cursor-paginated.',
      querystring: WebhookListQuery,
      item: full,
      list: WebhookList,
      errors: [403],
    },
    {
      page: async (clientId, _query, request, http) => {
        const page = await webhooks.list(clientId, request);
        return { ...page, items: page.items.map((view) => shown(http, view)) };
      },
      present,
    },
  );

  api.post(
    '/webhooks',
    {
      schema: {
        tags: TAG,
        summary: 'Create a webhook',
        description:
          'The server generates its `signature_key`. Every event matching `events` is then delivered to `callback_url` while `is_active` (docs/hr-api.md, "Webhooks").',
        body: WebhookCreate,
        response: { 201: full, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return present(await webhooks.create(request.hrAuth.clientId, request.body));
    },
  );

  api.get(
    '/webhooks/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Get a webhook',
        params: WebhookParams,
        response: { 200: full, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => present(shown(request, await webhooks.get(request.hrAuth.clientId, request.params.id))),
  );

  api.put(
    '/webhooks/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Update a webhook',
        description: 'Replaces its name, URL, subscriptions and state; it never creates one (404).',
        params: WebhookParams,
        body: WebhookCreate,
        response: { 200: full, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => present(await webhooks.update(request.hrAuth.clientId, request.params.id, request.body)),
  );

  deleteRoute(
    app,
    {
      path: '/webhooks/:id',
      tags: TAG,
      summary: 'Delete a webhook',
      description: 'Its pending deliveries are dropped with it.',
      params: WebhookParams,
    },
    (clientId, { id }) => webhooks.delete(clientId, id),
  );
}

/** A webhook's actions: a new signature key, a test call, and the Atrium extensions that show and replay deliveries. */
export async function webhookActionRoutes(
  app: FastifyInstance,
  opts: { webhooks: WebhooksService; paginator: Paginator },
): Promise<void> {
  const { webhooks, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(Webhook);

  api.post(
    '/webhooks/:id/refresh_signature_key',
    {
      schema: {
        tags: TAG,
        summary: 'Rotate the signature key',
        description: 'Callbacks queued from now on are signed with the new key.',
        params: WebhookParams,
        response: { 200: full, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => present(await webhooks.refreshKey(request.hrAuth.clientId, request.params.id)),
  );

  api.post(
    '/webhooks/:id/tests',
    {
      schema: {
        tags: TAG,
        summary: 'Send a test callback',
        description:
          'Queues a `webhook.test` event to the webhook (active or not), sent at once by the deliverer; its attempts show in `GET /webhooks/{id}/deliveries`.',
        params: WebhookParams,
        response: { 204: { type: 'null', description: 'No body.' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await webhooks.test(request.hrAuth.clientId, request.params.id);
      return reply.code(204).send();
    },
  );

  listRoute(
    app,
    paginator,
    {
      path: '/webhooks/:id/deliveries',
      params: WebhookParams,
      tags: ['Atrium extensions'],
      summary: 'List a webhook’s delivery attempts',
      description: `${EXTENSION} Newest first: each attempt's outcome, the receiver's status, its duration, the error and the first bytes of the answer.`,
      querystring: WebhookAttemptListQuery,
      item: Type.Ref(WebhookAttempt),
      list: WebhookAttemptList,
      errors: [403, 404],
      qualifier: (request) => (request.params as { id: string }).id,
    },
    {
      page: (clientId, _query, request, http) =>
        webhooks.attempts(clientId, (http.params as { id: string }).id, request),
      present: presentAttempt,
    },
  );

  api.post(
    '/webhooks/:id/deliveries/:delivery_id/redeliver',
    {
      schema: {
        tags: ['Atrium extensions'],
        summary: 'Redeliver an event',
        description: `${EXTENSION} Queues the delivery's event again, with the same body and \`X-Event-Id\`, signed anew.`,
        params: DeliveryParams,
        response: { 202: { type: 'null', description: 'Queued; no body.' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await webhooks.redeliver(request.hrAuth.clientId, request.params.id, request.params.delivery_id);
      return reply.code(202).send();
    },
  );
}
