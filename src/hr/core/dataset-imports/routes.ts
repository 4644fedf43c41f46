import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../../platform/blobs/store.js';
import { csvText } from '../../../platform/csv-write.js';
import { sendBlob } from '../../../platform/http/send-blob.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { getRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentDatasetImport } from './present.js';
import {
  DatasetImport,
  DatasetImportCreate,
  DatasetImportList,
  DatasetImportListQuery,
  DatasetImportParams,
} from './schemas.js';
import type { DatasetImportsService } from './service.js';

const TAG = ['Datasets'];

/** `/dataset_imports` (reference §5.2): a CSV that replaces a dataset's values, in the background. */
export async function datasetImportRoutes(
  app: FastifyInstance,
  opts: { datasetImports: DatasetImportsService; paginator: Paginator; blobs: BlobStore },
): Promise<void> {
  const { datasetImports, paginator, blobs } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(DatasetImport);

  api.post(
    '/dataset_imports',
    {
      schema: {
        tags: TAG,
        summary: 'Import a CSV into a dataset',
        description:
          'Replaces every value of the dataset with those of the file, all or nothing, in the background: poll the import until `status` is `finished`. The file is an upload (POST /uploads); its layout is in docs/hr-api.md, "Dataset imports".',
        body: DatasetImportCreate,
        response: { 201: full, ...errorResponses(400, 401, 403, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(presentDatasetImport(await datasetImports.create(request.hrAuth.clientId, request.body))),
  );

  listRoute(
    app,
    paginator,
    {
      path: '/dataset_imports',
      tags: TAG,
      summary: 'List dataset imports',
      description: 'In the order they were made, in cursor pages.',
      querystring: DatasetImportListQuery,
      item: full,
      list: DatasetImportList,
      errors: [403],
    },
    {
      page: (clientId, query, request) =>
        datasetImports.list(clientId, query.dataset_id === undefined ? {} : { datasetId: query.dataset_id }, request),
      present: presentDatasetImport,
    },
  );

  getRoute(
    app,
    {
      path: '/dataset_imports/:id',
      tags: TAG,
      summary: 'Get a dataset import',
      params: DatasetImportParams,
      item: full,
    },
    (clientId, { id }) => datasetImports.get(clientId, id),
    presentDatasetImport,
  );

  api.get(
    '/dataset_imports/:id/source',
    {
      schema: {
        tags: TAG,
        summary: 'Download the CSV of a dataset import',
        description: 'The file as it was uploaded, byte for byte.',
        params: DatasetImportParams,
        response: {
          200: { type: 'string', format: 'binary', description: 'The CSV.' },
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const found = await datasetImports.get(request.hrAuth.clientId, request.params.id);
      return sendBlob(reply, request, blobs, {
        sha256: found.sha256,
        size: found.size,
        contentType: 'text/csv; charset=utf-8',
        filename: found.filename,
      });
    },
  );

  api.get(
    '/dataset_imports/:id/report',
    {
      schema: {
        tags: TAG,
        summary: 'Download the report of a dataset import',
        description:
          'CSV (`type,line,field,code,message`): its errors and warnings, at most 1000 (the import’s `stats` count them all). 403 `report_file_not_ready` until the import has finished.',
        params: DatasetImportParams,
        response: {
          200: { type: 'string', description: 'The report, text/csv.' },
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const entries = await datasetImports.report(request.hrAuth.clientId, request.params.id);
      const csv = csvText(
        entries.map((e) => [e.type, e.line === null ? '' : String(e.line), e.field, e.code, e.message]),
        { header: true, columns: ['type', 'line', 'field', 'code', 'message'] },
      );
      return reply.type('text/csv; charset=utf-8').send(csv);
    },
  );
}
