/**
 * The wire contract of Atrium's two APIs, shared by both servers and the SDK: each API's error code for a status
 * (the code of an answer that carries no more precise one), the header names the APIs and the SDK agree on, and the
 * codes both sides name. A leaf: it imports nothing. It ships inside the SDK (which loads nothing of the server),
 * and the servers import it from here.
 */

/** HR API (`/api/v2/client`): the error code of a status, when the answer has no more precise code. */
export const HR_STATUS_CODES: Readonly<Record<number, string>> = {
  400: 'invalid_request',
  401: 'invalid_token',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  409: 'conflict',
  411: 'length_required',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  416: 'range_not_satisfiable',
  422: 'validation_error',
  424: 'failed_dependency',
  429: 'rate_limited',
  431: 'request_header_fields_too_large',
  500: 'internal_error',
  503: 'service_unavailable',
  507: 'insufficient_storage',
};

/** Academy API (`/v1`): the error code of a status, when the answer has no more precise code. */
export const ACADEMY_STATUS_CODES: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  431: 'request_header_fields_too_large',
  500: 'internal_error',
  503: 'service_unavailable',
};

/** Codes both APIs (and the SDK) name. */
export const CODES = {
  validationError: 'validation_error',
  internalError: 'internal_error',
  serviceUnavailable: 'service_unavailable',
  idempotencyKeyReused: 'idempotency_key_reused',
  idempotencyKeyInUse: 'idempotency_key_in_use',
} as const;

/** Header names the APIs and the SDK agree on. */
export const HEADERS = {
  requestId: 'X-Request-Id',
  link: 'Link',
  nextCursor: 'Next-Cursor',
  previousCursor: 'Previous-Cursor',
  totalCount: 'X-Total-Count',
  retryAfter: 'Retry-After',
  idempotencyKey: 'Idempotency-Key',
  idempotentReplayed: 'Idempotent-Replayed',
  actingUser: 'X-Atrium-User-Id',
} as const;

/**
 * A comma-separated list of the values `E` (`status=opened,pending`), as a query string carries it. At run time it
 * is a string; its static type carries `E`, so that the SDK offers `E | E[]` for it instead of any string. The
 * brand is never set: only the types use it. The server's `CommaListSchema` (src/platform/lists.ts) gives it to a
 * schema.
 */
export type CommaList<E extends string> = string & { readonly __commaListOf: E };
