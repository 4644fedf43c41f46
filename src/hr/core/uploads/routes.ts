import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BlobTooLargeError } from '../../../platform/blobs/store.js';
import { DomainError, FieldValidationError } from '../../../platform/errors.js';
import { parseContentDisposition } from '../../../platform/http/content-disposition.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses, HrError } from '../../errors.js';
import { presentUpload } from './present.js';
import { DocumentBodyDoc, DocumentFileId, NoQuery, UploadBodyDoc, UploadDocument } from './schemas.js';
import type { Upload, UploadsService } from './service.js';

const FILE_FIELD = 'file';
const TOO_MANY_PARTS = new Set(['FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT']);
const INTERRUPTED = new Set(['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE', 'FST_MP_PREMATURE_CLOSE']);
/** What the multipart parser (busboy) says of a body it cannot read; its errors carry no code. */
const MALFORMED_MULTIPART = /multipart|part header|boundary/i;

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Turns what can go wrong while receiving a file into the HR API's errors. */
function translate(error: unknown, request: FastifyRequest, limit: number): unknown {
  const code = errorCode(error);
  if (error instanceof BlobTooLargeError || code === 'FST_REQ_FILE_TOO_LARGE') {
    return new HrError(413, 'payload_too_large', `The file is larger than the upload limit of ${limit} bytes.`);
  }
  if (code !== undefined && TOO_MANY_PARTS.has(code)) {
    return new HrError(413, 'payload_too_large', 'The multipart body has too many parts.');
  }
  if (error instanceof HrError || error instanceof DomainError) return error;
  if ((request.raw.destroyed && !request.raw.complete) || (code !== undefined && INTERRUPTED.has(code))) {
    return new HrError(400, 'invalid_request', 'The upload was interrupted before the whole file arrived.');
  }
  if (
    request.isMultipart() &&
    code === undefined &&
    error instanceof Error &&
    MALFORMED_MULTIPART.test(error.message)
  ) {
    return new HrError(400, 'invalid_request', 'The multipart body is malformed.');
  }
  return error;
}

/** Reads the one file of the request: multipart field `file`, or the raw body named by Content-Disposition. */
async function receive(request: FastifyRequest, uploads: UploadsService): Promise<Upload> {
  const clientId = request.hrAuth.clientId;
  const limit = uploads.limitBytes;
  try {
    if (request.isMultipart()) return await receiveMultipart(request, uploads);
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) throw new BlobTooLargeError(limit);
    const disposition = parseContentDisposition(single(request.headers['content-disposition']));
    if (disposition?.filename === undefined) {
      throw new HrError(
        400,
        'invalid_request',
        'Send the file as the multipart field "file", or as the raw body with a header Content-Disposition: attachment; filename="name.ext".',
      );
    }
    // The scoped '*' parser hands the payload stream through unread (a preParsing hook may have replaced it).
    const body = request.body instanceof Readable ? request.body : request.raw;
    return await uploads.create(clientId, disposition.filename, body);
  } catch (error) {
    throw translate(error, request, limit);
  }
}

async function receiveMultipart(request: FastifyRequest, uploads: UploadsService): Promise<Upload> {
  let stored: Upload | undefined;
  let iterating = true;
  const parts = request.parts();
  while (iterating) {
    let next: Awaited<ReturnType<typeof parts.next>>;
    try {
      next = await parts.next();
    } catch (error) {
      const code = errorCode(error);
      if (typeof (error as { statusCode?: unknown }).statusCode === 'number' || (code && INTERRUPTED.has(code))) {
        throw error;
      }
      throw new HrError(400, 'invalid_request', 'The multipart body is malformed.');
    }
    if (next.done) {
      iterating = false;
      continue;
    }
    const part = next.value;
    if (part.type !== 'file') continue;
    if (part.fieldname === FILE_FIELD && stored === undefined) {
      stored = await uploads.create(request.hrAuth.clientId, part.filename, part.file);
    } else {
      part.file.resume();
    }
  }
  if (!stored) {
    throw new FieldValidationError([
      { field: FILE_FIELD, code: 'required', message: 'Send the file in the multipart field "file".' },
    ]);
  }
  return stored;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
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
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: {
      // One byte over the limit lets the blob store see the excess and refuse it.
      fileSize: uploads.limitBytes + 1,
      files: 10,
      fields: 50,
      fieldSize: 64 * 1024,
      parts: 100,
      headerPairs: 200,
    },
  });
  // An answer given before the whole body was read (413, 400, …) closes the connection: the client may still be sending.
  app.addHook('onSend', async (request, reply) => {
    if (!request.raw.complete) reply.header('Connection', 'close');
  });

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
