/**
 * Errors a service raises for a broken business rule. They carry no HTTP
 * details: each API's error handler turns them into its own body.
 */

export interface FieldError {
  /** Dotted path into the input, with zero-based list indices (`form_data.0.values`). */
  field: string;
  code: string;
  message: string;
}

export abstract class DomainError extends Error {}

/** The object does not exist for this tenant (another tenant's object included). */
export class NotFoundError extends DomainError {
  override name = 'NotFoundError';
  constructor(
    readonly resource: string,
    readonly id: string,
    /** Replaces the default message (`<resource> "<id>" was not found`). */
    message?: string,
  ) {
    super(message ?? `${resource} ${JSON.stringify(id)} was not found`);
  }
}

/** One or more input fields break a rule (422 on the HR API). */
export class FieldValidationError extends DomainError {
  override name = 'FieldValidationError';
  constructor(readonly fields: FieldError[]) {
    super(fields.map((f) => `${f.field}: ${f.message}`).join('; '));
  }
}

/** The request as a whole cannot be served (400); `errors` may detail why (one entry per reason). */
export class InvalidRequestError extends DomainError {
  override name = 'InvalidRequestError';
  constructor(
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
  }
}

/** The caller may not do this (403). */
export class ForbiddenError extends DomainError {
  override name = 'ForbiddenError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The object is not in a state that allows this (a blocked task completed, a published process published again):
 * 422 on the HR API, with the error's own code.
 */
export class StateError extends DomainError {
  override name = 'StateError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The write would duplicate an existing object, or collides with one in progress (409). */
export class ConflictError extends DomainError {
  override name = 'ConflictError';
  constructor(
    message: string,
    /** The API's error code (`conflict` unless the cause has its own, as `idempotency_key_in_use`). */
    readonly code = 'conflict',
  ) {
    super(message);
  }
}

/**
 * Something outside the server that the request needs failed or is missing (the office converter of document
 * generation): 424 on the HR API, with the error's own code.
 */
export class DependencyFailedError extends DomainError {
  override name = 'DependencyFailedError';
  constructor(
    message: string,
    readonly code = 'failed_dependency',
  ) {
    super(message);
  }
}

/**
 * The tenant already has as many of something running as a per-tenant cap allows (concurrent imports, campaigns):
 * 429 on the HR API, with `Retry-After`; the same call succeeds once one of them ends. Nothing was written.
 */
export class CapReachedError extends DomainError {
  override name = 'CapReachedError';
  constructor(
    message: string,
    /** The `Retry-After` hint, in seconds: when to look again (a slot frees when a running one ends). */
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** The server cannot take the request now (it is shutting down); the caller should retry, elsewhere (503). */
export class ServiceUnavailableError extends DomainError {
  override name = 'ServiceUnavailableError';
}

function codesOf(error: unknown): { codes: string[]; messages: string[] } {
  const codes: string[] = [];
  const messages: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof e.code === 'string') codes.push(e.code);
    if (typeof e.message === 'string') messages.push(e.message);
    // An AggregateError (a connection refused on every address of a host) names its causes in `errors`.
    if (Array.isArray(e.errors)) for (const inner of e.errors) codes.push(...codesOf(inner).codes);
    current = e.cause;
  }
  return { codes, messages };
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Whether a failure says the database cannot be reached right now (connection refused or lost, the server
 * shutting down or refusing connections, too many connections): the request may succeed later (503).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { codes, messages } = codesOf(error);
  return (
    codes.some((c) => UNREACHABLE.has(c) || /^08...$/.test(c) || ['57P01', '57P02', '57P03', '53300'].includes(c)) ||
    messages.some((m) => /Connection terminated|connection timeout|timeout exceeded when trying to connect/i.test(m))
  );
}

/** Whether a failure says the disk is full: a file write (ENOSPC, EDQUOT), SQLite or PostgreSQL out of space (507). */
export function isStorageFull(error: unknown): boolean {
  const { codes } = codesOf(error);
  return codes.some((c) => ['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100'].includes(c));
}
