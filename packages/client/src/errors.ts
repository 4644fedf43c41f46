/**
 * Typed errors of the Atrium client SDK.
 *
 * Every answer with a 4xx or 5xx status becomes an {@link HrApiError} or an {@link AcademyApiError} subclass
 * chosen by its status (and, where one status has several meanings, its `code`). A request that got no answer
 * becomes an {@link AtriumConnectionError} (or {@link AtriumTimeoutError}).
 *
 * This module imports nothing from the server but the wire contract (`src/wire/`, a leaf with no imports).
 */
import { ACADEMY_STATUS_CODES, HEADERS, HR_STATUS_CODES } from './wire.js';

/** One field error of a validation answer: a dotted path with zero-based list indices (`form_data.2.values.0`). */
export interface FieldError {
  /** Path of the field in the payload, dots between keys and zero-based indices for list items. */
  field: string;
  /** Machine-parsable code of the field error (`required`, `too_long`, …). */
  code: string;
  /** Human-readable description. */
  message: string;
}

/** Fields shared by every API error, whichever API answered. */
export interface ApiErrorInit {
  /** The HTTP status of the answer. */
  status: number;
  /** Machine-parsable error code from the body (`invalid_token`, `not_found`, …). */
  code: string;
  /** Human-readable description from the body. */
  message: string;
  /** Field errors, when the body lists them. */
  errors?: FieldError[];
  /** The server's `X-Request-Id`: quote it when reporting a problem. */
  requestId?: string;
  /** Response headers (lower-case names). */
  headers?: Record<string, string>;
  /** The method and URL of the request (secrets redacted). */
  request?: { method: string; url: string };
}

/** Base class of every error the SDK throws. */
export class AtriumError extends Error {
  override name = 'AtriumError';
}

/**
 * An HTTP answer with an error status, from either API. `status`, `code`, `message`, `errors` and `requestId`
 * come from the answer; the subclasses tell the API and the family of the error.
 */
export class AtriumApiError extends AtriumError {
  override name = 'AtriumApiError';
  /** The HTTP status of the answer. */
  readonly status: number;
  /** Machine-parsable error code from the body. */
  readonly code: string;
  /** Field errors (dotted paths), empty when the answer lists none. */
  readonly errors: FieldError[];
  /** The server's `X-Request-Id`, when it sent one. */
  readonly requestId: string | undefined;
  /** Response headers (lower-case names). */
  readonly headers: Record<string, string>;
  /** The method and URL of the failed request (secrets redacted). */
  readonly request: { method: string; url: string } | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.errors = init.errors ?? [];
    this.requestId = init.requestId;
    this.headers = init.headers ?? {};
    this.request = init.request;
  }

  /** Seconds from an integer `Retry-After` header, when the answer had one. */
  get retryAfter(): number | undefined {
    const value = this.headers['retry-after'];
    return value !== undefined && /^[0-9]+$/.test(value) ? Number(value) : undefined;
  }
}

/** No answer: the connection failed or was reset (after any retries). `cause` holds the underlying error. */
export class AtriumConnectionError extends AtriumError {
  override name = 'AtriumConnectionError';
}

/** No answer within the call's timeout (after any retries). */
export class AtriumTimeoutError extends AtriumConnectionError {
  override name = 'AtriumTimeoutError';
}

/** The caller's `AbortSignal` aborted the call. `cause` holds the signal's reason. */
export class AtriumAbortError extends AtriumError {
  override name = 'AbortError';
}

/** The SDK was used in a way it refuses, such as the HR client in a browser, or an invalid option. */
export class AtriumUsageError extends AtriumError {
  override name = 'AtriumUsageError';
}

// ------------------------------------------------------------------------------------------------ HR API

/** An error answer of the HR client API (`/api/v2/client`): the body `{code, message, errors?}`. */
export class HrApiError extends AtriumApiError {
  override name = 'HrApiError';
}
/** 400: `invalid_request` (bad, unsupported or repeated parameter, malformed body or cursor) or `invalid_client_id`. */
export class HrInvalidRequestError extends HrApiError {
  override name = 'HrInvalidRequestError';
}
/** 401: `invalid_token` (expired, revoked, malformed) or `invalid_credentials` (application id or secret). */
export class HrAuthenticationError extends HrApiError {
  override name = 'HrAuthenticationError';
}
/** 403: `insufficient_scope` (a read-only application writing) or another refusal. */
export class HrPermissionError extends HrApiError {
  override name = 'HrPermissionError';
}
/** 404 `not_found`: unknown path or object, or another client's object. */
export class HrNotFoundError extends HrApiError {
  override name = 'HrNotFoundError';
}
/** 405 `method_not_allowed`: the `Allow` header lists the methods. */
export class HrMethodNotAllowedError extends HrApiError {
  override name = 'HrMethodNotAllowedError';
}
/** 409 `conflict`: for example a duplicate `external_reference`. */
export class HrConflictError extends HrApiError {
  override name = 'HrConflictError';
}
/** 413, 415 and 416: a body too large, of the wrong type, or a `Range` outside the file. */
export class HrPayloadError extends HrApiError {
  override name = 'HrPayloadError';
}
/** 422: `validation_error` with `errors[]` (one per field), or a business rule's code. */
export class HrValidationError extends HrApiError {
  override name = 'HrValidationError';
}
/** 429: too many requests; `retryAfter` says when to try again. */
export class HrRateLimitError extends HrApiError {
  override name = 'HrRateLimitError';
}
/** 5xx: `internal_error`, `service_unavailable` or a gateway's answer. */
export class HrServerError extends HrApiError {
  override name = 'HrServerError';
}

