/**
 * The SDK's one HTTP layer: `fetch` (built-in or injected), per-attempt timeouts, the caller's `AbortSignal`,
 * retries with exponential backoff and jitter, and logging hooks that never see a secret.
 */
import { AtriumAbortError, AtriumConnectionError, AtriumTimeoutError, AtriumUsageError } from './errors.js';

/** The `fetch` the SDK calls: the global one by default, or any compatible function (for tests, proxies, metrics). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

import { HEADERS } from './wire.js';

/** Options every call takes as its last argument. */
export interface RequestOptions {
  /** Aborts the call (and any wait between retries); the call then rejects with an {@link AtriumAbortError}. */
  signal?: AbortSignal;
  /** Time allowed for each attempt, in ms (default: the client's `timeoutMs`). */
  timeoutMs?: number;
  /** Retries after the first attempt (default: the client's `maxRetries`); 0 turns retrying off for this call. */
  maxRetries?: number;
  /**
   * Also retry a call that is not idempotent (POST, PATCH, and the PUTs that add things). Off by default: a
   * retried `POST /requests` after a lost answer could create the request twice.
   */
  retryNonIdempotent?: boolean;
  /**
   * The `Idempotency-Key` of a POST (an Atrium extension: the server replays the first answer to a repeated key).
   * Default: a new random key per call, the same on each of its retries. `false` sends none, and then a POST is
   * never retried, even with `retryNonIdempotent`.
   */
  idempotencyKey?: string | false;
  /** Extra request headers (for example `X-Atrium-User-Id`, or your own `X-Request-Id`). */
  headers?: Record<string, string>;
}

/** What a request hook receives: the request as sent, with every secret replaced by `[REDACTED]`. */
export interface RequestEvent {
  method: string;
  /** The URL, with `apikey`, `access_token`, `token` and secret query parameters redacted. */
  url: string;
  /** Request headers (lower-case names), with `Authorization` and `X-API-Key` redacted. */
  headers: Record<string, string>;
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
}

/** What a response hook receives: one attempt's outcome (an answer, or the error that prevented one). */
export interface ResponseEvent extends RequestEvent {
  /** The answer's status, or undefined when the attempt got no answer. */
  status?: number;
  /** The answer's headers (lower-case names); `Set-Cookie` is redacted. */
  responseHeaders?: Record<string, string>;
  /** The server's `X-Request-Id`. */
  requestId?: string;
  /** Time from sending to the answer's headers, in ms. */
  durationMs: number;
  /** Why the attempt got no answer (timeout, network error). */
  error?: Error;
}

/** What a retry hook receives, before the SDK waits and tries again. */
export interface RetryEvent extends RequestEvent {
  /** How long the SDK waits before the next attempt, in ms (the `Retry-After` when the server sent one). */
  delayMs: number;
  /** Why: the status that is retried, or `network` / `timeout`. */
  reason: number | 'network' | 'timeout';
}

/** Transport settings shared by both clients. */
export interface HttpOptions {
  /** The `fetch` to call. Default: `globalThis.fetch`. */
  fetch?: FetchLike;
  /** Time allowed for each attempt, in ms. Default 30000. */
  timeoutMs?: number;
  /** Retries after the first attempt on 429, 502, 503, 504, timeouts and network errors. Default 2. */
  maxRetries?: number;
  /** Retry non-idempotent calls too (see {@link RequestOptions.retryNonIdempotent}). Default false. */
  retryNonIdempotent?: boolean;
  /** Backoff of the first retry, in ms; each next retry doubles it, with jitter. Default 500. */
  initialRetryDelayMs?: number;
  /** Longest backoff between two attempts, in ms. Default 8000. */
  maxRetryDelayMs?: number;
  /** A `Retry-After` longer than this many seconds is not waited for: the error is thrown at once. Default 60. */
  maxRetryAfterSeconds?: number;
  /** Called before each attempt, with secrets redacted. Exceptions it throws are ignored. */
  onRequest?: (event: RequestEvent) => void;
  /** Called after each attempt, with secrets redacted. Exceptions it throws are ignored. */
  onResponse?: (event: ResponseEvent) => void;
  /** Called before each retry. Exceptions it throws are ignored. */
  onRetry?: (event: RetryEvent) => void;
}

