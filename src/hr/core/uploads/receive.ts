import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BlobTooLargeError } from '../../../platform/blobs/store.js';
import { DomainError, FieldValidationError } from '../../../platform/errors.js';
import { parseContentDisposition } from '../../../platform/http/content-disposition.js';
import { HrError } from '../../errors.js';

/**
 * Receiving the one file of an upload request (`POST /uploads`, `/document`, `/document/upload*`, `/file/upload/*`):
 * the multipart field `file`, or the raw body named by `Content-Disposition`, streamed to whatever stores it (never
 * buffered), with every way it can go wrong turned into the HR API's errors.
 */

const FILE_FIELD = 'file';
const TOO_MANY_PARTS = new Set(['FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT']);
const INTERRUPTED = new Set(['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE', 'FST_MP_PREMATURE_CLOSE']);
/** What the multipart parser (busboy) says of a body it cannot read; its errors carry no code. */
const MALFORMED_MULTIPART = /multipart|part header|boundary/i;

/** Stores the received bytes (the name as the client gave it, unsanitized); rejects to refuse them. */
export type StoreFile<T> = (filename: string | undefined, source: Readable) => Promise<T>;

export interface ReceiveOptions {
  /** Largest file, in bytes. */
  limitBytes: number;
  /** A name given apart from the body (the `filename` query parameter): it wins over the body's own. */
  filename?: string | undefined;
}

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
export async function receiveFile<T>(
  request: FastifyRequest,
  options: ReceiveOptions,
  store: StoreFile<T>,
): Promise<T> {
  const limit = options.limitBytes;
  try {
    if (request.isMultipart()) return await receiveMultipart(request, options, store);
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) throw new BlobTooLargeError(limit);
    const disposition = parseContentDisposition(single(request.headers['content-disposition']));
    const filename = options.filename ?? disposition?.filename;
    if (filename === undefined) {
      throw new HrError(
        400,
        'invalid_request',
        'Send the file as the multipart field "file", or as the raw body with a header Content-Disposition: attachment; filename="name.ext".',
      );
    }
    // The scoped '*' parser hands the payload stream through unread (a preParsing hook may have replaced it).
    const body = request.body instanceof Readable ? request.body : request.raw;
    return await store(filename, body);
  } catch (error) {
    throw translate(error, request, limit);
  }
}

async function receiveMultipart<T>(request: FastifyRequest, options: ReceiveOptions, store: StoreFile<T>): Promise<T> {
  let stored: { value: T } | undefined;
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
      stored = { value: await store(options.filename ?? part.filename, part.file) };
    } else {
      part.file.resume();
    }
  }
  if (!stored) {
    throw new FieldValidationError([
      { field: FILE_FIELD, code: 'required', message: 'Send the file in the multipart field "file".' },
    ]);
  }
  return stored.value;
}

/** A multipart form read whole: its one file (when sent) and its text fields. */
export interface ReceivedForm {
  file?: { filename: string | undefined; bytes: Buffer };
  fields: Record<string, string>;
}

/**
 * Reads a multipart form whose file (the field `fileField`) is small enough to hold in memory (a document
 * generation template): at most `limitBytes` (413 past it), with its text fields. Any other file part is skipped.
 */
export async function receiveForm(
  request: FastifyRequest,
  options: { fileField: string; limitBytes: number },
): Promise<ReceivedForm> {
  if (!request.isMultipart()) {
    throw new HrError(415, 'unsupported_media_type', 'Send a multipart/form-data body.');
  }
  const form: ReceivedForm = { fields: {} };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') form.fields[part.fieldname] = part.value;
      } else if (part.fieldname === options.fileField && form.file === undefined) {
        form.file = { filename: part.filename, bytes: await part.toBuffer() };
      } else {
        part.file.resume();
      }
    }
  } catch (error) {
    throw translate(error, request, options.limitBytes);
  }
  return form;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Makes `app` (an encapsulated context of its own) an upload context: the body is never parsed by the API's JSON
 * and form parsers; multipart bodies go to @fastify/multipart (streamed), anything else is handed through as a
 * stream; an answer given before the whole body was read closes the connection.
 */
export async function uploadContext(app: FastifyInstance, limitBytes: number): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: {
      // One byte over the limit lets the blob store see the excess and refuse it.
      fileSize: limitBytes + 1,
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
}