/**
 * The code of an HR answer without a JSON body (a `HEAD`, or a gateway's page): the `error` of
 * `WWW-Authenticate`, else the API's usual code for the status, else `http_<status>`.
 */
export function hrFallbackCode(status: number, wwwAuthenticate: string | null): string {
  const fromHeader = wwwAuthenticate ? /error="([^"]+)"/.exec(wwwAuthenticate)?.[1] : undefined;
  if (fromHeader) return fromHeader;
  if (status === 401) return 'invalid_token';
  return HR_STATUS_CODES[status] ?? `http_${status}`;
}

type HrErrorClass = new (init: ApiErrorInit) => HrApiError;

const HR_BY_STATUS: Record<number, HrErrorClass> = {
  400: HrInvalidRequestError,
  401: HrAuthenticationError,
  403: HrPermissionError,
  404: HrNotFoundError,
  405: HrMethodNotAllowedError,
  409: HrConflictError,
  413: HrPayloadError,
  415: HrPayloadError,
  416: HrPayloadError,
  422: HrValidationError,
  429: HrRateLimitError,
};

/** The {@link HrApiError} subclass of an answer's status. */
export function hrError(init: ApiErrorInit): HrApiError {
  const Class = HR_BY_STATUS[init.status] ?? (init.status >= 500 ? HrServerError : HrApiError);
  return new Class(init);
}

// ------------------------------------------------------------------------------------------------ Academy API

/** An error answer of the Academy events API (`/v1`): the body `{status, code, message, errors?}`. */
export class AcademyApiError extends AtriumApiError {
  override name = 'AcademyApiError';
}
/** 400 `validation_error`: a body or query field breaks a rule; `errors[]` names each field (`days.0.from.hours`). */
export class AcademyValidationError extends AcademyApiError {
  override name = 'AcademyValidationError';
}
/** 400 `bad_request`: a request-level rule (more than 60 offers, an event that is not registration-based…). */
export class AcademyBadRequestError extends AcademyApiError {
  override name = 'AcademyBadRequestError';
}
/** 401 `unauthorized`: missing or wrong `apikey` / `acadId`. */
export class AcademyAuthenticationError extends AcademyApiError {
  override name = 'AcademyAuthenticationError';
}
/** 403 `forbidden`. */
export class AcademyPermissionError extends AcademyApiError {
  override name = 'AcademyPermissionError';
}
/** 404 `not_found`: unknown path or object, another academy's object, or an id of the other kind. */
export class AcademyNotFoundError extends AcademyApiError {
  override name = 'AcademyNotFoundError';
}
/** 409 `conflict`: the state forbids it (already a bundle, a full event, registration closed, 6000 offers). */
export class AcademyConflictError extends AcademyApiError {
  override name = 'AcademyConflictError';
}
/** 413 `payload_too_large` or 415 `unsupported_media_type`. */
export class AcademyPayloadError extends AcademyApiError {
  override name = 'AcademyPayloadError';
}
/** 429 `rate_limited`: the academy's requests per minute are used up; `retryAfter` says for how long. */
export class AcademyRateLimitError extends AcademyApiError {
  override name = 'AcademyRateLimitError';
}
/** 5xx: `internal_error`, `service_unavailable` or a gateway's answer. */
export class AcademyServerError extends AcademyApiError {
  override name = 'AcademyServerError';
}

/** The code of an Academy answer without a JSON body: the API's usual code for the status, else `http_<status>`. */
export function academyFallbackCode(status: number): string {
  return ACADEMY_STATUS_CODES[status] ?? `http_${status}`;
}

type AcademyErrorClass = new (init: ApiErrorInit) => AcademyApiError;

const ACADEMY_BY_STATUS: Record<number, AcademyErrorClass> = {
  401: AcademyAuthenticationError,
  403: AcademyPermissionError,
  404: AcademyNotFoundError,
  409: AcademyConflictError,
  413: AcademyPayloadError,
  415: AcademyPayloadError,
  429: AcademyRateLimitError,
};

/** The {@link AcademyApiError} subclass of an answer's status and code. */
export function academyError(init: ApiErrorInit): AcademyApiError {
  if (init.status === 400) {
    return init.code === 'validation_error' ? new AcademyValidationError(init) : new AcademyBadRequestError(init);
  }
  const Class = ACADEMY_BY_STATUS[init.status] ?? (init.status >= 500 ? AcademyServerError : AcademyApiError);
  return new Class(init);
}

// ------------------------------------------------------------------------------------------------ both APIs

/**
 * What an error answer says, read the same way for both APIs: its JSON body's `code`, `message` and `errors` (a
 * body that is not JSON, such as a proxy's page, keeps only the status), its headers and request id, and the call
 * that got it. `fallbackCode` gives the API's code for a status when the body names none.
 */
export function errorInitOf(
  request: { method: string; url: string },
  response: Response,
  text: string,
  fallbackCode: (status: number, headers: Headers) => string,
): ApiErrorInit {
  let body: { code?: unknown; message?: unknown; errors?: unknown } = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object') body = parsed as typeof body;
  } catch {
    // Not JSON: keep the status.
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => {
    headers[k.toLowerCase()] = v;
  });
  const requestId = response.headers.get(HEADERS.requestId);
  return {
    status: response.status,
    code: typeof body.code === 'string' ? body.code : fallbackCode(response.status, response.headers),
    message: typeof body.message === 'string' ? body.message : `HTTP ${response.status} ${response.statusText}`.trim(),
    ...(Array.isArray(body.errors) ? { errors: body.errors as FieldError[] } : {}),
    ...(requestId ? { requestId } : {}),
    headers,
    request: { method: request.method, url: request.url },
  };
}
