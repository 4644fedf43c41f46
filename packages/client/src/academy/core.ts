/**
 * The Academy client's core: the caller behind every resource (`acadId` and key, JSON, errors, `start`/`limit`
 * pages) and each list's page size. The resources live in their own files next to this one; `client.ts` composes
 * them.
 */

import { type AcademyApiError, academyError, academyFallbackCode, errorInitOf } from '../errors.js';
import { apiRoot, type HttpOptions, type HttpRequest, HttpTransport, type RequestOptions } from '../http.js';
import { AutoPager, type Page } from '../pagination.js';
import type {
  CATEGORIES_MAX_LIMIT,
  COURSES_MAX_LIMIT,
  CURRICULUMS_MAX_LIMIT,
  USERS_MAX_LIMIT,
  VENUES_MAX_LIMIT,
} from '../schemas/academy/directory.js';

/** List parameters: the filters, `limit` as the page size (clamped to the list's maximum) and a first `start`. */
export type AcademyListParams<Q> = Partial<Q>;

// ------------------------------------------------------------------------------------------------ limits

/**
 * Largest `limit` of each list. The directory's come from the server's constants (a type check fails if they
 * drift); the event lists' are those of docs/academy-api.md.
 */
export const MAX = {
  events: 100,
  offers: 20,
  participants: 100,
  attendance: 20,
  users: 100 as USERS_MAX_LIMIT,
  courses: 100 as COURSES_MAX_LIMIT,
  curriculums: 100 as CURRICULUMS_MAX_LIMIT,
  categories: 100 as CATEGORIES_MAX_LIMIT,
  venues: 20 as VENUES_MAX_LIMIT,
} as const;

/** Page size: the caller's `limit`, else the list's maximum, never above it, at least 1. */
function pageSize(limit: unknown, max: number): number {
  const n = typeof limit === 'number' && Number.isFinite(limit) ? Math.floor(limit) : max;
  return Math.min(max, Math.max(1, n));
}

// ------------------------------------------------------------------------------------------------ core

/** Constructor options of {@link AcademyClient}. */
export interface AcademyClientOptions extends HttpOptions {
  /** The server's origin, for example `http://127.0.0.1:8080`; the client adds `/v1`. One ending in `/v1` works too. */
  baseUrl: string;
  /** The academy id. */
  acadId: number | string;
  /** The academy's API key, sent in the `X-API-Key` header (never in the URL). Never logged. */
  apiKey: string;
}

/** Normalises `baseUrl` to the API root `…/v1` (no trailing slash). */
export function academyApiRoot(baseUrl: string): string {
  return apiRoot(baseUrl, '/v1');
}

/** `a=1&ids=1&ids=2`: arrays as repeated keys, undefined and null left out. */
function academyQuery(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.append(name, String(value));
  }
  return params.toString();
}

interface CallInit {
  query?: Record<string, unknown>;
  body?: unknown;
  idempotent?: boolean;
}

/** @internal */
export class AcademyCore {
  readonly root: string;
  readonly http: HttpTransport;

  constructor(private readonly options: AcademyClientOptions) {
    this.root = academyApiRoot(options.baseUrl);
    this.http = new HttpTransport(options);
  }

  error(request: HttpRequest, response: Response, text: string): AcademyApiError {
    return academyError(errorInitOf(request, response, text, academyFallbackCode));
  }

  async send(
    method: string,
    path: string,
    init: CallInit,
    options?: RequestOptions,
  ): Promise<{ response: Response; text: string }> {
    const query = academyQuery({ acadId: this.options.acadId, ...(init.query ?? {}) });
    const headers: Record<string, string> = { 'x-api-key': this.options.apiKey, accept: 'application/json' };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const request: HttpRequest = {
      method,
      url: `${this.root}${path}?${query}`,
      headers,
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      ...(init.idempotent !== undefined ? { idempotent: init.idempotent } : {}),
    };
    const { response, text = '' } = await this.http.send(request, options);
    if (!response.ok) throw this.error(request, response, text);
    return { response, text };
  }

  async json<T>(method: string, path: string, init: CallInit = {}, options?: RequestOptions): Promise<T> {
    const { text } = await this.send(method, path, init, options);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /**
   * A `start`/`limit` list. `extract` reads a page's items (and total, when the answer has one); pages follow until
   * the total is reached, or a page comes back shorter than the page size.
   */
  pager<T, R>(
    path: string,
    params: Record<string, unknown> | undefined,
    max: number,
    extract: (answer: R) => { items: T[]; total?: number },
    options: RequestOptions = {},
  ): AutoPager<T> {
    const { start, limit, ...filters } = params ?? {};
    const size = pageSize(limit, max);
    const first = typeof start === 'number' && start > 0 ? String(Math.floor(start)) : undefined;
    return new AutoPager<T>(
      async (at, opts): Promise<Page<T>> => {
        const position = at ? Number(at) : 0;
        const { response, text } = await this.send(
          'GET',
          path,
          { query: { ...filters, start: position, limit: size } },
          opts,
        );
        const { items, total } = extract(JSON.parse(text) as R);
        const reached = position + items.length;
        const more = items.length > 0 && (total !== undefined ? reached < total : items.length >= size);
        const requestId = response.headers.get('x-request-id');
        return {
          items,
          ...(total !== undefined ? { total } : {}),
          ...(more ? { nextCursor: String(reached) } : {}),
          ...(requestId ? { requestId } : {}),
        };
      },
      options,
      first,
    );
  }
}