/** One HTTP request, as the API layers build it. */
export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | URLSearchParams | FormData | Blob | Uint8Array;
  /** Whether repeating it is harmless. Default: true for GET, HEAD, PUT, DELETE and OPTIONS. */
  idempotent?: boolean;
}

/** The final answer of a call: the response, and its body already read as text unless `stream` was asked. */
export interface HttpResult {
  response: Response;
  /** The body as text (empty for HEAD and 204); undefined in stream mode. */
  text?: string;
  /** Attempts made (1 when the first one answered). */
  attempts: number;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
/** The header of a POST's idempotency key (an Atrium extension of both APIs). */
export const IDEMPOTENCY_KEY_HEADER = HEADERS.idempotencyKey;
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'cookie', 'proxy-authorization']);
const SECRET_PARAMS = ['apikey', 'access_token', 'token', 'client_secret', 'application_secret', 'refresh_token'];
/** Redaction marker used in every hook event. */
export const REDACTED = '[REDACTED]';

/** A copy of the headers with credentials replaced (the scheme of `Authorization` is kept: `Bearer [REDACTED]`). */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (SECRET_HEADERS.has(lower)) {
      const scheme = lower === 'authorization' ? /^(\w+)\s/.exec(value)?.[1] : undefined;
      out[lower] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
    } else if (lower === 'set-cookie') {
      out[lower] = REDACTED;
    } else {
      out[lower] = value;
    }
  }
  return out;
}

/** The URL with every credential-bearing query parameter replaced. */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const params = new URLSearchParams(url.slice(mark + 1));
  let changed = false;
  for (const name of SECRET_PARAMS) {
    if (params.has(name)) {
      params.set(name, REDACTED);
      changed = true;
    }
  }
  return changed ? `${url.slice(0, mark)}?${params.toString()}` : url;
}

function headersOf(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    out[name.toLowerCase()] = value;
  });
  return out;
}

/** Seconds of a `Retry-After` header: integer seconds, or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^[0-9]+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

function safely(hook: (() => void) | undefined): void {
  try {
    hook?.();
  } catch {
    // A logging hook never breaks a call.
  }
}

/** Rejects at once when the signal is already aborted; the abort error carries the signal's reason. */
function abortError(signal: AbortSignal): AtriumAbortError {
  return new AtriumAbortError('The call was aborted.', { cause: signal.reason });
}

/** Waits `ms`, or rejects as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Settles like `promise`, or rejects when `signal` aborts first (the promise itself keeps running). */
export function raceSignal<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

const TIMEOUT = Symbol('timeout');

/** Sends requests with timeouts, retries and hooks. Both clients hold one. */
export class HttpTransport {
  private readonly fetchFn: FetchLike;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly retryNonIdempotent: boolean;
  private readonly initialDelay: number;
  private readonly maxDelay: number;
  private readonly maxRetryAfter: number;

  constructor(private readonly options: HttpOptions = {}) {
    const f = options.fetch ?? (globalThis.fetch as FetchLike | undefined);
    if (typeof f !== 'function') {
      throw new AtriumUsageError('No fetch is available: run on Node.js 20+ or pass a fetch implementation.');
    }
    this.fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxRetries = options.maxRetries ?? 2;
    this.retryNonIdempotent = options.retryNonIdempotent ?? false;
    this.initialDelay = options.initialRetryDelayMs ?? 500;
    this.maxDelay = options.maxRetryDelayMs ?? 8_000;
    this.maxRetryAfter = options.maxRetryAfterSeconds ?? 60;
  }

  /** Backoff before retry number `retry` (1-based): exponential, capped, with "equal jitter" (half fixed, half random). */
  backoff(retry: number): number {
    const ceiling = Math.min(this.maxDelay, this.initialDelay * 2 ** (retry - 1));
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }

