/**
 * The HR client's core: the low-level caller behind every resource (token, JSON, errors, pages), the builders of
 * the standard verbs, and the method types the resources are made of. Each resource lives in its own file next to
 * this one; `client.ts` composes them.
 */

import { errorInitOf, type HrApiError, hrError, hrFallbackCode } from '../errors.js';
import { apiRoot, type HttpOptions, type HttpRequest, HttpTransport, type RequestOptions } from '../http.js';
import { AutoPager, type Page } from '../pagination.js';
import type { TokenResponse } from '../schemas/hr/core/auth.js';
import type { CommaList } from '../wire.js';
import { TokenCache } from './token-cache.js';

// ------------------------------------------------------------------------------------------------ types

/**
 * A query parameter value. A comma-separated list of known values (a status, an embed, a sort) takes one value or
 * an array of them, typed as their union; any other string parameter also takes an array. Arrays are sent
 * comma-separated (`status=opened,pending`).
 */
type QueryValue<V> = V extends CommaList<infer E> ? E | readonly E[] : V extends string ? V | readonly V[] : V;

/** The query parameters of a call, typed from the server's schema. Arrays of strings are sent comma-separated. */
export type QueryParams<Q> = { [K in keyof Q]?: QueryValue<Q[K]> };

/** The parameters of a list: its filters and `per_page`; `cursor` starts from a page you already know. */
export type ListParams<Q> = Omit<QueryParams<Q>, 'page'>;

/** `list(params?)`: an {@link AutoPager} over every item (`for await`), or by page with `.pages()`. */
export type ListMethod<Item, Q> = (params?: ListParams<Q>, options?: RequestOptions) => AutoPager<Item>;
/** `count(params?)`: the number of items a list with these filters holds (a `HEAD` call's `X-Total-Count`). */
export type CountMethod<Q> = (params?: QueryParams<Q>, options?: RequestOptions) => Promise<number>;
/** `retrieve(id, params?)`: one object. */
export type RetrieveMethod<Item, Q = Record<never, never>> = (
  id: string,
  params?: QueryParams<Q>,
  options?: RequestOptions,
) => Promise<Item>;
/** `create(body)`: a `POST` that creates an object and answers it. */
export type CreateMethod<Body, Item> = (body: Body, options?: RequestOptions) => Promise<Item>;
/** `update(id, body)`: a `PATCH` that changes only the attributes sent. */
export type UpdateMethod<Body, Item> = (id: string, body: Body, options?: RequestOptions) => Promise<Item>;
/**
 * `upsert(id, body)`: a `PUT` at the id: creates the object (where the resource allows it) or replaces every
 * attribute. `options.query` carries the route's query parameters, if any.
 */
export type UpsertMethod<Body, Item, Q = Record<never, never>> = (
  id: string,
  body: Body,
  options?: RequestOptions & { query?: QueryParams<Q> },
) => Promise<Item>;
/** `del(id)`: a `DELETE`; resolves when the server answered 204. */
export type DelMethod = (id: string, options?: RequestOptions) => Promise<void>;
/** A preview's options: its width (`small`, `normal` by default, `large`) and the share of the page's height. */
export interface PreviewParams {
  size?: 'small' | 'normal' | 'large';
  /** Only on the previews of a request's files: the share of the page's height, from its top, in (0, 1]. */
  crop_rate?: number;
}

/** `download(...)`: the raw `Response` of a file download (status checked), to stream or read as you like. */
export type DownloadResponse = Response;

/** Constructor options of {@link HrClient}. */
export interface HrClientOptions extends HttpOptions {
  /**
   * The server's origin, for example `http://127.0.0.1:8080`; the client adds `/api/v2/client`. A URL that already
   * ends in `/api/v2/client` works too.
   */
  baseUrl: string;
  /** The application id (HTTP Basic user of the token endpoint). */
  applicationId: string;
  /** The application secret (HTTP Basic password). Never logged. */
  applicationSecret: string;
  /** The client (tenant) id the tokens are for. */
  clientId: string;
  /**
   * Refresh the token this many seconds before it expires. Default 60; never more than half the token's lifetime,
   * so a short-lived token is still used.
   */
  tokenRefreshMarginSeconds?: number;
}

