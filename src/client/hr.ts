/**
 * The HR service delivery client API (`/api/v2/client`) client.
 *
 * Parameter and result types come from the server's TypeBox schemas through type-only imports (erased at build
 * time), so this module loads nothing of the server at run time.
 */
import type { Static } from '@sinclair/typebox';
import type {
  ProcessTemplate,
  ProcessTemplateCountQuery,
  ProcessTemplateListQuery,
  ProcessTemplatePut,
  TaskTemplate,
  TaskTemplatePut,
} from '../hr/automation/process-templates/schemas.js';
import type { Process, ProcessCreate, ProcessGetQuery, ProcessListQuery } from '../hr/automation/processes/schemas.js';
import type {
  Task,
  TaskComplete,
  TaskFile,
  TaskFilePatch,
  TaskFilePost,
  TaskFill,
  TaskGetQuery,
  TaskListQuery,
  TaskPatch,
} from '../hr/automation/tasks/schemas.js';
import type { TokenResponse } from '../hr/core/auth/schemas.js';
import type {
  CustomField,
  CustomFieldListQuery,
  CustomFieldPatch,
  CustomFieldPut,
} from '../hr/core/custom-fields/schemas.js';
import type {
  Employee,
  EmployeeByExternalId,
  EmployeeCreate,
  EmployeeListQuery,
  EmployeePatch,
  EmployeeSearchBody,
} from '../hr/core/employees/schemas.js';
import type {
  OrganizationGroup,
  OrganizationGroupListQuery,
  OrganizationGroupPatch,
  OrganizationGroupPut,
} from '../hr/core/organization-groups/schemas.js';
import type {
  Organization,
  OrganizationCountQuery,
  OrganizationListQuery,
  OrganizationPatch,
  OrganizationPut,
} from '../hr/core/organizations/schemas.js';
import type {
  AuditPermissionsFull,
  AuditPermissionsPut,
  CorePermissionsFull,
  CorePermissionsGet,
  CorePermissionsPut,
  EfmPermissionsFull,
  EfmPermissionsPut,
  Role,
  RoleListQuery,
  RolePut,
  WebhookPermissionsFull,
  WebhookPermissionsPut,
} from '../hr/core/roles/schemas.js';
import type { DocumentFileId, UploadDocument } from '../hr/core/uploads/schemas.js';
import type { User, UserCountQuery, UserCreate, UserListQuery, UserPatch, UserPut } from '../hr/core/users/schemas.js';
import type {
  CompanyDocumentType,
  CompanyDocumentTypeInput,
  CompanyDocumentTypeListQuery,
  CompanyDocumentTypePatch,
  EmployeeDocumentType,
  EmployeeDocumentTypeInput,
  EmployeeDocumentTypeListQuery,
  EmployeeDocumentTypePatch,
} from '../hr/documents/document-types/schemas.js';
import type {
  CompactEmployeeDocument,
  CompanyDocument,
  CompanyDocumentCreate,
  CompanyDocumentListQuery,
  CompanyDocumentPatch,
  CompanyDocumentUpdate,
  EmployeeDocument,
  EmployeeDocumentCreate,
  EmployeeDocumentListQuery,
  EmployeeDocumentPatch,
  EmployeeDocumentSearch,
  EmployeeDocumentUpdate,
  ExpirationPayload,
  ExpirePayload,
} from '../hr/documents/documents/schemas.js';
import type { Folder, FolderListQuery } from '../hr/documents/folders/schemas.js';
import type {
  KbArticle,
  KbArticleListQuery,
  KbArticlePatch,
  KbArticlePut,
  KbTag,
  KbTagListQuery,
} from '../hr/knowledge/kb-articles/schemas.js';
import type {
  KbCategory,
  KbCategoryGetQuery,
  KbCategoryListQuery,
  KbCategoryPatch,
  KbCategoryPut,
  KbCategoryPutQuery,
} from '../hr/knowledge/kb-categories/schemas.js';
import type {
  CustomStatus,
  CustomStatusCountQuery,
  CustomStatusListQuery,
  CustomStatusPut,
} from '../hr/people-assist/custom-statuses/schemas.js';
import type {
  MacroCountQuery,
  MacroDetail,
  MacroGetQuery,
  MacroList,
  MacroListQuery,
  MacroPut,
} from '../hr/people-assist/macros/schemas.js';
import type {
  RequestForm,
  RequestFormCountQuery,
  RequestFormGetQuery,
  RequestFormListQuery,
  RequestFormPatch,
  RequestFormPut,
} from '../hr/people-assist/request-forms/schemas.js';
import type {
  AssigneeQuery,
  CommentCreate,
  CommentListQuery,
  EmbedQuery,
  LinkCreate,
  MacroRun,
  RequestComment,
  RequestCreate,
  RequestFull,
  RequestFullWithAttachments,
  RequestListQuery,
  RequestPatch,
  UserSimplified,
} from '../hr/people-assist/requests/schemas.js';
import { AtriumUsageError, errorInitOf, type HrApiError, hrError, hrFallbackCode } from './errors.js';
import { type HttpOptions, type HttpRequest, HttpTransport, type RequestOptions, raceSignal } from './http.js';
import { AutoPager, type Page } from './pagination.js';

