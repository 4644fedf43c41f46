import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { presentUpload } from './present.js';
import { receiveFile, uploadContext } from './receive.js';
import { DocumentBodyDoc, DocumentFileId, NoQuery, UploadBodyDoc, UploadDocument } from './schemas.js';
import type { UploadRecord, UploadsService } from './service.js';

/** Reads the one file of the request into a new upload. */
function receive(request: FastifyRequest, uploads: UploadsService): Promise<UploadRecord> {
  return receiveFile(request, { limitBytes: uploads.limitBytes }, (filename, source) =>
    uploads.create(request.hrAuth.clientId, filename, source),
  );
}

const TAG_UPLOADS = ['Uploads'];
const TAG_DOCUMENTS = ['Documents'];

/**
 * `POST /uploads` and `POST /document`: temporary files (reference §3c.1,
 * step 1). Their own encapsulated context: the body is never parsed by the
 * API's JSON and form parsers; multipart bodies go to @fastify/multipart
 * (streamed), anything else is handed through as a stream.
 */
export async function uploadRoutes(app: FastifyInstance, opts: { uploads: UploadsService }): Promise<void> {
  const { uploads } = opts;
  await uploadContext(app, uploads.limitBytes);

  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const documented = (body: typeof UploadBodyDoc) => ({
    swaggerTransform: ({ schema, url }: { schema: object; url: string }) => ({
      schema: { ...schema, body: body },
      url,
    }),
  });

  api.post(
    '/uploads',
    {
      config: documented(UploadBodyDoc),
      schema: {
        tags: TAG_UPLOADS,
        summary: 'Upload a temporary file',
        description:
          'Multipart field `file`, or the raw body with `Content-Disposition: attachment; filename="…"`. The content type is detected from the bytes. The file is deleted after `retention_period` seconds unless a document or another object uses it first.',
        querystring: NoQuery,
        response: { 201: UploadDocument, ...errorResponses(400, 401, 403, 413, 422) },
      },
    },
    async (request, reply) => {
      const upload = await receive(request, uploads);
      return reply.status(201).send(presentUpload(upload, uploads.ttlSeconds));
    },
  );

  api.post(
    '/document',
    {
      config: documented(DocumentBodyDoc),
      schema: {
        tags: TAG_DOCUMENTS,
        summary: 'Upload a file for a document',
        description:
          'Multipart field `file`. Answers the `{filename, file_id}` that `uploaded_file` takes when creating an employee or company document. The file is temporary like any upload.',
        querystring: NoQuery,
        response: { 201: DocumentFileId, ...errorResponses(400, 401, 403, 413, 422) },
      },
    },
    async (request, reply) => {
      const upload = await receive(request, uploads);
      const body: DocumentFileId = { filename: upload.filename, file_id: upload.id };
      return reply.status(201).send(body);
    },
  );
}
