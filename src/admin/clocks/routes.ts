import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponses } from '../../hr/errors.js';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { TenantParams, type TenantRef } from '../tenant-ref.js';
import { presentClock } from './presenter.js';
import { ClockAdvance, ClockPut, TenantClock } from './schemas.js';
import type { ClocksService } from './service.js';

const tags = ['Admin: Clock'];

/** `/tenants/{kind}/{id}/clock`: read, set, advance, or reset a tenant's time (docs/admin.md, "Clock"). */
export async function clockRoutes(
  app: FastifyInstance,
  opts: {
    /** The tenant at `/tenants/{kind}/{id}`, or NotFoundError. */
    resolve: (kind: string, id: string) => Promise<TenantRef>;
    clocks: ClocksService;
    /** Who acts, for the admin audit log. */
    actorOf: (request: FastifyRequest) => string;
  },
): Promise<void> {
  const { resolve, clocks, actorOf } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const clock = Type.Ref(TenantClock);

  api.get(
    '/tenants/:kind/:id/clock',
    {
      schema: {
        tags,
        summary: "Get a tenant's clock",
        params: TenantParams,
        response: { 200: clock, ...errorResponses(401, 404) },
      },
    },
    async (request) => presentClock(clocks.show(await resolve(request.params.kind, request.params.id))),
  );

  api.put(
    '/tenants/:kind/:id/clock',
    {
      schema: {
        tags,
        summary: "Set a tenant's clock",
        description:
          "Sets the tenant's time to `now`, or to the installation's plus `offset_seconds`, and freezes it or lets it flow (`frozen`). Whatever is left out stays as it is. Every time-derived state of that tenant follows; other tenants are untouched.",
        params: TenantParams,
        body: ClockPut,
        response: { 200: clock, ...errorResponses(400, 401, 404, 422) },
      },
    },
    async (request) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      return presentClock(await clocks.set(tenant, request.body, actorOf(request)));
    },
  );

  api.post(
    '/tenants/:kind/:id/clock/advance',
    {
      schema: {
        tags,
        summary: "Advance a tenant's clock",
        description:
          "Moves the tenant's time by the sum of `days`, `hours`, `minutes` and `seconds` (negative: back), frozen or not as it was. An HR client's waiting background jobs (webhook retries) come due as if that time had passed.",
        params: TenantParams,
        body: ClockAdvance,
        response: { 200: clock, ...errorResponses(400, 401, 404, 422) },
      },
    },
    async (request) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      const { days = 0, hours = 0, minutes = 0, seconds = 0 } = request.body;
      const total = ((days * 24 + hours) * 60 + minutes) * 60 + seconds;
      return presentClock(await clocks.advance(tenant, total, actorOf(request)));
    },
  );

  api.delete(
    '/tenants/:kind/:id/clock',
    {
      schema: {
        tags,
        summary: "Reset a tenant's clock",
        description: "The tenant reads the installation's time again.",
        params: TenantParams,
        response: { 200: clock, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      return presentClock(await clocks.reset(tenant, actorOf(request)));
    },
  );
}