/** A file to upload: a `Blob` (or `File`), or bytes with a name. */
export interface UploadInput {
  /** The bytes. */
  file: Blob | Uint8Array | ArrayBuffer | string;
  /** The file name the server stores (default `file`, or the `File`'s name). */
  filename?: string;
  /** The content type of the part (informative: the server detects the type from the bytes). */
  contentType?: string;
}

interface CallInit {
  query?: Record<string, unknown>;
  body?: unknown;
  form?: FormData;
  idempotent?: boolean;
}

interface CallResult<T> {
  data: T;
  response: Response;
}

// ------------------------------------------------------------------------------------------------ helpers

const HR_PATH = '/api/v2/client';

/** Normalises `baseUrl` to the API root `…/api/v2/client` (no trailing slash). */
export function hrApiRoot(baseUrl: string): string {
  return apiRoot(baseUrl, HR_PATH);
}

/** True in a browser (a DOM window, or a dedicated/shared/service worker). */
export function isBrowser(): boolean {
  const g = globalThis as {
    window?: unknown;
    document?: unknown;
    WorkerGlobalScope?: unknown;
    importScripts?: unknown;
  };
  return (
    (typeof g.window !== 'undefined' && typeof g.document !== 'undefined') ||
    (typeof g.WorkerGlobalScope !== 'undefined' && typeof g.importScripts === 'function')
  );
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** `a=1&b=x,y`: arrays comma-separated, booleans `true`/`false`, undefined and null left out. */
export function hrQueryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.append(name, Array.isArray(value) ? value.map(String).join(',') : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The `cursor` of a `Link` header's `rel="next"` entry. */
function nextFromLink(link: string | null): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const m = /<([^>]*)>\s*;\s*rel="?next"?/i.exec(part);
    if (m?.[1]) {
      const q = m[1].indexOf('?');
      const cursor = q < 0 ? null : new URLSearchParams(m[1].slice(q + 1)).get('cursor');
      if (cursor) return cursor;
    }
  }
  return undefined;
}

function pageOf<T>(data: T[], response: Response): Page<T> {
  const next = response.headers.get('next-cursor') ?? nextFromLink(response.headers.get('link'));
  const previous = response.headers.get('previous-cursor');
  const requestId = response.headers.get('x-request-id');
  return {
    items: data,
    ...(next ? { nextCursor: next } : {}),
    ...(previous ? { previousCursor: previous } : {}),
    ...(requestId ? { requestId } : {}),
  };
}

/** Encodes one path segment. */
export const enc = encodeURIComponent;

// ------------------------------------------------------------------------------------------------ core

/** The low-level caller behind every resource: auth, JSON, errors, pages. @internal */
export class HrCore {
  readonly root: string;
  readonly http: HttpTransport;
  readonly tokens: TokenCache;

  constructor(private readonly options: HrClientOptions) {
    this.root = hrApiRoot(options.baseUrl);
    this.http = new HttpTransport(options);
    this.tokens = new TokenCache(() => this.requestToken(), options.tokenRefreshMarginSeconds ?? 60);
  }

  /** The client (tenant) id the tokens are for (the `X-Client-Id` of the `/file/*` calls). */
  get clientId(): string {
    return this.options.clientId;
  }

  private basic(): string {
    return `Basic ${base64(`${this.options.applicationId}:${this.options.applicationSecret}`)}`;
  }

