import { HR_STATUS_CODES } from '@atrium/client/wire';
import { type Static, Type } from '@sinclair/typebox';
import type { ErrorObject } from 'ajv';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  CapReachedError,
  ConflictError,
  DependencyFailedError,
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
 * The HR API's one error body, for every status: `{code, message}`, plus
 * `errors` (one entry per field) on 422.
 */
export const FieldErrorSchema = Type.Object({
  field: Type.String({ description: 'Dotted path of the field, with zero-based list indices.' }),
  code: Type.String(),
  message: Type.String(),
});

export const ErrorBody = Type.Object(
  {
    code: Type.String({ description: 'Machine-parsable error code.' }),
    message: Type.String({ description: 'Human-readable description.' }),
    errors: Type.Optional(Type.Array(FieldErrorSchema)),
    error: Type.Optional(Type.String({ description: 'RFC 6749 error code (token endpoints only).' })),
    error_description: Type.Optional(Type.String({ description: 'RFC 6749 description (token endpoints only).' })),
  },
  { $id: 'HrError', title: 'HrError' },
);
export type ErrorBody = Static<typeof ErrorBody>;

/** An error with the HR API's status and code, raised where the API's own rules decide (auth, scopes). */
export class HrError extends Error {
  override name = 'HrError';
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The RFC 6749 `error` value, where it is more precise than the code's usual mapping. */
    readonly oauthError?: string,
  ) {
    super(message);
  }
}

/** The error responses every HR route may give, for the OpenAPI document. */
export const errorResponses = (...statuses: number[]): Record<number, typeof ErrorBody> => {
  const out: Record<number, typeof ErrorBody> = {};
  for (const s of statuses) out[s] = Type.Ref(ErrorBody) as unknown as typeof ErrorBody;
  return out;
};

const STATUS_CODES = HR_STATUS_CODES;

/** The HR error body of a bare status (a request refused before any route ran). */
export function hrErrorBody(status: number, message: string): ErrorBody {
  return { code: STATUS_CODES[status] ?? 'invalid_request', message };
}

/** RFC 6749 §5.2 names for our codes, for generic OAuth 2.0 client libraries. */
const OAUTH_ERRORS: Record<string, string> = {
  invalid_credentials: 'invalid_client',
  invalid_client_id: 'invalid_request',
  invalid_request: 'invalid_request',
  unsupported_grant_type: 'unsupported_grant_type',
  invalid_scope: 'invalid_scope',
};

interface Rendered {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  oauthError?: string;
}

function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const fields = fieldErrorsFromAjv(error.validation as never);
  const f = fields[0];
  return f ? `Invalid query parameter "${f.field}": ${f.message}` : error.message;
}

/**
 * The answer to a body that its schema refuses: 422 with one entry per field, or 400 when the body is not the JSON
 * value the route takes (an object, or the array of a bulk call) or the route is an OAuth one.
 */
export function bodyValidationError(errors: ErrorObject[], oauth = false): { status: number; body: ErrorBody } {
  const root = errors.find((v) => v.instancePath === '' && v.keyword === 'type');
  if (root || oauth) {
    const fields = fieldErrorsFromAjv(errors);
    const expected = (root?.params as { type?: unknown } | undefined)?.type === 'array' ? 'array' : 'object';
    const message = root
      ? `The request body must be a JSON ${expected}.`
      : `Invalid parameter "${fields[0]?.field}": ${fields[0]?.message}`;
    return { status: 400, body: { code: 'invalid_request', message } };
  }
  return {
    status: 422,
    body: { code: 'validation_error', message: 'Validation failed.', errors: fieldErrorsFromAjv(errors) },
  };
}

/**
 * The HR error body of an error that a domain rule raised (not found, field validation, a state or conflict), as
 * the API would answer it; undefined for anything else (a database failure), which is not the input's fault.
 */
export function domainErrorBody(error: unknown): ErrorBody | undefined {
  if (!(error instanceof Error)) return undefined;
  const rendered = render(error, false);
  return rendered.status < 500 ? rendered.body : undefined;
}

