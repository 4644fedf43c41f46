import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../../platform/blobs/store.js';
import { FieldValidationError } from '../../../platform/errors.js';
import { publicOrigin } from '../../../platform/http/public-origin.js';
import { sendBlob } from '../../../platform/http/send-blob.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { receiveForm, uploadContext } from '../../core/uploads/receive.js';
import { errorResponses } from '../../errors.js';
import { presentKbArticleImage } from './present.js';
import {
  ArticleDocumentParams,
  ArticleResourceParams,
  KbArticleImageBodyDoc,
  KbArticleImage as KbArticleImageSchema,
} from './schemas.js';
import type { KbMediaService } from './service.js';

const tags = ['People Assist: Categories / Articles'];
/** The client API's root as this request reached the server: an image's `url` points back at it. */
const API_ROOT = '/api/v2/client';

const fileHeaders = Type.Object({
  'Content-Type': Type.String({ description: 'The file’s type, as its bytes say.' }),
  'Content-Length': Type.String(),
  'Content-Disposition': Type.String({ description: 'The file’s name.' }),
  ETag: Type.String({ description: 'The file’s SHA-256, quoted.' }),
});
const download = (what: string) => ({
  200: { type: 'string', format: 'binary', description: what, headers: fileHeaders },
  206: { type: 'string', format: 'binary', description: `The requested range of ${what.toLowerCase()}` },
  ...errorResponses(401, 403, 404, 416),
});

/**
 * The knowledge base's media (reference §3e.3): `POST /kb_articles/images` (multipart, streamed into memory up to
 * the image limit), `GET /article_resources/{id}` and `GET /article_documents/{id}`. An upload context of its own.
 */
export async function kbMediaRoutes(
  app: FastifyInstance,
  opts: { kbMedia: KbMediaService; blobs: BlobStore },
): Promise<void> {
  const { kbMedia, blobs } = opts;
  await uploadContext(app, kbMedia.imageLimitBytes);
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/kb_articles/images',
    {
      config: {
        swaggerTransform: ({ schema, url }: { schema: object; url: string }) => ({
          schema: { ...schema, consumes: ['multipart/form-data'], body: KbArticleImageBodyDoc },
          url,
        }),
      },
      schema: {
        tags,
        summary: 'Upload an image for an article body',
        description:
          'Multipart field `image`: a PNG, JPEG, GIF or WebP image (judged by its bytes, which must parse), at most 20 MB (or `ATRIUM_UPLOAD_LIMIT` when lower). Answers 200 with the `url` to embed, served by `GET /article_resources/{id}`.',
        response: { 200: Type.Ref(KbArticleImageSchema), ...errorResponses(400, 401, 403, 413, 415, 422) },
      },
    },
    async (request) => {
      const form = await receiveForm(request, { fileField: 'image', limitBytes: kbMedia.imageLimitBytes });
      if (!form.file) {
        throw new FieldValidationError([
          { field: 'image', code: 'required', message: 'Send the image in the multipart field "image".' },
        ]);
      }
      const resource = await kbMedia.uploadImage(request.hrAuth.clientId, form.file.filename, form.file.bytes);
      return presentKbArticleImage(resource, `${publicOrigin(request)}${API_ROOT}`);
    },
  );

  api.get(
    '/article_resources/:id',
    {
      schema: {
        tags,
        summary: 'Download a resource embedded in an article',
        description: 'An image uploaded with `POST /kb_articles/images`, with its type (`inline`).',
        params: ArticleResourceParams,
        response: download('The image.'),
      },
    },
    async (request, reply) => {
      const r = await kbMedia.resource(request.hrAuth.clientId, request.params.id);
      return sendBlob(reply, request, blobs, {
        sha256: r.sha256,
        size: r.size,
        contentType: r.contentType,
        filename: r.filename,
        disposition: 'inline',
      });
    },
  );

  api.get(
    '/article_documents/:id',
    {
      schema: {
        tags,
        summary: 'Download a knowledge-base media file',
        description:
          'A file of the "Media" page, by its slug. Media files are filed by `atrium seed` (docs/hr-api.md, "Images and media files").',
        params: ArticleDocumentParams,
        response: download('The media file.'),
      },
    },
    async (request, reply) => {
      const d = await kbMedia.document(request.hrAuth.clientId, request.params.id);
      return sendBlob(reply, request, blobs, {
        sha256: d.sha256,
        size: d.size,
        contentType: d.contentType,
        filename: d.filename,
      });
    },
  );
}
