import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponses } from '../../hr/errors.js';
import { NoBody } from '../../platform/http/no-body.js';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { TenantParams, type TenantRef } from '../tenant-ref.js';
import { presentFault } from './presenter.js';
import { Fault, FaultCreate, FaultOperations, FaultParams } from './schemas.js';
import type { FaultsService } from './service.js';

const tags = ['Admin: Faults'];

/** `/tenants/{kind}/{id}/faults`: a tenant's fault rules (docs/admin.md, "Faults"). */
export async function faultRoutes(
  app: FastifyInstance,
  opts: {
    resolve: (kind: string, id: string) => Promise<TenantRef>;
    faults: FaultsService;
    actorOf: (request: FastifyRequest) => string;
  },
): Promise<void> {
  const { resolve, faults, actorOf } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const fault = Type.Ref(Fault);

  api.get(
    '/tenants/:kind/:id/faults',
    {
      schema: {
        tags,
        summary: "List a tenant's fault rules",
        params: TenantParams,
        response: { 200: Type.Object({ faults: Type.Array(fault) }), ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      return { faults: (await faults.list(tenant)).map((rule) => presentFault(tenant, rule)) };
    },
  );

  api.post(
    '/tenants/:kind/:id/faults',
    {
      schema: {
        tags,
        summary: 'Create a fault rule',
        description:
          "From now on, the tenant's calls that match are delayed (a fixed, uniform or log-normal delay), answered with an error status in the API's own body, dropped, sent slowly or in chunks, or answered malformed (an empty 200, invalid JSON, a truncated body, a connection closed after the headers), with the given probability (seeded: repeatable), until the count is spent or the instant passes. With `match.before_authentication`, before the credentials are checked: the HR token endpoint, the Academy key check. Every affected answer carries `X-Atrium-Fault: <rule id>`. The first matching rule that fires, oldest first, applies.",
        params: TenantParams,
        body: FaultCreate,
        response: { 201: fault, ...errorResponses(400, 401, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      const rule = await faults.create(tenant, request.body, actorOf(request));
      return reply.code(201).send(presentFault(tenant, rule));
    },
  );

  api.get(
    '/tenants/:kind/:id/operations',
    {
      schema: {
        tags,
        summary: "List the operationIds a tenant's fault rule may match",
        description:
          "The operationIds of the tenant's own API (`hr_…` for an HR client, `academy_…` for an academy): a rule's `match.operation_id` must be one of them.",
        params: TenantParams,
        response: { 200: FaultOperations, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      return { operation_ids: faults.operations(tenant) };
    },
  );

  api.delete(
    '/tenants/:kind/:id/faults',
    {
      schema: {
        tags,
        summary: 'Delete every fault rule of a tenant',
        params: TenantParams,
        response: { 204: NoBody, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      await faults.remove(tenant, actorOf(request));
      return reply.code(204).send();
    },
  );

  api.get(
    '/tenants/:kind/:id/faults/:fault_id',
    {
      schema: {
        tags,
        summary: 'Get a fault rule',
        params: FaultParams,
        response: { 200: fault, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      return presentFault(tenant, await faults.get(tenant, request.params.fault_id));
    },
  );

  api.delete(
    '/tenants/:kind/:id/faults/:fault_id',
    {
      schema: {
        tags,
        summary: 'Delete a fault rule',
        params: FaultParams,
        response: { 204: NoBody, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      await faults.remove(tenant, actorOf(request), request.params.fault_id);
      return reply.code(204).send();
    },
  );
}
