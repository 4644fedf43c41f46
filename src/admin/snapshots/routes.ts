import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponses } from '../../hr/errors.js';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { TenantParams, type TenantRef } from '../tenant-ref.js';
import { presentReplaced, presentSnapshot } from './presenter.js';
import { ReplaceResult, Snapshot, SnapshotCreate, SnapshotList, SnapshotParams, SnapshotRestore } from './schemas.js';
import type { SnapshotsService } from './service.js';

const tags = ['Admin: Snapshots'];
const NoBody = { type: 'null', description: 'Deleted: no body.' } as const;

/**
 * `/tenants/{kind}/{id}/snapshots` and `/tenants/{kind}/{id}/reset`: save a tenant's state under a name, list,
 * read, delete and restore its snapshots, or empty it (docs/admin.md, "Snapshots").
 */
export async function snapshotRoutes(
  app: FastifyInstance,
  opts: {
    /** The tenant at `/tenants/{kind}/{id}`, or NotFoundError. */
    resolve: (kind: string, id: string) => Promise<TenantRef>;
    snapshots: SnapshotsService;
    /** Who acts, for the admin audit log. */
    actorOf: (request: FastifyRequest) => string;
  },
): Promise<void> {
  const { resolve, snapshots, actorOf } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const snapshot = Type.Ref(Snapshot);
  const replaced = Type.Ref(ReplaceResult);

  api.get(
    '/tenants/:kind/:id/snapshots',
    {
      schema: {
        tags,
        summary: "List a tenant's snapshots",
        description: 'Oldest first.',
        params: TenantParams,
        response: { 200: SnapshotList, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      return { snapshots: (await snapshots.list(tenant)).map(presentSnapshot) };
    },
  );

  api.post(
    '/tenants/:kind/:id/snapshots',
    {
      schema: {
        tags,
        summary: "Save a tenant's state",
        description:
          'Saves every row of the tenant (its credentials and its own row included) and keeps every stored file its rows refer to, under `name`. A name the tenant has already is a 409: delete that snapshot first.',
        params: TenantParams,
        body: SnapshotCreate,
        response: { 201: snapshot, ...errorResponses(400, 401, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      const saved = await snapshots.create(tenant, request.body.name, actorOf(request));
      return reply.code(201).send(presentSnapshot(saved));
    },
  );

  api.get(
    '/tenants/:kind/:id/snapshots/:name',
    {
      schema: {
        tags,
        summary: 'Get a snapshot',
        params: SnapshotParams,
        response: { 200: snapshot, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      return presentSnapshot(await snapshots.retrieve(tenant, request.params.name));
    },
  );

  api.delete(
    '/tenants/:kind/:id/snapshots/:name',
    {
      schema: {
        tags,
        summary: 'Delete a snapshot',
        description: 'The files only it kept are deleted too. The tenant itself is untouched.',
        params: SnapshotParams,
        response: { 204: NoBody, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      await snapshots.remove(tenant, request.params.name, actorOf(request));
      return reply.code(204).send();
    },
  );

  api.post(
    '/tenants/:kind/:id/snapshots/:name/restore',
    {
      schema: {
        tags,
        summary: 'Restore a snapshot',
        description:
          "Replaces every row of the tenant with the snapshot's, in one transaction: a concurrent reader sees the tenant before or after, never a mix. The tenant's credentials (HR applications, academy keys) and its own row stay as they are unless `credentials` is `restore`. The tenant's pending background jobs are cancelled and its idempotency keys forgotten.",
        params: SnapshotParams,
        body: SnapshotRestore,
        response: { 200: replaced, ...errorResponses(400, 401, 404, 409, 422) },
      },
      // The body is optional: none is `{}`.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      const credentials = request.body.credentials ?? 'keep';
      return presentReplaced(await snapshots.restore(tenant, request.params.name, credentials, actorOf(request)));
    },
  );

  api.post(
    '/tenants/:kind/:id/reset',
    {
      schema: {
        tags: ['Admin: Tenants'],
        summary: 'Empty a tenant',
        description:
          'Deletes every row of the tenant but its own and its credentials (HR applications, academy keys), in one transaction; its snapshots stay. Its pending background jobs are cancelled and its idempotency keys forgotten.',
        params: TenantParams,
        response: { 200: replaced, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      return presentReplaced(await snapshots.reset(tenant, actorOf(request)));
    },
  );
}
