import { ACADEMY_STATUS_CODES } from '@atrium/client/wire';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  ConflictError,
  type FieldError,
  FieldValidationError,
  ForbiddenError,
  InvalidRequestError,
  isDatabaseUnavailable,
  isStorageFull,
  NotFoundError,
  ServiceUnavailableError,
  StateError,
} from '../platform/errors.js';
import { fieldErrorsFromAjv } from '../platform/http/validation.js';

/**
 * The Academy API's one error shape: `{status, code, message, errors?}`.
 * `status` repeats the HTTP status, like the delete response's `status`;
 * `errors` names each invalid field by its path (`days.0.from.hours`).
 * Real clients read status codes, not error keys (reference §4).
 */
export const AcademyErrorBody = Type.Object(
  {
    status: Type.Integer({ description: 'The HTTP status.' }),
    code: Type.String({ description: 'Machine-parsable code.' }),
    message: Type.String(),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.String({ description: 'Path of the field, with dots and zero-based indices.' }),
          code: Type.String(),
          message: Type.String(),
        }),
      ),
    ),
  },
  { $id: 'AcademyError', title: 'AcademyError' },
);
export type AcademyErrorBody = Static<typeof AcademyErrorBody>;

export class AcademyError extends Error {
  override name = 'AcademyError';
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const CODES = ACADEMY_STATUS_CODES;

/** The Academy error body of a bare status (a request refused before any route ran). */
export function academyErrorBody(status: number, message: string): AcademyErrorBody {
  return { status, code: CODES[status] ?? 'bad_request', message };
}

function render(error: Error): AcademyErrorBody {
  if (error instanceof AcademyError) return { status: error.statusCode, code: error.code, message: error.message };
  if (error instanceof NotFoundError) return { status: 404, code: 'not_found', message: error.message };
  if (error instanceof FieldValidationError) {
    return { status: 400, code: 'validation_error', message: error.message, errors: error.fields };
  }
  if (error instanceof InvalidRequestError) return { status: 400, code: 'bad_request', message: error.message };
  if (error instanceof ConflictError) return { status: 409, code: error.code, message: error.message };
  if (error instanceof StateError) return { status: 422, code: error.code, message: error.message };
  if (error instanceof ForbiddenError) return { status: 403, code: error.code, message: error.message };
  if (error instanceof ServiceUnavailableError) {
    return { status: 503, code: 'service_unavailable', message: error.message };
  }
  const fe = error as FastifyError;
  if (fe.validation) {
    if (fe.validationContext === 'params') {
      return { status: 404, code: 'not_found', message: 'No resource at this URI.' };
    }
    const errors: FieldError[] = fieldErrorsFromAjv(fe.validation);
    const root = fe.validation.some((v) => v.instancePath === '' && v.keyword === 'type');
    const where = fe.validationContext === 'body' ? 'body' : 'query parameter';
    const first = errors[0];
    const message = root
      ? 'The request body must be a JSON object.'
      : `Invalid ${where}${first ? ` "${first.field}": ${first.message}` : ''}`;
    return { status: 400, code: 'validation_error', message, ...(root ? {} : { errors }) };
  }
  const status = typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500 ? fe.statusCode : 500;
  if (status === 500 && isStorageFull(error)) {
    return {
      status: 507,
      code: 'insufficient_storage',
      message: 'The server has no storage space left; nothing was written.',
    };
  }
  if (status === 500 && isDatabaseUnavailable(error)) {
    return { status: 503, code: 'service_unavailable', message: 'The database cannot be reached; retry the request.' };
  }
  if (status === 500) {
    return { status, code: 'internal_error', message: 'An unexpected error occurred; it has been logged.' };
  }
  return { status, code: CODES[status] ?? 'bad_request', message: fe.message };
}

export function sendAcademyError(error: Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const body = render(error);
  if (body.status === 500) request.log.error({ err: error }, 'unexpected error');
  if (body.status === 507 || (body.status === 503 && !(error instanceof ServiceUnavailableError))) {
    request.log.warn({ err: error }, body.message);
    if (body.status === 503) reply.header('Retry-After', '1');
  }
  if (error instanceof AcademyError) for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
  return reply.status(body.status).type('application/json; charset=utf-8').send(body);
}

/** The error responses an Academy route may give, for the OpenAPI document. */
export const academyErrors = (...statuses: number[]): Record<number, typeof AcademyErrorBody> => {
  const out: Record<number, typeof AcademyErrorBody> = {};
  for (const s of statuses) out[s] = Type.Ref(AcademyErrorBody) as unknown as typeof AcademyErrorBody;
  return out;
};
