/**
 * What the HTTP parser and the router refuse before any route runs: a request Node's parser refuses, answered on
 * its socket, and a URL the router refuses, routed again so that the API owning its path renders the error.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import type { Metrics } from '../metrics.js';

export const MAX_PARAM_LENGTH = 1000;

/** Set on a raw request the router refused: the error its API's error handler must render. */
export const FRAMEWORK_ERROR = Symbol('atrium.frameworkError');
export type MarkedRequest = { url?: string | undefined; [FRAMEWORK_ERROR]?: Error };

/** What the router refuses before any route runs, as a platform error each API renders its own way. */
function platformError(error: FastifyError): Error {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return new InvalidRequestError('The URL is malformed: it holds an invalid percent-encoded sequence.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new NotFoundError(
        'path',
        '',
        `No resource at this URI: a path segment is longer than ${MAX_PARAM_LENGTH} characters.`,
      );
    default:
      return error;
  }
}

/**
 * The path of a refused URL with each segment the router cannot take
 * (undecodable, or too long for a parameter) replaced by `-`, and no query:
 * it routes into the same API, whose hooks and error handler then answer.
 */
function routablePath(url: string): string {
  const path = url.split('?', 1)[0] as string;
  return path
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment).length > MAX_PARAM_LENGTH ? '-' : segment;
      } catch {
        return '-';
      }
    })
    .join('/');
}

/** Node's clientError codes, as the status and message of the answer. */
function clientErrorStatus(code: string | undefined): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return [431, 'The request headers, the URL included, are larger than this server accepts.'];
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'The request did not arrive in time.'];
  return [400, 'The request is not valid HTTP: its request line or a header is malformed.'];
}

/**
 * A request the HTTP parser refuses never reaches a route: answer it here, in the format of the API its
 * path names (`clientErrorBody`, ServerOptions), with a request id, then close the connection (as Node does).
 */
export function clientErrorHandler(
  clientErrorBody: ((path: string, status: number, message: string) => object) | undefined,
  metrics: Metrics | undefined,
) {
  return (error: Error, socket: Duplex): void => {
    const err = error as unknown as NodeJS.ErrnoException & { rawPacket?: Buffer };
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, message] = clientErrorStatus(err.code);
    const raw = Buffer.isBuffer(err.rawPacket) ? err.rawPacket.toString('latin1') : '';
    const [, method = '', path = ''] = /^([A-Z]+) ([^ \r\n]+)/.exec(raw) ?? [];
    const body = JSON.stringify(
      clientErrorBody?.(path, status, message) ?? {
        statusCode: status,
        error: STATUS_CODES[status],
        message,
      },
    );
    metrics?.refusedRequest(status);
    if (socket.writable) {
      // A HEAD answer has no body (its length is still told).
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nX-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${method === 'HEAD' ? '' : body}`,
      );
    }
    socket.destroy(err);
  };
}

/**
 * A URL the router refuses (bad percent-encoding, an over-long parameter) is routed again, made routable,
 * with the error kept on the request: the onRequest hook (hooks.ts) throws it, so the API that owns the path
 * renders it (its error body, X-Request-Id), and the platform knows nothing of either API.
 */
export function frameworkErrorsHandler(routing: (req: IncomingMessage, res: ServerResponse) => void) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const raw = request.raw as unknown as MarkedRequest;
    if (raw[FRAMEWORK_ERROR] === undefined) {
      const original = raw.url ?? '/';
      raw[FRAMEWORK_ERROR] = platformError(error);
      raw.url = routablePath(original);
      try {
        routing(request.raw, reply.raw);
      } finally {
        // The hooks run synchronously up to the throw; the error handler and the access log see the real URL.
        raw.url = original;
      }
      return;
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    reply
      .header('X-Request-Id', request.id)
      .status(status)
      .send({ statusCode: status, error: STATUS_CODES[status], message: error.message });
  };
}