  /** `POST /tokens` with the application's Basic credentials. */
  private async requestToken(): Promise<{ token: string; expiresIn: number }> {
    const request: HttpRequest = {
      method: 'POST',
      url: `${this.root}/tokens`,
      headers: {
        authorization: this.basic(),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'client',
        client_id: this.options.clientId,
      }).toString(),
      // Asking for a token changes nothing on the server: safe to repeat.
      idempotent: true,
    };
    // No caller signal: a shared refresh must not fail because one of its callers gave up.
    const { response, text } = await this.http.send(request, {});
    if (!response.ok) throw this.error(request, response, text ?? '');
    const body = JSON.parse(text ?? '{}') as TokenResponse;
    return { token: body.access_token, expiresIn: body.expires_in };
  }

  /** `POST /revoke_token` of the cached token, then forgets it. */
  async revokeToken(options: RequestOptions = {}): Promise<void> {
    const token = this.tokens.peek();
    if (!token) return;
    const request: HttpRequest = {
      method: 'POST',
      url: `${this.root}/revoke_token`,
      headers: { authorization: this.basic(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }).toString(),
      idempotent: true,
    };
    const { response, text } = await this.http.send(request, options);
    if (!response.ok) throw this.error(request, response, text ?? '');
    this.tokens.invalidate(token);
  }

  error(request: HttpRequest, response: Response, text: string): HrApiError {
    return hrError(
      errorInitOf(request, response, text, (status, headers) =>
        hrFallbackCode(status, headers.get('www-authenticate')),
      ),
    );
  }

  /**
   * One authenticated call. A `401 invalid_token` (a revoked or expired token) refreshes the token once and
   * repeats the call once.
   */
  async send(
    method: string,
    path: string,
    init: CallInit,
    options: RequestOptions = {},
    stream = false,
  ): Promise<{ response: Response; text?: string }> {
    const url = `${this.root}${path}${hrQueryString(init.query)}`;
    for (let attempt = 1; ; attempt++) {
      const token = await this.tokens.get(options.signal);
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
      let body: HttpRequest['body'];
      if (init.form) body = init.form;
      else if (init.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(init.body);
      }
      const request: HttpRequest = {
        method,
        url,
        headers,
        ...(body !== undefined ? { body } : {}),
        ...(init.idempotent !== undefined ? { idempotent: init.idempotent } : {}),
      };
      const result = await this.http.send(request, options, stream);
      const { response } = result;
      if (response.ok) return result;
      const text = result.text ?? (await response.text().catch(() => ''));
      const error = this.error(request, response, text);
      if (response.status === 401 && error.code === 'invalid_token' && attempt === 1) {
        this.tokens.invalidate(token);
        continue;
      }
      throw error;
    }
  }

  /** A call whose answer is JSON (or nothing). */
  async call<T>(method: string, path: string, init: CallInit = {}, options?: RequestOptions): Promise<CallResult<T>> {
    const { response, text } = await this.send(method, path, init, options);
    const data = (text ? JSON.parse(text) : undefined) as T;
    return { data, response };
  }

  async json<T>(method: string, path: string, init: CallInit = {}, options?: RequestOptions): Promise<T> {
    return (await this.call<T>(method, path, init, options)).data;
  }

  /** A list that follows `Next-Cursor` (or the `Link` header's `rel="next"`). */
  pager<T>(path: string, params: Record<string, unknown> | undefined, options: RequestOptions = {}): AutoPager<T> {
    const { cursor, ...filters } = params ?? {};
    return new AutoPager<T>(
      async (at, opts) => {
        const { data, response } = await this.call<T[]>(
          'GET',
          path,
          { query: { ...filters, ...(at ? { cursor: at } : {}) } },
          opts,
        );
        return pageOf(data ?? [], response);
      },
      options,
      typeof cursor === 'string' ? cursor : undefined,
    );
  }

  /** A `POST …/search` list: filters in the body, the next page's cursor in `next_cursor`. */
  searchPager<T>(path: string, body: Record<string, unknown> | undefined, options: RequestOptions = {}): AutoPager<T> {
    const { next_cursor, ...filters } = body ?? {};
    return new AutoPager<T>(
      async (at, opts) => {
        const { data, response } = await this.call<T[]>(
          'POST',
          path,
          { body: { ...filters, ...(at ? { next_cursor: at } : {}) }, idempotent: true },
          opts,
        );
        return pageOf(data ?? [], response);
      },
      options,
      typeof next_cursor === 'string' ? next_cursor : undefined,
    );
  }

  async count(path: string, params: Record<string, unknown> | undefined, options?: RequestOptions): Promise<number> {
    const { response } = await this.call<undefined>('HEAD', path, { query: params ?? {} }, options);
    return Number(response.headers.get('x-total-count') ?? '0');
  }

  async download(path: string, options?: RequestOptions, query?: Record<string, unknown>): Promise<Response> {
    return (await this.send('GET', path, query ? { query } : {}, options, true)).response;
  }

  /** A preview's page count: `HEAD …/preview` answers 204 with `Page-Count`. */
  async pageCount(path: string, options?: RequestOptions): Promise<number> {
    const response = await this.head(path, options);
    return Number(response.headers.get('page-count') ?? '0');
  }

  async head(path: string, options?: RequestOptions): Promise<Response> {
    return (await this.send('HEAD', path, {}, options)).response;
  }
}

