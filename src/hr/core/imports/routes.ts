import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { BlobStore } from '../../../platform/blobs/store.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { sendBlob } from '../../../platform/http/send-blob.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { getRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentImport } from './present.js';
import { xmlReport } from './report.js';
import { Import, ImportCreate, ImportList, ImportListQuery, ImportParams } from './schemas.js';
import type { ImportsService } from './service.js';

const TAG = ['Imports'];

/** `/imports` (reference §5.3): CSV files of employees, managers or organizations, applied in the background. */
export async function importRoutes(
  app: FastifyInstance,
  opts: { imports: ImportsService; paginator: Paginator; blobs: BlobStore },
): Promise<void> {
  const { imports, paginator, blobs } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(Import);

  api.post(
    '/imports',
    {
      schema: {
        tags: TAG,
        summary: 'Create and start an import',
        description:
          'The CSV is an upload (POST /document or POST /uploads). Its rows are applied in the background, each as its single endpoint would apply it; poll GET /imports/{id}, then read the reports. Layouts: docs/hr-api.md, "Imports".',
        body: ImportCreate,
        response: { 201: full, ...errorResponses(400, 401, 403, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(presentImport(await imports.create(request.hrAuth.clientId, request.body))),
  );

  listRoute(
    app,
    paginator,
    {
      path: '/imports',
      tags: TAG,
      summary: 'List imports',
      description: 'In the order they were made; `type`, `created_at_since` and `created_at_until` filter.',
      querystring: ImportListQuery,
      item: full,
      list: ImportList,
      errors: [403],
    },
    {
      page: (clientId, query, request) => imports.list(clientId, query, request),
      present: presentImport,
    },
  );

  getRoute(
    app,
    {
      path: '/imports/:id',
      tags: TAG,
      summary: 'Get an import',
      description: 'While it runs, its counts are those of the rows applied so far.',
      params: ImportParams,
      item: full,
    },
    (clientId, { id }) => imports.get(clientId, id),
    presentImport,
  );

  api.get(
    '/imports/:id/source',
    {
      schema: {
        tags: TAG,
        summary: 'Download the CSV of an import',
        description: 'The file as it was uploaded, byte for byte.',
        params: ImportParams,
        response: {
          200: { type: 'string', format: 'binary', description: 'The CSV.' },
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const found = await imports.get(request.hrAuth.clientId, request.params.id);
      return sendBlob(reply, request, blobs, {
        sha256: found.sha256,
        size: found.size,
        contentType: 'text/csv; charset=utf-8',
        filename: found.filename,
      });
    },
  );

  const report = async (reply: FastifyReply, clientId: HrTenantId, id: string, onlyFailed: boolean) => {
    const { record, rows } = await imports.finished(clientId, id, onlyFailed);
    return reply.type('text/xml; charset=utf-8').send(Readable.from(xmlReport(record, rows)));
  };

  api.get(
    '/imports/:id/report',
    {
      schema: {
        tags: TAG,
        summary: 'Get the XML report of an import',
        description:
          'One LINE per row (ENTITY_ID, ENTITY_TYPE, RESULT_CODE 0 created, 1 updated, 2 error, RESULT_MESSAGE). 403 `report_file_not_ready` until the import ends.',
        params: ImportParams,
        response: { 200: { type: 'string', description: 'The report, text/xml.' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => report(reply, request.hrAuth.clientId, request.params.id, false),
  );

  api.get(
    '/imports/:id/errors_report',
    {
      schema: {
        tags: TAG,
        summary: 'Get the rejected rows of an import, as XML',
        description:
          'The report of the rows that failed only. 403 `source_errors_file_not_ready` until the import ends.',
        params: ImportParams,
        response: { 200: { type: 'string', description: 'The report, text/xml.' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => report(reply, request.hrAuth.clientId, request.params.id, true),
  );
}
