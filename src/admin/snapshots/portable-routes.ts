import type { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { uploadContext } from '../../hr/core/uploads/receive.js';
import { errorResponses } from '../../hr/errors.js';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { TenantParams, type TenantRef } from '../tenant-ref.js';
import { CloneCreate, CloneResult, ImportResult } from './portable-schemas.js';
import type { CloneOutcome, ImportOutcome, PortableSnapshotsService } from './portable-service.js';
import { SnapshotParams } from './schemas.js';

const tags = ['Admin: Snapshots'];

const FileBody = {
  description: 'A portable snapshot file, as `GET …/snapshots/{name}/export` gives it (any content type).',
  content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } },
};

function presentImported(outcome: ImportOutcome) {
  return {
    tenant: outcome.tenant.key,
    source: { tenant: outcome.source.tenant, snapshot: outcome.source.snapshot, created_at: outcome.source.createdAt },
    deleted_rows: outcome.deletedRows,
    imported_rows: outcome.importedRows,
    files: outcome.files,
    new_files: outcome.newFiles,
    renumbered_tables: outcome.renumberedTables,
    renamed_ids: outcome.renamedIds,
    cancelled_jobs: outcome.cancelledJobs,
    deleted_files: outcome.deletedFiles,
  };
}

function presentCloned(outcome: CloneOutcome) {
  return {
    ...presentImported(outcome),
    id: outcome.tenant.id,
    name: outcome.name,
    ...(outcome.application ? { application: { ...outcome.application, name: outcome.name, read_only: false } } : {}),
    ...(outcome.apikey !== undefined ? { apikey: outcome.apikey, super_admin_id: outcome.superAdminId } : {}),
  };
}

/**
 * Portable snapshots (docs/admin.md, "Portable snapshots"): `GET …/snapshots/{name}/export`,
 * `POST …/snapshots/import` (the body is the file, streamed: its own upload context) and `POST …/clone`.
 */
export async function portableRoutes(
  app: FastifyInstance,
  opts: {
    resolve: (kind: string, id: string) => Promise<TenantRef>;
    portable: PortableSnapshotsService;
    actorOf: (request: FastifyRequest) => string;
    importMaxBytes: number;
  },
): Promise<void> {
  const { resolve, portable, actorOf } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/tenants/:kind/:id/snapshots/:name/export',
    {
      schema: {
        tags,
        summary: 'Export a snapshot as a file',
        description:
          'The snapshot as one portable file (gzip, `application/gzip`), streamed: a versioned header, the stored files its rows refer to, the rows of each table and a trailing SHA-256. Credentials (HR applications, academy keys) are left out. `POST …/snapshots/import` loads it into a tenant of any installation of the same version, on either database.',
        params: SnapshotParams,
        response: {
          200: { type: 'string', format: 'binary', description: 'The file.' },
          ...errorResponses(401, 404),
        },
      },
    },
    async (request, reply) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      const { filename, stream } = await portable.export(tenant, request.params.name);
      return reply
        .header('content-type', 'application/gzip')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(stream);
    },
  );

  api.post(
    '/tenants/:kind/:id/clone',
    {
      schema: {
        tags: ['Admin: Tenants'],
        summary: 'Clone a tenant',
        description:
          'A new tenant of the same kind, a copy of this one as it is now (its rows and stored files), with fresh credentials shown only in this answer: an HR application, or an academy API key.',
        params: TenantParams,
        body: CloneCreate,
        response: { 201: Type.Ref(CloneResult), ...errorResponses(400, 401, 404, 422) },
      },
    },
    async (request, reply) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      const cloned = await portable.clone(tenant, request.body.name, actorOf(request));
      return reply.code(201).send(presentCloned(cloned));
    },
  );

  await app.register(async (upload) => {
    await uploadContext(upload, opts.importMaxBytes);
    upload.withTypeProvider<TypeBoxTypeProvider>().post(
      '/tenants/:kind/:id/snapshots/import',
      {
        config: {
          swaggerTransform: ({ schema, url }: { schema: object; url: string }) => ({
            schema: { ...schema, body: FileBody },
            url,
          }),
        },
        schema: {
          tags,
          summary: 'Import a snapshot file',
          description:
            "Replaces every row of the tenant with the file's, in one transaction, once the whole file is verified (its checksum, format version, kind and schema): a truncated, altered or incompatible file is refused and nothing is written. The tenant keeps its credentials, its name and its id. Up to `ATRIUM_SNAPSHOT_IMPORT_MAX_BYTES`.",
          params: TenantParams,
          response: { 200: Type.Ref(ImportResult), ...errorResponses(400, 401, 404, 413, 422) },
        },
      },
      async (request) => {
        const tenant = await resolve(request.params.kind, request.params.id);
        return presentImported(await portable.import(tenant, request.body as Readable, actorOf(request)));
      },
    );
  });
}