  /**
   * Sends the request, retrying when allowed, and returns the last answer whatever its status (the API layer
   * turns error statuses into typed errors). Rejects only when no answer came, or the caller aborted.
   */
  async send(request: HttpRequest, options: RequestOptions = {}, stream = false): Promise<HttpResult> {
    const method = request.method.toUpperCase();
    const idempotent = request.idempotent ?? IDEMPOTENT.has(method);
    // Every POST carries a key, kept across its retries, so that a retry after a lost answer cannot run twice.
    const key =
      method === 'POST' && options.idempotencyKey !== false
        ? (options.idempotencyKey ?? globalThis.crypto.randomUUID())
        : undefined;
    const headers = {
      ...request.headers,
      ...(key ? { [IDEMPOTENCY_KEY_HEADER]: key } : {}),
      ...(options.headers ?? {}),
    };
    const keyed =
      method !== 'POST' || Object.keys(headers).some((h) => h.toLowerCase() === IDEMPOTENCY_KEY_HEADER.toLowerCase());
    const mayRetry = idempotent || ((options.retryNonIdempotent ?? this.retryNonIdempotent) && keyed);
    const maxRetries = mayRetry ? Math.max(0, options.maxRetries ?? this.maxRetries) : 0;
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const logged = () => ({ method, url: redactUrl(request.url), headers: redactHeaders(headers) });

    for (let attempt = 1; ; attempt++) {
      if (options.signal?.aborted) throw abortError(options.signal);
      safely(() => this.options.onRequest?.({ ...logged(), attempt }));
      const started = Date.now();
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(TIMEOUT), timeoutMs);
      const onAbort = () => controller.abort(options.signal?.reason);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      let failure: Error | undefined;
      let reason: RetryEvent['reason'] | undefined;
      // A streamed body is read after this returns: the caller's signal must still abort it.
      let streaming = false;
      try {
        const response = await this.fetchFn(request.url, {
          method,
          headers,
          ...(request.body !== undefined ? { body: request.body as RequestInit['body'] } : {}),
          signal: controller.signal,
          redirect: 'follow',
        });
        const responseHeaders = headersOf(response);
        safely(() =>
          this.options.onResponse?.({
            ...logged(),
            attempt,
            status: response.status,
            responseHeaders: redactHeaders(responseHeaders),
            ...(responseHeaders['x-request-id'] ? { requestId: responseHeaders['x-request-id'] } : {}),
            durationMs: Date.now() - started,
          }),
        );
        const retryable = RETRY_STATUSES.has(response.status) && attempt <= maxRetries;
        let delay: number | undefined;
        if (retryable) {
          const after = parseRetryAfter(response.headers.get('retry-after'));
          if (after === undefined) delay = this.backoff(attempt);
          else if (after <= this.maxRetryAfter) delay = after * 1000;
        }
        if (delay === undefined) {
          if (stream) {
            streaming = true;
            return { response, attempts: attempt };
          }
          const text = method === 'HEAD' ? '' : await response.text();
          return { response, text, attempts: attempt };
        }
        // Free the connection before waiting.
        await response.body?.cancel().catch(() => {});
        safely(() => this.options.onRetry?.({ ...logged(), attempt, delayMs: delay, reason: response.status }));
        await sleep(delay, options.signal);
        continue;
      } catch (error) {
        if (options.signal?.aborted) throw abortError(options.signal);
        if (error instanceof AtriumAbortError) throw error;
        if (controller.signal.aborted && controller.signal.reason === TIMEOUT) {
          failure = new AtriumTimeoutError(`No answer within ${timeoutMs} ms: ${method} ${redactUrl(request.url)}`, {
            cause: error,
          });
          reason = 'timeout';
        } else {
          failure = new AtriumConnectionError(
            `The request failed before an answer: ${method} ${redactUrl(request.url)} (${(error as Error).message})`,
            { cause: error },
          );
          reason = 'network';
        }
        const err = failure;
        safely(() => this.options.onResponse?.({ ...logged(), attempt, durationMs: Date.now() - started, error: err }));
      } finally {
        clearTimeout(timer);
        if (!streaming) options.signal?.removeEventListener('abort', onAbort);
      }
      if (attempt > maxRetries) throw failure;
      const delay = this.backoff(attempt);
      safely(() => this.options.onRetry?.({ ...logged(), attempt, delayMs: delay, reason: reason ?? 'network' }));
      await sleep(delay, options.signal);
    }
  }
}

/**
 * An API's root from the `baseUrl` a client was given: the origin (and any path prefix) with `suffix` added unless
 * it is there already, without query, fragment or trailing slash.
 */
export function apiRoot(baseUrl: string, suffix: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new AtriumUsageError(`baseUrl must be an absolute URL such as http://127.0.0.1:8080, not "${baseUrl}".`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith(suffix) ? path : `${path}${suffix}`;
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}
