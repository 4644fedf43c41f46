import { crc32 } from 'node:zlib';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { type BlobStore, readBlob } from '../../platform/blobs/store.js';
import type { OutputFormat } from '../../platform/docgen/types.js';
import { NoBody } from '../../platform/http/no-body.js';
import { sendBlob } from '../../platform/http/send-blob.js';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { errorResponses } from '../errors.js';

/** The media type of each format document generation writes. */
export const CONTENT_TYPES: Record<OutputFormat, string> = {
  DOCX: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  PDF: 'application/pdf',
  ODT: 'application/vnd.oasis.opendocument.text',
  DOC: 'application/msword',
};

/** A document generation file to send: a template version's document, a generated document, a campaign's result. */
export interface DocgenFile {
  sha256: string;
  size: number;
  contentType: string;
  filename: string;
  /** `Page-Count`, when known. */
  pages?: number | null;
}

/**
 * Sends a document generation file with the reference's headers (§1.4): `Content-Disposition`, `Content-Type`,
 * `Crc-32` (of the whole file, in lower-case hex: the file is read once to compute it) and `Page-Count`.
 */
export async function sendDocgenFile(
  reply: FastifyReply,
  request: FastifyRequest,
  blobs: BlobStore,
  file: DocgenFile,
): Promise<FastifyReply> {
  const crc = crc32(await readBlob(blobs, file.sha256))
    .toString(16)
    .padStart(8, '0');
  return sendBlob(reply, request, blobs, {
    sha256: file.sha256,
    size: file.size,
    contentType: file.contentType,
    filename: file.filename,
    headers: {
      'Crc-32': crc,
      ...(file.pages !== undefined && file.pages !== null ? { 'Page-Count': String(file.pages) } : {}),
    },
  });
}

export const fileHeaders = Type.Object({
  'Content-Type': Type.String(),
  'Content-Length': Type.Integer(),
  'Content-Disposition': Type.String(),
  'Crc-32': Type.String({ description: 'The CRC-32 of the file, 8 lower-case hex digits.' }),
  'Page-Count': Type.Optional(Type.String({ description: 'The pages of the document, as laid out.' })),
});

/** Registers `HEAD` and `GET` of a file at `path` (HEAD first, so that it replaces Fastify's automatic one). */
export function fileRoutes(
  app: FastifyInstance,
  options: { path: string; tags: string[]; what: string; params: ReturnType<typeof Type.Object> },
  handler: RouteHandlerMethod,
): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.head(
    options.path,
    {
      config: { swagger: { exposeHeadRoute: true } },
      schema: {
        tags: options.tags,
        summary: `File information of ${options.what}`,
        description: 'The headers of the download, without the body.',
        params: options.params,
        response: { 200: { ...NoBody, headers: fileHeaders }, ...errorResponses(401, 403, 404) },
      },
    },
    handler,
  );
  api.get(
    options.path,
    {
      schema: {
        tags: options.tags,
        summary: `Download ${options.what}`,
        description: 'The file, with its `Crc-32` and, when known, its `Page-Count`. One `Range` answers 206.',
        params: options.params,
        response: {
          200: { type: 'string', format: 'binary', description: 'The file.', headers: fileHeaders },
          206: { type: 'string', format: 'binary', description: 'The requested range.' },
          ...errorResponses(401, 403, 404, 416),
        },
      },
    },
    handler,
  );
}
