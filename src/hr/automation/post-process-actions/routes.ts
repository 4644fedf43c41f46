import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { presentPostProcessAction } from './present.js';
import { PostProcessAction, PostProcessActionCreate, PostProcessActionParams } from './schemas.js';
import type { PostProcessActionsService } from './service.js';

/** `POST /processes/{id}/post_process_action` (reference §3f.1). */
export async function postProcessActionRoutes(
  app: FastifyInstance,
  opts: { postActions: PostProcessActionsService },
): Promise<void> {
  const { postActions } = opts;
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/processes/:id/post_process_action',
    {
      schema: {
        tags: ['Processes'],
        summary: 'Add a post-process action',
        description:
          'Inboxes that receive the process’s documents (the completed files of its tasks) as inbox items when its last task is completed: `user_inboxes` (HR users; replaces the previous user_inboxes action) or `shared_inboxes` (added). 422 `process_already_done` once the process has ended.',
        params: PostProcessActionParams,
        body: PostProcessActionCreate,
        response: { 201: Type.Ref(PostProcessAction), ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          presentPostProcessAction(await postActions.create(request.hrAuth.clientId, request.params.id, request.body)),
        ),
  );
}
