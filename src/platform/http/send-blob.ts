import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore, ByteRange } from '../blobs/store.js';
import { formatContentDisposition } from './content-disposition.js';

/** What a download sends: the blob, and how to name and type it. */
export interface BlobDownload {
  /** The blob's SHA-256 (lower-case hex). */
  sha256: string;
  /** Its size in bytes. */
  size: number;
  /** The sniffed content type; `application/octet-stream` when null or absent. */
  contentType?: string | null;
  /** The name offered to the user (already sanitized). */
  filename: string;
  /** `attachment` (default) or `inline`. */
  disposition?: 'attachment' | 'inline';
  /** More headers of the download (HEAD and GET alike), set with the others once the bytes can be read. */
  headers?: Record<string, string>;
}

/** A `Range` outside the content (416). The `Content-Range: bytes *\/size` header is already set on the reply. */
export class RangeNotSatisfiableError extends Error {
  override name = 'RangeNotSatisfiableError';
  readonly statusCode = 416;
  readonly code = 'range_not_satisfiable';
  constructor(readonly size: number) {
    super(`The requested range is not satisfiable: the content has ${size} bytes.`);
  }
}

/**
 * Reads a `Range` header: a single `bytes=a-b`, `bytes=a-` or `bytes=-n`.
 * Undefined means "send everything" (no header, another unit, several ranges,
 * or a malformed one: RFC 9110 lets a server ignore those); `'unsatisfiable'`
 * means 416.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const lastPos = last === '' ? Number.MAX_SAFE_INTEGER : Number(last);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(lastPos) || lastPos < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(lastPos, size - 1) };
}

/**
 * Sends a stored blob as a download: `Content-Type`, `Content-Length`,
 * `Content-Disposition` (with `filename*` for non-ASCII names),
 * `Accept-Ranges: bytes`, an `ETag` (the checksum), and the bytes streamed
 * from the store.
 *
 * - `Range: bytes=a-b` (one range) answers 206 with `Content-Range`; a range
 *   outside the content throws `RangeNotSatisfiableError` (416, with
 *   `Content-Range: bytes *\/size`) for the API's error handler to render.
 *   An `If-Range` that is not the ETag turns the range off (full 200).
 * - HEAD answers the same headers as GET, with no body (and no range).
 * - A full GET is verified against the checksum as it streams: a corrupted
 *   blob aborts the response short of its Content-Length.
 *
 * Nothing is set on the reply before the bytes can be read, so a failure to
 * open them reaches the error handler as a clean error response.
 */
export async function sendBlob(
  reply: FastifyReply,
  request: FastifyRequest,
  store: BlobStore,
  blob: BlobDownload,
): Promise<FastifyReply> {
  const etag = `"${blob.sha256}"`;
  const head = request.method === 'HEAD';
  let range: ByteRange | undefined;
  if (!head) {
    const rangeHeader = single(request.headers.range);
    const ifRange = single(request.headers['if-range']);
    const parsed = ifRange !== undefined && ifRange.trim() !== etag ? undefined : parseRange(rangeHeader, blob.size);
    if (parsed === 'unsatisfiable') {
      reply.header('Content-Range', `bytes */${blob.size}`);
      throw new RangeNotSatisfiableError(blob.size);
    }
    range = parsed;
  }
  const body = head ? Readable.from([], { objectMode: false }) : await store.read(blob.sha256, range);
  reply
    .header('Content-Type', blob.contentType || 'application/octet-stream')
    .header('Content-Disposition', formatContentDisposition(blob.filename, blob.disposition))
    .header('Accept-Ranges', 'bytes')
    .header('ETag', etag)
    .header('X-Content-Type-Options', 'nosniff');
  for (const [name, value] of Object.entries(blob.headers ?? {})) reply.header(name, value);
  if (range) {
    reply
      .status(206)
      .header('Content-Range', `bytes ${range.start}-${range.end}/${blob.size}`)
      .header('Content-Length', String(range.end - range.start + 1));
  } else {
    reply.status(200).header('Content-Length', String(blob.size));
  }
  return reply.send(body);
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
