import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { presentBulkStatus } from './present.js';
import { BulkOperationResult, BulkParams, bulkBody } from './schemas.js';
import type { BulkAction, BulkResource, BulkService } from './service.js';

/** One resource's bulk path: its items' schemas (the single endpoints') and its status schema. */
export interface BulkPath {
  resource: BulkResource;
  /** `/employees/bulk`. */
  path: string;
  tags: string[];
  /** `employees`, `users`, in summaries. */
  plural: string;
  /** The items of POST, PUT and PATCH. */
  items: Record<Exclude<BulkAction, 'upsert'>, TSchema>;
  /** The status schema (`bulkStatus`), added to the API as a module schema. */
  status: TSchema & { $id?: string };
}

const VERBS: { action: Exclude<BulkAction, 'upsert'>; method: 'post' | 'put' | 'patch'; summary: string }[] = [
  { action: 'create', method: 'post', summary: 'Create {plural} in bulk' },
  { action: 'replace', method: 'put', summary: 'Update {plural} in bulk (every attribute)' },
  { action: 'patch', method: 'patch', summary: 'Update some attributes of {plural} in bulk' },
];

/**
 * `POST|PUT|PATCH <path>` (answered at once with a `request_id`, applied in the background) and
 * `GET <path>/{request_id}` (the status), for one resource.
 */
export async function bulkRoutes(app: FastifyInstance, opts: { bulk: BulkService; target: BulkPath }): Promise<void> {
  const { bulk, target } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  for (const verb of VERBS) {
    api.route({
      method: verb.method.toUpperCase() as 'POST' | 'PUT' | 'PATCH',
      url: target.path,
      schema: {
        tags: target.tags,
        summary: verb.summary.replace('{plural}', target.plural),
        description:
          'Answers 200 with a `request_id` at once; the items are applied in the background, in order, each as the ' +
          `single endpoint would apply it. Poll \`GET ${target.path}/{request_id}\` for the results.`,
        body: bulkBody(target.items[verb.action], `1 to 1000 items.`),
        response: { 200: Type.Ref(BulkOperationResult), ...errorResponses(400, 401, 403, 413, 422) },
      },
      handler: async (request) => ({
        request_id: await bulk.submit(
          request.hrAuth.clientId,
          target.resource,
          verb.action,
          request.body as readonly unknown[],
        ),
      }),
    });
  }

  api.get(
    `${target.path}/:request_id`,
    {
      schema: {
        tags: target.tags,
        summary: `Get the status of a bulk call on ${target.plural}`,
        description: 'The counts, and each item settled so far with its result or the error it met.',
        params: BulkParams,
        response: { 200: Type.Ref(target.status), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      presentBulkStatus(await bulk.report(request.hrAuth.clientId, target.resource, request.params.request_id)),
  );
}
