import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { NoBody } from '../../../platform/http/no-body.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { getRoute, upsertRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentDataset, presentDatasetValue } from './present.js';
import {
  Dataset,
  DatasetList,
  DatasetListQuery,
  DatasetParams,
  DatasetPut,
  DatasetValue,
  DatasetValueList,
  DatasetValueListQuery,
  DatasetValueParams,
  DatasetValuePut,
} from './schemas.js';
import type { DatasetsService } from './service.js';

const TAG = ['Datasets'];

/** `/datasets` (reference §5.2); their values are datasetValueRoutes'. */
export async function datasetRoutes(
  app: FastifyInstance,
  opts: { datasets: DatasetsService; paginator: Paginator },
): Promise<void> {
  const { datasets, paginator } = opts;
  const _api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(Dataset);

  listRoute(
    app,
    paginator,
    {
      path: '/datasets',
      tags: TAG,
      summary: 'List datasets',
      description: 'Sorted by `sort` (default `+created_at`), in cursor pages.',
      querystring: DatasetListQuery,
      item: full,
      list: DatasetList,
      errors: [403],
    },
    {
      page: (clientId, query, request) => datasets.list(clientId, query, request),
      present: presentDataset,
    },
  );

  getRoute(
    app,
    { path: '/datasets/:id', tags: TAG, summary: 'Get a dataset', params: DatasetParams, item: full },
    (clientId, { id }) => datasets.get(clientId, id),
    presentDataset,
  );

  upsertRoute(
    app,
    {
      path: '/datasets/:id',
      tags: TAG,
      summary: 'Create or update a dataset',
      description:
        'An upsert at the id: 201 when created, 200 when updated. Dimensions are the levels, root first; existing ones cannot be removed, moved or renamed.',
      params: DatasetParams,
      item: full,
      body: DatasetPut,
      key: 'dataset',
    },
    (clientId, { id }, body) => datasets.put(clientId, id, body),
    presentDataset,
  );
}

/** `/datasets/{id}/values`: a dataset's values (reference §5.2). */
export async function datasetValueRoutes(
  app: FastifyInstance,
  opts: { datasets: DatasetsService; paginator: Paginator },
): Promise<void> {
  const { datasets, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const value = Type.Ref(DatasetValue);

  listRoute(
    app,
    paginator,
    {
      path: '/datasets/:id/values',
      params: DatasetParams,
      tags: TAG,
      summary: 'List the values of a dataset',
      description:
        'Sorted by name (`sort`: `+name` or `-name`), in cursor pages of up to 1000. `dimension` keeps one level; `parent_code` the values right under one value (its dotted id).',
      querystring: DatasetValueListQuery,
      item: value,
      list: DatasetValueList,
      errors: [403, 404],
      qualifier: (request) => (request.params as { id: string }).id,
    },
    {
      page: async (clientId, query, request, http) => {
        const { dataset, page } = await datasets.listValues(
          clientId,
          (http.params as { id: string }).id,
          query,
          request,
        );
        const dimensionIds = dataset.dimensions.map((d) => d.id);
        return { ...page, items: page.items.map((v) => presentDatasetValue(v, dimensionIds)) };
      },
      present: (item) => item,
    },
  );

  // Declared before GET so it replaces Fastify's automatic HEAD route.
  api.head(
    '/datasets/:id/values/:value_id',
    {
      config: { swagger: { exposeHeadRoute: true } },
      schema: {
        tags: TAG,
        summary: 'Check that a dataset value exists',
        params: DatasetValueParams,
        response: { 200: NoBody, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await datasets.getValue(request.hrAuth.clientId, request.params.id, request.params.value_id);
      return reply.status(200).send();
    },
  );

  api.get(
    '/datasets/:id/values/:value_id',
    {
      schema: {
        tags: TAG,
        summary: 'Get a dataset value',
        params: DatasetValueParams,
        response: { 200: value, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const found = await datasets.getValue(request.hrAuth.clientId, request.params.id, request.params.value_id);
      return presentDatasetValue(
        found.value,
        found.dataset.dimensions.map((d) => d.id),
      );
    },
  );

  api.put(
    '/datasets/:id/values/:value_id',
    {
      schema: {
        tags: TAG,
        summary: 'Create or update a dataset value',
        description:
          'The value id is its dotted path: its parent must exist, and it has at most as many segments as the dataset has dimensions. 201 when created, 200 when renamed.',
        params: DatasetValueParams,
        body: DatasetValuePut,
        response: { 200: value, 201: value, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      const { id, value_id } = request.params;
      const result = await datasets.putValue(request.hrAuth.clientId, id, value_id, request.body);
      const body = presentDatasetValue(
        result.value,
        result.dataset.dimensions.map((d) => d.id),
      );
      return reply.status(result.created ? 201 : 200).send(body);
    },
  );

  api.delete(
    '/datasets/:id/values/:value_id',
    {
      schema: {
        tags: TAG,
        summary: 'Delete a dataset value',
        description: 'Refused (422 `has_children`) while other values are under it.',
        params: DatasetValueParams,
        response: { 204: NoBody, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await datasets.deleteValue(request.hrAuth.clientId, request.params.id, request.params.value_id);
      return reply.status(204).send();
    },
  );
}
