import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { UploadTextoccurrencesFull, UploadTextoccurrencesSearch } from './schemas.js';
import type { UploadsService } from './service.js';

/**
 * `POST /uploads/{id}/text_occurrences` (reference §3c.1): where a keyword appears in a PDF upload. A JSON call, so
 * registered apart from the upload routes, whose context takes raw bodies.
 */
export async function uploadTextRoutes(app: FastifyInstance, opts: { uploads: UploadsService }): Promise<void> {
  const { uploads } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.post(
    '/uploads/:id/text_occurrences',
    {
      schema: {
        tags: ['Uploads'],
        summary: 'Locate a keyword in an uploaded PDF',
        description:
          'Every place the keyword appears in the PDF’s text, case-insensitively and within one run of text, page by page (at most 1,000): PDF points from the bottom-left corner of the page. A run’s letters are taken as equally wide, so `left` and `width` are close, not exact. 422 for an empty keyword, a file that is not a PDF (`unsupported_file_type`), a damaged one (`unreadable_file`) or one past the limits (`rendering_limits`); 404 for an unknown or expired upload.',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        body: UploadTextoccurrencesSearch,
        response: { 200: Type.Array(Type.Ref(UploadTextoccurrencesFull)), ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => uploads.textOccurrences(request.hrAuth.clientId, request.params.id, request.body.keyword),
  );
}
