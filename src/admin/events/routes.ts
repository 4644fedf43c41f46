import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponses } from '../../hr/errors.js';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import type { TenantRef } from '../tenant-ref.js';
import { HrTenantParams } from '../tenants/schemas.js';
import { EventTrigger, TriggeredEvent } from './schemas.js';
import type { AdminEventsService } from './service.js';

const tags = ['Admin: Events'];

/** `/tenants/hr/{id}/events/trigger`: an operator's event (docs/admin.md, "Event triggers"). */
export async function eventRoutes(
  app: FastifyInstance,
  opts: {
    resolve: (kind: string, id: string) => Promise<TenantRef>;
    events: AdminEventsService;
    actorOf: (request: FastifyRequest) => string;
  },
): Promise<void> {
  const { resolve, events, actorOf } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/tenants/hr/:id/events/trigger',
    {
      schema: {
        tags,
        summary: 'Trigger an audit event',
        description:
          "Fires an event of any type of the HR API's catalogue about one of the client's resources (`resource_id`), or, without it, about the client's resource of that type written last: its `data` and `name` are the resource's present state, as a write of it records them. It goes through the outbox to every active webhook whose patterns match it, with the body of a real event, and shows in the audit trail (`GET /events`) with `triggered: true`; its actor is the system, named after the operator. An academy has no audit trail: this is for HR clients only. As `atrium trigger --tenant hr/ID TYPE`.",
        params: HrTenantParams,
        body: EventTrigger,
        response: { 201: Type.Ref(TriggeredEvent), ...errorResponses(400, 401, 404, 422) },
      },
    },
    async (request, reply) => {
      const tenant = await resolve('hr', request.params.id);
      const fired = await events.trigger(tenant, request.body, actorOf(request));
      return reply.code(201).send(fired as Static<typeof TriggeredEvent>);
    },
  );
}
