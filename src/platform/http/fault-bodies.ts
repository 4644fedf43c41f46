import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** How a fault sends the answer's body (docs/admin.md, "Faults"): set by the onRequest hook, done by onSend. */
export type BodyShape =
  | { kind: 'slow'; bytesPerSecond: number }
  | { kind: 'chunked'; chunks: number; totalMs: number }
  | { kind: 'malformed'; form: MalformedForm; ruleId: string };

export type MalformedForm = 'empty' | 'invalid_json' | 'truncated' | 'close_after_headers';

/**
 * The answer, shaped. A body the API built in memory (its JSON answers) can be trickled, chunked or cut; a streamed
 * one (a file download) is sent as is, except for the forms that need none of its bytes (`empty`, `invalid_json`,
 * `close_after_headers`).
 */
export function shapeBody(shape: BodyShape, reply: FastifyReply, payload: unknown): unknown {
  const inMemory = typeof payload === 'string' || Buffer.isBuffer(payload);
  const bytes = inMemory ? Buffer.from(payload) : undefined;
  switch (shape.kind) {
    case 'slow':
      if (!bytes) return payload;
      reply.header('content-length', String(bytes.length));
      return trickle(bytes, shape.bytesPerSecond);
    case 'chunked':
      if (!bytes || bytes.length === 0) return payload;
      reply.header('content-length', String(bytes.length));
      return inChunks(bytes, shape.chunks, shape.totalMs);
    case 'malformed':
      return malformed(shape, reply, payload, bytes);
  }
}

function malformed(
  shape: Extract<BodyShape, { kind: 'malformed' }>,
  reply: FastifyReply,
  payload: unknown,
  bytes: Buffer | undefined,
): unknown {
  drain(payload);
  switch (shape.form) {
    case 'empty':
      // A 200 with its Content-Type, and nothing in it.
      reply.code(200);
      reply.header('content-length', '0');
      return '';
    case 'invalid_json':
      reply.removeHeader('content-length');
      return `<html><body>Atrium fault ${shape.ruleId}: this answer is not JSON.</body></html>`;
    case 'truncated': {
      // The whole body's Content-Length, half of its bytes, then the connection closes.
      if (!bytes) return closing(reply, Buffer.alloc(0), undefined);
      return closing(reply, bytes.subarray(0, Math.floor(bytes.length / 2)), bytes.length);
    }
    case 'close_after_headers':
      return closing(reply, Buffer.alloc(0), bytes?.length);
  }
}

/** A payload not sent: a stream is drained, so its source is released. */
function drain(payload: unknown): void {
  if (payload instanceof Readable) {
    payload.on('error', () => {});
    payload.resume();
  }
}

/**
 * Sends `bytes` as the body, under a Content-Length announcing `announced` (more), then closes the connection: the
 * client reads a body that ends early. As a stream, so that the server does not correct the length.
 */
function closing(reply: FastifyReply, bytes: Buffer, announced: number | undefined): Readable {
  if (announced !== undefined) reply.header('content-length', String(Math.max(announced, bytes.length + 1)));
  else reply.header('content-length', String(bytes.length + 1));
  reply.header('connection', 'close');
  return Readable.from(bytes.length > 0 ? [bytes] : []);
}

/** The bytes, a tenth of a second's worth at a time. */
function trickle(bytes: Buffer, bytesPerSecond: number): Readable {
  const step = Math.max(1, Math.floor(bytesPerSecond / 10));
  let at = 0;
  return new Readable({
    read() {
      if (at >= bytes.length) {
        this.push(null);
        return;
      }
      const chunk = bytes.subarray(at, at + step);
      at += chunk.length;
      setTimeout(() => this.push(chunk), at === chunk.length ? 0 : 100);
    },
  });
}

/**
 * The bytes in `chunks` pieces of about the same size (fewer if the body is shorter), the first at once and the
 * next ones evenly spread, the last `totalMs` after the first.
 */
function inChunks(bytes: Buffer, chunks: number, totalMs: number): Readable {
  const n = Math.min(chunks, bytes.length);
  const gap = n > 1 ? totalMs / (n - 1) : 0;
  let i = 0;
  return new Readable({
    read() {
      if (i >= n) {
        this.push(null);
        return;
      }
      const chunk = bytes.subarray(Math.floor((i * bytes.length) / n), Math.floor(((i + 1) * bytes.length) / n));
      const wait = i === 0 ? 0 : gap;
      i++;
      setTimeout(() => this.push(chunk), wait);
    },
  });
}
