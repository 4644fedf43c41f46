import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponses } from '../../hr/errors.js';
import { NoBody } from '../../platform/http/no-body.js';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { TenantParams, type TenantRef } from '../tenant-ref.js';
import type { AdminWebhooksService } from './service.js';

const tags = ['Admin: Webhooks'];

const DeliveryParams = Type.Composite(
  [
    TenantParams,
    Type.Object({
      webhook_id: Type.String({ minLength: 1, maxLength: 64 }),
      delivery_id: Type.String({ minLength: 1, maxLength: 64 }),
    }),
  ],
  { additionalProperties: false },
);

/** `/tenants/hr/{id}/webhooks/…`: an operator's redelivery (docs/admin.md, "Webhooks"). */
export async function webhookRoutes(
  app: FastifyInstance,
  opts: {
    resolve: (kind: string, id: string) => Promise<TenantRef>;
    webhooks: AdminWebhooksService;
    actorOf: (request: FastifyRequest) => string;
  },
): Promise<void> {
  const { resolve, webhooks, actorOf } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/tenants/:kind/:id/webhooks/:webhook_id/deliveries/:delivery_id/redeliver',
    {
      schema: {
        tags,
        summary: 'Redeliver a webhook event',
        description:
          "Queues the delivery's event again, with the same body and `X-Event-Id`, signed anew: what the HR API's own redeliver does, made by an operator (the console's webhooks page) and audited. The deliveries are read with the HR API (`GET /webhooks/{id}/deliveries`), for instance with a view pass.",
        params: DeliveryParams,
        response: { 202: NoBody, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const { kind, id, webhook_id, delivery_id } = request.params;
      await webhooks.redeliver(await resolve(kind, id), webhook_id, delivery_id, actorOf(request));
      return reply.code(202).send();
    },
  );
}