// ------------------------------------------------------------------------------------------------ types

/** A query parameter value: a string parameter also takes an array, sent comma-separated (`status=opened,pending`). */
type QueryValue<V> = V extends string ? V | readonly V[] : V;

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

/** The HR API's permission modules of a role, with the shapes of their GET answer, PUT body and PUT answer. */
export interface RolePermissionModules {
  core: { get: CorePermissionsGet; put: CorePermissionsPut; answer: CorePermissionsFull };
  efm: { get: EfmPermissionsFull; put: EfmPermissionsPut; answer: EfmPermissionsFull };
  audit: { get: AuditPermissionsFull; put: AuditPermissionsPut; answer: AuditPermissionsFull };
  webhook: { get: WebhookPermissionsFull; put: WebhookPermissionsPut; answer: WebhookPermissionsFull };
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
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new AtriumUsageError(`baseUrl must be an absolute URL such as http://127.0.0.1:8080, not "${baseUrl}".`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith(HR_PATH) ? path : `${path}${HR_PATH}`;
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
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

const enc = encodeURIComponent;

// ------------------------------------------------------------------------------------------------ token cache

interface CachedToken {
  value: string;
  /** Local epoch ms after which the token is no longer used. */
  refreshAt: number;
}

/**
 * The access token: fetched on first use, cached, refreshed a margin before it expires; concurrent callers
 * share one refresh.
 */
class TokenCache {
  private token: CachedToken | undefined;
  private inflight: Promise<string> | undefined;
  /** Token requests made (successful or not), for diagnostics. */
  requests = 0;

  constructor(
    private readonly fetchToken: () => Promise<{ token: string; expiresIn: number }>,
    private readonly marginSeconds: number,
  ) {}

  /** A valid token: the cached one, or a fresh one (shared with every concurrent caller). */
  get(signal?: AbortSignal): Promise<string> {
    const t = this.token;
    if (t && Date.now() < t.refreshAt) return Promise.resolve(t.value);
    return raceSignal(this.refresh(), signal);
  }

  /** Forgets `stale` (if still cached) so the next `get` fetches a new token. */
  invalidate(stale: string): void {
    if (this.token?.value === stale) this.token = undefined;
  }

  /** The cached token, without fetching. */
  peek(): string | undefined {
    return this.token?.value;
  }

  clear(): void {
    this.token = undefined;
  }

  private refresh(): Promise<string> {
    if (this.inflight) return this.inflight;
    const started = Date.now();
    this.requests++;
    const p = this.fetchToken()
      .then(({ token, expiresIn }) => {
        const lifetimeMs = Math.max(0, expiresIn) * 1000;
        const margin = Math.min(this.marginSeconds * 1000, lifetimeMs / 2);
        this.token = { value: token, refreshAt: started + lifetimeMs - margin };
        return token;
      })
      .finally(() => {
        if (this.inflight === p) this.inflight = undefined;
      });
    this.inflight = p;
    return p;
  }
}

// ------------------------------------------------------------------------------------------------ core

/** The low-level caller behind every resource: auth, JSON, errors, pages. @internal */
class HrCore {
  readonly root: string;
  readonly http: HttpTransport;
  readonly tokens: TokenCache;

  constructor(private readonly options: HrClientOptions) {
    this.root = hrApiRoot(options.baseUrl);
    this.http = new HttpTransport(options);
    this.tokens = new TokenCache(() => this.requestToken(), options.tokenRefreshMarginSeconds ?? 60);
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
    const body = JSON.parse(text ?? '{}') as Static<typeof TokenResponse>;
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

  async download(path: string, options?: RequestOptions): Promise<Response> {
    return (await this.send('GET', path, {}, options, true)).response;
  }

  async head(path: string, options?: RequestOptions): Promise<Response> {
    return (await this.send('HEAD', path, {}, options)).response;
  }
}

/** Builders of the standard verbs, bound to one core. @internal */
class Verbs {
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
  const part = typeof file === 'string' ? file : file instanceof ArrayBuffer ? new Uint8Array(file) : file;
  return { blob: new Blob([part], type), name: input.filename ?? 'file' };
}

function formOf(input: UploadInput): FormData {
  const { blob, name } = toBlob(input);
  const form = new FormData();
  form.append('file', blob, name);
  return form;
}

type Id = string;

/** The verbs of `/employee_documents` and `/company_documents`. */
function documentResource<Doc, Create, Update, Patch, ListQ>(core: HrCore, v: Verbs, path: string) {
  return {
    /** Lists documents (cursor pages). */
    list: v.list<Doc, ListQ>(path),
    /** Creates a document from an upload (`uploaded_file`). */
    create: v.create<Create, Doc>(path),
    /** Gets a document. */
    retrieve: v.retrieve<Doc>(path),
    /** Replaces a document's attributes (`PUT`; the document must exist). */
    upsert: v.upsert<Update, Doc>(path),
    /** Changes some attributes (`PATCH`). */
    update: v.update<Patch, Doc>(path),
    /** Deletes a document for good. */
    del: v.del(path),
    /** Moves a document to the trash. */
    trash: async (id: Id, options?: RequestOptions): Promise<void> => {
      await core.call('PUT', `${path}/${enc(id)}/trash`, {}, options);
    },
    /** Restores a document from the trash. */
    untrash: async (id: Id, options?: RequestOptions): Promise<void> => {
      await core.call('PUT', `${path}/${enc(id)}/untrash`, {}, options);
    },
    /** Deletes every document in the trash. */
    emptyTrash: async (options?: RequestOptions): Promise<void> => {
      await core.call('DELETE', `${path}/trash`, {}, options);
    },
    /** Expires a document now or at a date (`PUT …/expire`). */
    expire: async (id: Id, body: Static<typeof ExpirePayload>, options?: RequestOptions): Promise<void> => {
      await core.call('PUT', `${path}/${enc(id)}/expire`, { body }, options);
    },
    /** Changes a document's expiration (`PUT …/expiration/update`). */
    updateExpiration: async (
      id: Id,
      body: Static<typeof ExpirationPayload>,
      options?: RequestOptions,
    ): Promise<void> => {
      await core.call('PUT', `${path}/${enc(id)}/expiration/update`, { body }, options);
    },
    /** Downloads the file: the raw `Response` (pass `headers: {range: 'bytes=0-99'}` for a part). */
    download: (id: Id, options?: RequestOptions): Promise<DownloadResponse> =>
      core.download(`${path}/${enc(id)}/file`, options),
    /** The download's headers without the body (`HEAD …/file`): size, type, name, ETag. */
    fileInfo: (id: Id, options?: RequestOptions): Promise<Response> => core.head(`${path}/${enc(id)}/file`, options),
  };
}

function hrResources(core: HrCore) {
  const v = new Verbs(core);
  const permissions = {
    /** The permissions of one module of a role. */
    retrieve: <M extends keyof RolePermissionModules>(
      roleId: Id,
      module: M,
      options?: RequestOptions,
    ): Promise<RolePermissionModules[M]['get']> =>
      core.json('GET', `/roles/${enc(roleId)}/permissions/${module}`, {}, options),
    /** Replaces the permissions of one module of a role. */
    update: <M extends keyof RolePermissionModules>(
      roleId: Id,
      module: M,
      body: RolePermissionModules[M]['put'],
      options?: RequestOptions,
    ): Promise<RolePermissionModules[M]['answer']> =>
      core.json('PUT', `/roles/${enc(roleId)}/permissions/${module}`, { body }, options),
  };
  const taskTemplates = {
    /** The task templates of a process template (one array, not paged). */
    list: (processTemplateId: Id, options?: RequestOptions): Promise<TaskTemplate[]> =>
      core.json('GET', `/process_templates/${enc(processTemplateId)}/task_templates`, {}, options),
    /** One task template. */
    retrieve: (processTemplateId: Id, id: Id, options?: RequestOptions): Promise<TaskTemplate> =>
      core.json('GET', `/process_templates/${enc(processTemplateId)}/task_templates/${enc(id)}`, {}, options),
    /** Creates or replaces a task template. */
    upsert: (processTemplateId: Id, id: Id, body: TaskTemplatePut, options?: RequestOptions): Promise<TaskTemplate> =>
      core.json('PUT', `/process_templates/${enc(processTemplateId)}/task_templates/${enc(id)}`, { body }, options),
    /** Deletes a task template. */
    del: async (processTemplateId: Id, id: Id, options?: RequestOptions): Promise<void> => {
      await core.call('DELETE', `/process_templates/${enc(processTemplateId)}/task_templates/${enc(id)}`, {}, options);
    },
  };
  const taskFiles = {
    /** Attaches an upload to a `file` field of a task. */
    create: (taskId: Id, body: TaskFilePost, options?: RequestOptions): Promise<TaskFile> =>
      core.json('POST', `/tasks/${enc(taskId)}/files`, { body }, options),
    /** One file of a task. */
    retrieve: (taskId: Id, fileId: Id, options?: RequestOptions): Promise<TaskFile> =>
      core.json('GET', `/tasks/${enc(taskId)}/files/${enc(fileId)}`, {}, options),
    /** Replaces a task file with another upload. */
    update: (taskId: Id, fileId: Id, body: Static<typeof TaskFilePatch>, options?: RequestOptions): Promise<TaskFile> =>
      core.json('PATCH', `/tasks/${enc(taskId)}/files/${enc(fileId)}`, { body }, options),
    /** Removes a file from a task. */
    del: async (taskId: Id, fileId: Id, options?: RequestOptions): Promise<void> => {
      await core.call('DELETE', `/tasks/${enc(taskId)}/files/${enc(fileId)}`, {}, options);
    },
    /** Downloads a task file (raw `Response`). */
    download: (taskId: Id, fileId: Id, options?: RequestOptions): Promise<DownloadResponse> =>
      core.download(`/tasks/${enc(taskId)}/files/${enc(fileId)}/download`, options),
  };
  const requestFiles = (kind: 'attachments' | 'files') => ({
    /** Downloads it (raw `Response`). */
    download: (requestId: Id, id: Id, options?: RequestOptions): Promise<DownloadResponse> =>
      core.download(`/requests/${enc(requestId)}/${kind}/${enc(id)}/download`, options),
    /** Deletes it. */
    del: async (requestId: Id, id: Id, options?: RequestOptions): Promise<void> => {
      await core.call('DELETE', `/requests/${enc(requestId)}/${kind}/${enc(id)}`, {}, options);
    },
  });

  return {
    organizations: {
      list: v.list<Organization, OrganizationListQuery>('/organizations'),
      count: v.count<OrganizationCountQuery>('/organizations'),
      retrieve: v.retrieve<Organization>('/organizations'),
      upsert: v.upsert<OrganizationPut, Organization>('/organizations'),
      update: v.update<OrganizationPatch, Organization>('/organizations'),
    },
    organizationGroups: {
      list: v.list<OrganizationGroup, OrganizationGroupListQuery>('/organization_groups'),
      retrieve: v.retrieve<OrganizationGroup>('/organization_groups'),
      upsert: v.upsert<OrganizationGroupPut, OrganizationGroup>('/organization_groups'),
      update: v.update<OrganizationGroupPatch, OrganizationGroup>('/organization_groups'),
    },
    uploads: {
      /** Uploads a temporary file (`POST /uploads`, multipart); its `id` is the `upload_id` other calls take. */
      create: (input: UploadInput, options?: RequestOptions): Promise<UploadDocument> =>
        core.json('POST', '/uploads', { form: formOf(input) }, options),
      /** Uploads a temporary file (`POST /document`): `{filename, file_id}`, the `uploaded_file` of a document. */
      createDocumentFile: (input: UploadInput, options?: RequestOptions): Promise<DocumentFileId> =>
        core.json('POST', '/document', { form: formOf(input) }, options),
    },
    roles: {
      list: v.list<Role, Static<typeof RoleListQuery>>('/roles'),
      retrieve: v.retrieve<Role>('/roles'),
      upsert: v.upsert<RolePut, Role>('/roles'),
      permissions,
    },
    users: {
      list: v.list<User, UserListQuery>('/users'),
      count: v.count<UserCountQuery>('/users'),
      create: v.create<UserCreate, User>('/users'),
      retrieve: v.retrieve<User>('/users'),
      upsert: v.upsert<UserPut, User>('/users'),
      update: v.update<UserPatch, User>('/users'),
    },
    customFields: {
      list: v.list<CustomField, Static<typeof CustomFieldListQuery>>('/custom_fields'),
      retrieve: v.retrieve<CustomField>('/custom_fields'),
      upsert: v.upsert<CustomFieldPut, CustomField>('/custom_fields'),
      update: v.update<CustomFieldPatch, CustomField>('/custom_fields'),
    },
    employees: {
      list: v.list<Employee, EmployeeListQuery>('/employees'),
      create: v.create<EmployeeCreate, Employee>('/employees'),
      /** `POST /employees/search`: filters in the body; pages follow `next_cursor`. */
      search: (body?: Omit<EmployeeSearchBody, 'next_cursor'>, options?: RequestOptions): AutoPager<Employee> =>
        core.searchPager<Employee>('/employees/search', body as Record<string, unknown>, options),
      retrieve: v.retrieve<Employee>('/employees'),
      upsert: v.upsert<EmployeeCreate, Employee>('/employees'),
      update: v.update<EmployeePatch, Employee>('/employees'),
      /** `PUT /employees/by_external_id/{external_id}`: creates (201) or replaces the employee with that id. */
      upsertByExternalId: (
        externalId: Id,
        body: Static<typeof EmployeeByExternalId>,
        options?: RequestOptions,
      ): Promise<Employee> => core.json('PUT', `/employees/by_external_id/${enc(externalId)}`, { body }, options),
    },
    employeeFolders: {
      list: v.list<Folder, FolderListQuery>('/employee_folders'),
      /** A folder and its ancestors, as the API answers it (an array). */
      retrieve: v.retrieve<Folder[]>('/employee_folders'),
    },
    companyFolders: {
      list: v.list<Folder, FolderListQuery>('/company_folders'),
      /** A folder and its ancestors, as the API answers it (an array). */
      retrieve: v.retrieve<Folder[]>('/company_folders'),
    },
    employeeDocumentTypes: {
      list: v.list<Static<typeof EmployeeDocumentType>, Static<typeof EmployeeDocumentTypeListQuery>>(
        '/employee_document_types',
      ),
      retrieve: v.retrieve<Static<typeof EmployeeDocumentType>>('/employee_document_types'),
      upsert: v.upsert<Static<typeof EmployeeDocumentTypeInput>, Static<typeof EmployeeDocumentType>>(
        '/employee_document_types',
      ),
      update: v.update<Static<typeof EmployeeDocumentTypePatch>, Static<typeof EmployeeDocumentType>>(
        '/employee_document_types',
      ),
    },
    companyDocumentTypes: {
      list: v.list<Static<typeof CompanyDocumentType>, Static<typeof CompanyDocumentTypeListQuery>>(
        '/company_document_types',
      ),
      retrieve: v.retrieve<Static<typeof CompanyDocumentType>>('/company_document_types'),
      upsert: v.upsert<Static<typeof CompanyDocumentTypeInput>, Static<typeof CompanyDocumentType>>(
        '/company_document_types',
      ),
      update: v.update<Static<typeof CompanyDocumentTypePatch>, Static<typeof CompanyDocumentType>>(
        '/company_document_types',
      ),
    },
    employeeDocuments: {
      ...documentResource<
        EmployeeDocument,
        Static<typeof EmployeeDocumentCreate>,
        Static<typeof EmployeeDocumentUpdate>,
        Static<typeof EmployeeDocumentPatch>,
        Static<typeof EmployeeDocumentListQuery>
      >(core, v, '/employee_documents'),
      /** `POST /employee_documents/search`: filters in the body; compact items with `compact_response: true`. */
      search: (
        body?: Omit<Static<typeof EmployeeDocumentSearch>, 'next_cursor' | 'page'>,
        options?: RequestOptions,
      ): AutoPager<EmployeeDocument | Static<typeof CompactEmployeeDocument>> =>
        core.searchPager('/employee_documents/search', body as Record<string, unknown>, options),
    },
    companyDocuments: documentResource<
      CompanyDocument,
      Static<typeof CompanyDocumentCreate>,
      Static<typeof CompanyDocumentUpdate>,
      Static<typeof CompanyDocumentPatch>,
      Static<typeof CompanyDocumentListQuery>
    >(core, v, '/company_documents'),
    processTemplates: {
      list: v.list<ProcessTemplate, Static<typeof ProcessTemplateListQuery>>('/process_templates'),
      count: v.count<Static<typeof ProcessTemplateCountQuery>>('/process_templates'),
      retrieve: v.retrieve<ProcessTemplate>('/process_templates'),
      upsert: v.upsert<ProcessTemplatePut, ProcessTemplate>('/process_templates'),
      taskTemplates,
    },
    processes: {
      list: v.list<Process, ProcessListQuery>('/processes'),
      create: v.create<ProcessCreate, Process>('/processes'),
      retrieve: v.retrieve<Process, Static<typeof ProcessGetQuery>>('/processes'),
      del: v.del('/processes'),
      /** Publishes a draft process: its tasks become `to_do` (or `blocked`). */
      publish: async (id: Id, options?: RequestOptions): Promise<void> => {
        await core.call('PUT', `/processes/${enc(id)}/publish`, {}, options);
      },
    },
    tasks: {
      list: v.list<Task, TaskListQuery>('/tasks'),
      retrieve: v.retrieve<Task, Static<typeof TaskGetQuery>>('/tasks'),
      update: v.update<TaskPatch, Task>('/tasks'),
      /** Answers a `fill_form` task's form (`POST …/fill`). */
      fill: (id: Id, body: TaskFill, options?: RequestOptions): Promise<Task> =>
        core.json('POST', `/tasks/${enc(id)}/fill`, { body }, options),
      /** Completes a task (`POST …/complete`). */
      complete: (id: Id, body: TaskComplete = {}, options?: RequestOptions): Promise<Task> =>
        core.json('POST', `/tasks/${enc(id)}/complete`, { body }, options),
      files: taskFiles,
    },
    kbCategories: {
      list: v.list<KbCategory, KbCategoryListQuery>('/kb_categories'),
      retrieve: v.retrieve<KbCategory, Static<typeof KbCategoryGetQuery>>('/kb_categories'),
      /** Creates or replaces a category; the answer is the category with its replicas (an array). */
      upsert: v.upsert<KbCategoryPut, KbCategory[], Static<typeof KbCategoryPutQuery>>('/kb_categories'),
      update: v.update<KbCategoryPatch, KbCategory>('/kb_categories'),
      del: v.del('/kb_categories'),
    },
    kbArticles: {
      list: v.list<KbArticle, KbArticleListQuery>('/kb_articles'),
      retrieve: v.retrieve<KbArticle>('/kb_articles'),
      upsert: v.upsert<KbArticlePut, KbArticle>('/kb_articles'),
      update: v.update<KbArticlePatch, KbArticle>('/kb_articles'),
      del: v.del('/kb_articles'),
    },
    kbTags: {
      list: v.list<KbTag, KbTagListQuery>('/kb_tags'),
    },
    customStatuses: {
      list: v.list<CustomStatus, CustomStatusListQuery>('/custom_status'),
      count: v.count<Static<typeof CustomStatusCountQuery>>('/custom_status'),
      retrieve: v.retrieve<CustomStatus>('/custom_status'),
      upsert: v.upsert<CustomStatusPut, CustomStatus>('/custom_status'),
    },
    macros: {
      list: v.list<MacroList, MacroListQuery>('/macros'),
      count: v.count<Static<typeof MacroCountQuery>>('/macros'),
      retrieve: v.retrieve<MacroDetail, Static<typeof MacroGetQuery>>('/macros'),
      upsert: v.upsert<MacroPut, MacroDetail>('/macros'),
    },
    requestForms: {
      list: v.list<RequestForm, RequestFormListQuery>('/request_forms'),
      count: v.count<RequestFormCountQuery>('/request_forms'),
      retrieve: v.retrieve<RequestForm, Static<typeof RequestFormGetQuery>>('/request_forms'),
      upsert: v.upsert<RequestFormPut, RequestForm, Static<typeof RequestFormGetQuery>>('/request_forms'),
      update: v.update<RequestFormPatch, RequestForm>('/request_forms'),
    },
    requests: {
      list: v.list<RequestFull, RequestListQuery>('/requests'),
      create: v.create<RequestCreate, RequestFullWithAttachments>('/requests'),
      retrieve: v.retrieve<RequestFullWithAttachments, Static<typeof EmbedQuery>>('/requests'),
      update: v.update<RequestPatch, RequestFullWithAttachments>('/requests'),
      del: v.del('/requests'),
      comments: {
        /** The comments of a request, oldest first (one array). */
        list: (
          requestId: Id,
          params?: QueryParams<Static<typeof CommentListQuery>>,
          options?: RequestOptions,
        ): Promise<RequestComment[]> =>
          core.json('GET', `/requests/${enc(requestId)}/comments`, { query: params }, options),
        /** Adds a comment. */
        create: (requestId: Id, body: CommentCreate, options?: RequestOptions): Promise<RequestComment> =>
          core.json('POST', `/requests/${enc(requestId)}/comments`, { body }, options),
        /** Downloads an attachment of a comment (raw `Response`). */
        downloadAttachment: (
          requestId: Id,
          commentId: Id,
          attachmentId: Id,
          options?: RequestOptions,
        ): Promise<DownloadResponse> =>
          core.download(
            `/requests/${enc(requestId)}/comments/${enc(commentId)}/attachments/${enc(attachmentId)}`,
            options,
          ),
      },
      /** The request's attachments (from `attachment_upload_ids`). */
      attachments: requestFiles('attachments'),
      /** The request's form files (answers of `file` fields). */
      files: requestFiles('files'),
      assignees: {
        /** The users assigned to a request: every one, in slices of `length` (offset paging). */
        list: (
          requestId: Id,
          params: QueryParams<Pick<Static<typeof AssigneeQuery>, 'length'>> = {},
          options: RequestOptions = {},
        ): AutoPager<UserSimplified> => {
          const length = params.length ?? 10;
          return new AutoPager<UserSimplified>(async (at, opts) => {
            const offset = at ? Number(at) : 0;
            const { data, response } = await core.call<UserSimplified[]>(
              'GET',
              `/requests/${enc(requestId)}/assignees`,
              { query: { offset, length } },
              opts,
            );
            const total = Number(response.headers.get('x-total-count') ?? data.length);
            const next = offset + length < total && data.length > 0 ? String(offset + length) : undefined;
            return { items: data, total, ...(next ? { nextCursor: next } : {}) };
          }, options);
        },
      },
      linked: {
        /** The requests linked to a request (cursor pages). */
        list: (
          requestId: Id,
          params?: ListParams<{ per_page?: number; cursor?: string }>,
          options?: RequestOptions,
        ): AutoPager<RequestFull> =>
          core.pager<RequestFull>(
            `/requests/${enc(requestId)}/linked_requests`,
            params as Record<string, unknown>,
            options,
          ),
        /** Links requests to this one (`{uuid: [...]}`). */
        create: async (requestId: Id, body: Static<typeof LinkCreate>, options?: RequestOptions): Promise<void> => {
          await core.call('POST', `/requests/${enc(requestId)}/linked_requests`, { body }, options);
        },
      },
      macros: {
        /** The macros that may run on a request. */
        list: (requestId: Id, options?: RequestOptions): Promise<MacroList[]> =>
          core.json('GET', `/requests/${enc(requestId)}/macros`, {}, options),
        /** Runs a macro on a request. */
        run: async (requestId: Id, body: Static<typeof MacroRun>, options?: RequestOptions): Promise<void> => {
          await core.call('POST', `/requests/${enc(requestId)}/macros`, { body }, options);
        },
      },
    },
  };
}

type HrResources = ReturnType<typeof hrResources>;

/** A request of {@link HrClient.request}, the escape hatch for calls the typed resources do not cover. */
export interface HrRawRequest {
  /** Query parameters (arrays sent comma-separated). */
  query?: Record<string, unknown>;
  /** A JSON body. */
  body?: unknown;
  /** Whether repeating the call is harmless (default: by method). */
  idempotent?: boolean;
}

/**
 * A client of the HR service delivery client API, modelled on stripe-node: one namespace per resource
 * (`hr.organizations`, `hr.requests`, …) with `list`, `retrieve`, `create`, `update`, `upsert`, `del` and the
 * resource's own actions.
 *
 * Tokens: fetched on the first call, cached, refreshed `tokenRefreshMarginSeconds` before expiry; concurrent calls
 * share one refresh; a `401 invalid_token` (revoked token) refreshes once and repeats the call once.
 *
 * For trusted server-to-server use only: constructing it in a browser throws, because its token must never reach a
 * user's device.
 *
 * @example
 * ```ts
 * const hr = new HrClient({ baseUrl, applicationId, applicationSecret, clientId });
 * for await (const r of hr.requests.list({ status: ['opened'] })) console.log(r.request_number);
 * ```
 */
export class HrClient {
  private readonly core: HrCore;
  private readonly resources: HrResources;

  /** @throws {AtriumUsageError} in a browser, or without the credentials. */
  constructor(options: HrClientOptions) {
    if (isBrowser()) {
      throw new AtriumUsageError(
        'HrClient must not run in a browser: HR access tokens are for trusted server-to-server use only and must never reach a user device. Call your own server, which uses HrClient.',
      );
    }
    for (const name of ['baseUrl', 'applicationId', 'applicationSecret', 'clientId'] as const) {
      if (typeof options?.[name] !== 'string' || options[name] === '') {
        throw new AtriumUsageError(`HrClient needs the option "${name}".`);
      }
    }
    this.core = new HrCore(options);
    this.resources = hrResources(this.core);
  }

  /** The API root the client calls, `…/api/v2/client`. */
  get apiRoot(): string {
    return this.core.root;
  }

  /** How many token requests this client has made (each refresh counts once, however many callers shared it). */
  get tokenRequests(): number {
    return this.core.tokens.requests;
  }

  /** Organizations (`/organizations`): the tree of the client's organizations; PUT upserts by code. */
  get organizations(): HrResources['organizations'] {
    return this.resources.organizations;
  }
  /** Organization groups (`/organization_groups`). */
  get organizationGroups(): HrResources['organizationGroups'] {
    return this.resources.organizationGroups;
  }
  /** Temporary files (`/uploads`, `/document`) that documents, requests and tasks consume. */
  get uploads(): HrResources['uploads'] {
    return this.resources.uploads;
  }
  /** HR roles (`/roles`) and their permissions per module. */
  get roles(): HrResources['roles'] {
    return this.resources.roles;
  }
  /** HR users (`/users`). */
  get users(): HrResources['users'] {
    return this.resources.users;
  }
  /** Custom fields of employees (`/custom_fields`). */
  get customFields(): HrResources['customFields'] {
    return this.resources.customFields;
  }
  /** Employees (`/employees`), with search and upsert by external id. */
  get employees(): HrResources['employees'] {
    return this.resources.employees;
  }
  /** Folders of employee documents (`/employee_folders`). */
  get employeeFolders(): HrResources['employeeFolders'] {
    return this.resources.employeeFolders;
  }
  /** Folders of company documents (`/company_folders`). */
  get companyFolders(): HrResources['companyFolders'] {
    return this.resources.companyFolders;
  }
  /** Employee document types (`/employee_document_types`). */
  get employeeDocumentTypes(): HrResources['employeeDocumentTypes'] {
    return this.resources.employeeDocumentTypes;
  }
  /** Company document types (`/company_document_types`). */
  get companyDocumentTypes(): HrResources['companyDocumentTypes'] {
    return this.resources.companyDocumentTypes;
  }
  /** Employee documents (`/employee_documents`): files, trash, expiry, search, downloads. */
  get employeeDocuments(): HrResources['employeeDocuments'] {
    return this.resources.employeeDocuments;
  }
  /** Company documents (`/company_documents`). */
  get companyDocuments(): HrResources['companyDocuments'] {
    return this.resources.companyDocuments;
  }
  /** Process templates (`/process_templates`) and their task templates. */
  get processTemplates(): HrResources['processTemplates'] {
    return this.resources.processTemplates;
  }
  /** Processes (`/processes`): create, publish, delete. */
  get processes(): HrResources['processes'] {
    return this.resources.processes;
  }
  /** Tasks of processes (`/tasks`): fill, complete, files. */
  get tasks(): HrResources['tasks'] {
    return this.resources.tasks;
  }
  /** Knowledge-base categories (`/kb_categories`). */
  get kbCategories(): HrResources['kbCategories'] {
    return this.resources.kbCategories;
  }
  /** Knowledge-base articles (`/kb_articles`). */
  get kbArticles(): HrResources['kbArticles'] {
    return this.resources.kbArticles;
  }
  /** Knowledge-base tags (`/kb_tags`). */
  get kbTags(): HrResources['kbTags'] {
    return this.resources.kbTags;
  }
  /** Custom statuses of requests (`/custom_status`). */
  get customStatuses(): HrResources['customStatuses'] {
    return this.resources.customStatuses;
  }
  /** Macros (`/macros`). */
  get macros(): HrResources['macros'] {
    return this.resources.macros;
  }
  /** Request forms (`/request_forms`). */
  get requestForms(): HrResources['requestForms'] {
    return this.resources.requestForms;
  }
  /** People Assist requests (`/requests`) with comments, attachments, files, assignees, links and macros. */
  get requests(): HrResources['requests'] {
    return this.resources.requests;
  }

  /**
   * Any call of the API, authenticated like the others, for what the typed resources do not cover. `path` is
   * relative to the API root (`/organizations`). Resolves with the parsed JSON body (undefined when empty).
   */
  request<T = unknown>(method: string, path: string, init: HrRawRequest = {}, options?: RequestOptions): Promise<T> {
    return this.core.json<T>(method.toUpperCase(), path.startsWith('/') ? path : `/${path}`, init, options);
  }

  /** Like {@link HrClient.request}, but resolves with the raw `Response` (status checked) without reading it. */
  async rawRequest(method: string, path: string, init: HrRawRequest = {}, options?: RequestOptions): Promise<Response> {
    return (await this.core.send(method.toUpperCase(), path.startsWith('/') ? path : `/${path}`, init, options, true))
      .response;
  }

  /** Fetches a token now (normally done lazily by the first call) and returns it. */
  async getAccessToken(options: RequestOptions = {}): Promise<string> {
    return this.core.tokens.get(options.signal);
  }

  /** Revokes the cached token (`POST /revoke_token`) and forgets it; the next call fetches a new one. */
  async revokeToken(options?: RequestOptions): Promise<void> {
    await this.core.revokeToken(options);
  }
}