function render(error: FastifyError | Error, oauth: boolean): Rendered {
  if (error instanceof HrError) {
    return {
      status: error.statusCode,
      body: { code: error.code, message: error.message },
      headers: error.headers,
      ...(error.oauthError ? { oauthError: error.oauthError } : {}),
    };
  }
  if (error instanceof NotFoundError) {
    return { status: 404, body: { code: 'not_found', message: error.message }, headers: {} };
  }
  if (error instanceof FieldValidationError) {
    return {
      status: 422,
      body: { code: 'validation_error', message: 'Validation failed.', errors: error.fields },
      headers: {},
    };
  }
  if (error instanceof InvalidRequestError) {
    return {
      status: 400,
      body: { code: 'invalid_request', message: error.message, ...(error.errors ? { errors: error.errors } : {}) },
      headers: {},
    };
  }
  if (error instanceof ForbiddenError) {
    return { status: 403, body: { code: error.code, message: error.message }, headers: {} };
  }
  if (error instanceof StateError) {
    return { status: 422, body: { code: error.code, message: error.message }, headers: {} };
  }
  if (error instanceof ConflictError) {
    return { status: 409, body: { code: error.code, message: error.message }, headers: {} };
  }
  if (error instanceof CapReachedError) {
    return {
      status: 429,
      body: { code: 'rate_limited', message: error.message },
      headers: { 'Retry-After': String(error.retryAfterSeconds) },
    };
  }
  if (error instanceof DependencyFailedError) {
    return { status: 424, body: { code: error.code, message: error.message }, headers: {} };
  }
  if (error instanceof ServiceUnavailableError) {
    return { status: 503, body: { code: 'service_unavailable', message: error.message }, headers: {} };
  }
  const fe = error as FastifyError;
  if (fe.validation) {
    const context = fe.validationContext;
    if (context === 'body') {
      const { status, body } = bodyValidationError(fe.validation as ErrorObject[], oauth);
      return { status, body, headers: {} };
    }
    if (context === 'params') {
      return { status: 404, body: { code: 'not_found', message: 'No resource at this URI.' }, headers: {} };
    }
    return { status: 400, body: { code: 'invalid_request', message: validationMessage(fe) }, headers: {} };
  }
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    if (
      fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      fe.name === 'SyntaxError'
    ) {
      return { status: 400, body: { code: 'invalid_request', message: 'The body is not valid JSON.' }, headers: {} };
    }
    if (oauth && status === 415) {
      return {
        status: 400,
        body: { code: 'invalid_request', message: 'The body must be application/x-www-form-urlencoded.' },
        headers: {},
      };
    }
    return {
      status,
      body: { code: STATUS_CODES[status] ?? 'invalid_request', message: fe.message },
      headers: {},
    };
  }
  if (isStorageFull(error)) {
    return {
      status: 507,
      body: { code: 'insufficient_storage', message: 'The server has no storage space left; nothing was written.' },
      headers: {},
    };
  }
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      body: { code: 'service_unavailable', message: 'The database cannot be reached; retry the request.' },
      headers: { 'Retry-After': '1' },
    };
  }
  return {
    status: 500,
    body: { code: 'internal_error', message: 'An unexpected error occurred; it has been logged.' },
    headers: {},
  };
}

export function isOAuthRoute(request: FastifyRequest): boolean {
  return (request.routeOptions.config as { oauth?: boolean } | undefined)?.oauth === true;
}

/** Sends any error in the HR API's format. Unexpected ones are logged with the request id, never shown. */
export function sendHrError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const oauth = isOAuthRoute(request);
  const rendered = render(error, oauth);
  if (rendered.status === 500) {
    request.log.error({ err: error }, 'unexpected error');
  } else if (rendered.status === 507 || (rendered.status === 503 && !(error instanceof ServiceUnavailableError))) {
    request.log.warn({ err: error }, rendered.body.message);
  }
  if (oauth) {
    rendered.body.error = rendered.oauthError ?? OAUTH_ERRORS[rendered.body.code] ?? rendered.body.code;
    rendered.body.error_description = rendered.body.message;
    reply.header('Cache-Control', 'no-store');
    reply.header('Pragma', 'no-cache');
  }
  for (const [name, value] of Object.entries(rendered.headers)) reply.header(name, value);
  return reply.status(rendered.status).type('application/json; charset=utf-8').send(rendered.body);
}
