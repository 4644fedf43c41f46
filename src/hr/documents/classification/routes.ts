import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { presentPredictionRun } from './present.js';
import { PredictionRunCreate, PredictionRunParams, PredictionRun as PredictionRunSchema } from './schemas.js';
import type { PredictionRunsService } from './service.js';

const tags = ['Document Manager: Document Classification'];

/** `/document_type_prediction_run` (reference §3c.8): schedule a run (202), then read its status and guesses. */
export async function predictionRunRoutes(
  app: FastifyInstance,
  opts: { predictions: PredictionRunsService },
): Promise<void> {
  const { predictions } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(PredictionRunSchema);

  api.post(
    '/document_type_prediction_run',
    {
      schema: {
        tags,
        summary: 'Schedule a document-type prediction',
        description:
          'Answers at once with the run, `SCHEDULED`; a durable job then reads the document’s text and guesses its type from the keywords of the types’ labels (docs/hr-api.md, "Document classification"). Poll `GET /document_type_prediction_run/{id}`.',
        body: PredictionRunCreate,
        response: { 202: full, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      const run = await predictions.create(request.hrAuth.clientId, request.body.document_id);
      return reply.status(202).send(presentPredictionRun(run));
    },
  );

  api.get(
    '/document_type_prediction_run/:id',
    {
      schema: {
        tags,
        summary: 'Get a document-type prediction run',
        params: PredictionRunParams,
        response: { 200: full, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => presentPredictionRun(await predictions.get(request.hrAuth.clientId, request.params.id)),
  );
}