/** Builders of the standard verbs, bound to one core. @internal */
export class Verbs {
  constructor(private readonly core: HrCore) {}

  list<Item, Q>(path: string): ListMethod<Item, Q> {
    return (params, options) => this.core.pager<Item>(path, params as Record<string, unknown>, options);
  }
  count<Q>(path: string): CountMethod<Q> {
    return (params, options) => this.core.count(path, params as Record<string, unknown>, options);
  }
  retrieve<Item, Q = Record<never, never>>(path: string): RetrieveMethod<Item, Q> {
    return (id, params, options) =>
      this.core.json<Item>('GET', `${path}/${enc(id)}`, { query: params as Record<string, unknown> }, options);
  }
  create<Body, Item>(path: string): CreateMethod<Body, Item> {
    return (body, options) => this.core.json<Item>('POST', path, { body }, options);
  }
  update<Body, Item>(path: string): UpdateMethod<Body, Item> {
    return (id, body, options) => this.core.json<Item>('PATCH', `${path}/${enc(id)}`, { body }, options);
  }
  upsert<Body, Item, Q = Record<never, never>>(path: string): UpsertMethod<Body, Item, Q> {
    return (id, body, options = {}) => {
      const { query, ...rest } = options;
      return this.core.json<Item>('PUT', `${path}/${enc(id)}`, { body, query: query as Record<string, unknown> }, rest);
    };
  }
  del(path: string): DelMethod {
    return async (id, options) => {
      await this.core.call('DELETE', `${path}/${enc(id)}`, {}, options);
    };
  }
}

function toBlob(input: UploadInput): { blob: Blob; name: string } {
  const { file } = input;
  const type = input.contentType ? { type: input.contentType } : {};
  if (file instanceof Blob) {
    const name = input.filename ?? ((file as { name?: unknown }).name as string | undefined) ?? 'file';
    return { blob: input.contentType ? new Blob([file], type) : file, name };
  }
  // A Uint8Array over any buffer: Blob copies its bytes (the DOM typings want an ArrayBuffer-backed one).
  const part: string | Uint8Array<ArrayBuffer> =
    typeof file === 'string'
      ? file
      : file instanceof ArrayBuffer
        ? new Uint8Array(file)
        : (file as Uint8Array<ArrayBuffer>);
  return { blob: new Blob([part], type), name: input.filename ?? 'file' };
}

export function formOf(input: UploadInput, field = 'file'): FormData {
  const { blob, name } = toBlob(input);
  const form = new FormData();
  form.append(field, blob, name);
  return form;
}

/** An object id in a path. */
export type Id = string;
