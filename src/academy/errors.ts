import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, FieldValidationError, ForbiddenError, NotFoundError } from '../platform/errors.js';

/**
 * The Academy API's error body: `{status, message}`, the shape of its delete
 * response. Real clients read status codes, not error keys (reference §4).
 */
export const AcademyErrorBody = Type.Object(
  { status: Type.Integer(), message: Type.String() },
  { $id: 'AcademyError', title: 'AcademyError' },
);

export class AcademyError extends Error {
  override name = 'AcademyError';
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function statusOf(error: Error): number {
  if (error instanceof AcademyError) return error.statusCode;
  if (error instanceof NotFoundError) return 404;
  if (error instanceof ForbiddenError) return 403;
  if (error instanceof FieldValidationError || error instanceof DomainError) return 400;
  const fe = error as FastifyError;
  if (fe.validation) return fe.validationContext === 'params' ? 404 : 400;
  return typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500 ? fe.statusCode : 500;
}

export function sendAcademyError(error: Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const status = statusOf(error);
  if (status >= 500) request.log.error({ err: error }, 'unexpected error');
  const message = status >= 500 ? 'An unexpected error occurred; it has been logged.' : error.message;
  if (error instanceof AcademyError) for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
  return reply.status(status).type('application/json; charset=utf-8').send({ status, message });
}
