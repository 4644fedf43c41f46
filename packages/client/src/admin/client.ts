/**
 * The admin API (`/admin/v1`) client: an operator's view of every tenant and the sandbox controls of each (the
 * server's docs/admin.md). For integration tests and operators' scripts, server-side: its token reaches every tenant.
 */
import { AtriumApiError, AtriumUsageError, errorInitOf } from '../errors.js';
import { apiRoot, type HttpOptions, type HttpRequest, HttpTransport, type RequestOptions } from '../http.js';
import { AutoPager } from '../pagination.js';
import type { AllSettings, ConfigUpdate, SettingsChanges } from '../schemas/hr/core/settings.js';
import type { AdminSnapshotImported, AdminTenantCloned, SnapshotFile } from './portable.js';
import type { ProxyDepartures } from './proxy.js';
import {
  type LoggedCall,
  type NearMissReason,
  type RequestLogFilter,
  type RequestMatcher,
  type RequestVerification,
  RequestVerificationError,
} from './request-log.js';

export type { LoggedCall, NearMiss, NearMissReason, RequestLogFilter } from './request-log.js';

/** Constructor options of {@link AdminClient}. */
export interface AdminClientOptions extends HttpOptions {
  /** The admin API's origin, for example `http://127.0.0.1:8080` (or `ATRIUM_ADMIN_PORT`'s); `/admin/v1` is added. */
  baseUrl: string;
  /** An operator token, `atrium_admin_…` (`atrium admin create-token`). Sent as a bearer token, never logged. */
  token: string;
}

/** An error answer of the admin API: the body `{code, message, errors?}`. */
export class AdminApiError extends AtriumApiError {
  override name = 'AdminApiError';
}

/**
 * A tenant: `{kind: 'hr', id: clientId}`, `{kind: 'academy', id: acadId}`, or the same as one string,
 * `'hr:<client_id>'` or `'academy:<acadId>'`.
 */
export type TenantAddress = { kind: 'hr' | 'academy'; id: string | number } | string;

/** `POST /tenants/hr/{id}/events/trigger`: the event fired, as the HR API's audit trail shows it. */
export interface AdminTriggeredEvent {
  event: {
    id: string;
    /** `{resource_type}.{action}`. */
    type: string;
    name: string | null;
    created_at: string;
    /** The system, named after the operator (`admin token {id} ({name})`). */
    actor: { type: string; name: string | null; data: Record<string, unknown> };
    /** The resource as the HR API's GET presents it. */
    data: unknown;
    triggered: true;
  };
  /** How many webhook deliveries it was queued for. */
  webhooks: number;
}

/** A tenant's clock, as the admin API shows it. */
export interface AdminTenantClock {
  /** The tenant's time (datetime). */
  now: string;
  /** The installation's time, read at the same moment. */
  installation_now: string;
  /** The tenant's time minus the installation's. */
  offset_seconds: number;
  frozen: boolean;
  /** Whether the tenant has a time of its own. */
  moved: boolean;
}

/** One tenant of either API, never with a secret. */
export interface AdminTenant {
  kind: 'hr' | 'academy';
  id: string;
  name: string;
  created_at: string;
  clock: AdminTenantClock;
  applications?: {
    application_id: string;
    name: string;
    read_only: boolean;
    created_at: string;
    revoked_at: string | null;
  }[];
  keys?: { key_id: number; created_at: string; expires_at: string | null; state: 'current' | 'grace' | 'expired' }[];
}

/** `POST /tenants/hr/{id}/applications`: the application, with its secret (shown only in this answer). */
export interface AdminCreatedApplication {
  client_id: string;
  application_id: string;
  name: string;
  read_only: boolean;
  application_secret: string;
}

/** `POST /tenants/academy`: the academy, with its first API key (shown only in this answer). */
export interface AdminCreatedAcademy {
  tenant: AdminTenant;
  apikey: string;
  super_admin_id: number;
}

/** `POST /tenants/academy/{id}/keys`: the new key; the academy's other keys work until `previous_keys_expire_at`. */
export interface AdminRotatedAcademyKey {
  apikey: string;
  previous_keys_expire_at: string;
}

/**
 * `POST /tenants/{kind}/{id}/view_pass`: a read-only credential of the tenant's own API for ten minutes (the HR
 * API's bearer token, or the Academy API's `X-API-Key` with the `acadId`).
 */
export interface AdminViewPass {
  pass: string;
  expires_at: string;
  expires_in: number;
}

/** `PUT …/clock`: an instant or an offset (not both), frozen or flowing; what is left out stays as it is. */
export interface ClockChange {
  now?: string;
  offset_seconds?: number;
  frozen?: boolean;
}

/** `POST …/clock/advance`: amounts that add up (negative: back). */
export interface ClockAdvance {
  days?: number;
  hours?: number;
  minutes?: number;
  seconds?: number;
}

/** A latency effect: fixed (`distribution` left out or `fixed`), uniform in [min_ms, max_ms], or log-normal. */
export type FaultLatency =
  | { type: 'latency'; distribution?: 'fixed'; latency_ms: number }
  | { type: 'latency'; distribution: 'uniform'; min_ms: number; max_ms: number }
  | { type: 'latency'; distribution: 'log_normal'; median_ms: number; sigma: number };

/** How a `malformed` fault answers: an empty 200, a body that is not JSON, half the body, or no body at all. */
export type FaultMalformedForm = 'empty' | 'invalid_json' | 'truncated' | 'close_after_headers';

/** What a fault rule does (`effect`). */
export type FaultEffect =
  | FaultLatency
  | { type: 'status'; status: 429 | 500 | 502 | 503 | 504; retry_after_seconds?: number }
  | { type: 'reset' }
  | { type: 'slow_body'; bytes_per_second: number }
  | { type: 'chunked_body'; chunks: number; total_ms: number }
  | { type: 'malformed'; form: FaultMalformedForm };

/** `POST …/faults`: which calls, what happens to them, how often, for how long. */
export interface NewFaultRule {
  match?: {
    api?: 'hr' | 'academy';
    method?: string;
    operation_id?: string;
    path?: string;
    /** Apply before the credentials are checked: the HR token endpoint, the Academy key check. */
    before_authentication?: boolean;
  };
  effect: FaultEffect;
  probability?: number;
  remaining_count?: number;
  until?: string;
  /** The same seed and the same calls: the same draws (probability, latency), in the same places. */
  seed?: number;
}

/** A fault rule, as the admin API shows it. */
export interface FaultRule {
  id: string;
  match: {
    api: 'hr' | 'academy';
    method: string | null;
    operation_id: string | null;
    path: string | null;
    before_authentication: boolean;
  };
  effect: FaultEffect;
  probability: number;
  remaining_count: number | null;
  until: string | null;
  seed: number | null;
  applied_count: number;
  created_at: string;
}

/** Reads Server-Sent Events from a streamed body: each event's name, id and data. */
async function* serverSentEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<{ event: string; id?: string; data: string }, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = 'message';
        let id: string | undefined;
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event = text;
          else if (field === 'id') id = text;
          else if (field === 'data') data.push(text);
        }
        if (data.length > 0) yield { event, ...(id !== undefined ? { id } : {}), data: data.join('\n') };
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** A tenant's integration report: each operation called, and what would not work on the real service. */
export interface IntegrationReport {
  tenant: string;
  since: string;
  until: string;
  calls: number;
  errors: number;
  error_rate: number;
  operations: {
    operation_id: string | null;
    method: string;
    example_path: string;
    calls: number;
    errors: number;
    error_rate: number;
    statuses: Record<string, number>;
    latency_ms: { p50: number; p95: number; p99: number; max: number };
    faulted: number;
    extension: boolean;
    deprecated: boolean;
    ignored_parameters: Record<string, number>;
  }[];
  /** Calls and errors over time, a point per bucket (at most 60), empty ones included. */
  timeline: { bucket_seconds: number; points: { at: string; calls: number; errors: number }[] };
  /** Calls that failed authentication or hit no route and named the tenant, by reason (zeros included). */
  near_misses: Record<NearMissReason, number>;
}

/** A tenant's saved state (`/tenants/{kind}/{id}/snapshots`). */
export interface AdminSnapshot {
  /** Unique within its tenant: letters, digits, `.`, `_` and `-`, 1 to 64. */
  name: string;
  /** `hr:<client_id>` or `academy:<acadId>`. */
  tenant: string;
  created_at: string;
  /** The operator token that saved it. */
  created_by: string;
  rows_count: number;
  files_count: number;
  /** Bytes of saved rows. */
  size: number;
  /** Rows saved of each table (`retrieve` and `create` only). */
  tables?: Record<string, number>;
}

/** What a restore or a reset did. */
export interface AdminTenantReplaced {
  tenant: string;
  /** The snapshot restored; null for a reset. */
  snapshot: string | null;
  credentials: 'keep' | 'restore';
  deleted_rows: number;
  restored_rows: number;
  cancelled_jobs: number;
  deleted_files: number;
}

/** `POST …/snapshots/{name}/restore`: the credentials (HR applications, academy keys) kept (default) or restored. */
export interface SnapshotRestoreOptions {
  credentials?: 'keep' | 'restore';
}

/** `/tenants/{kind}/{id}` of a tenant address. */
export function tenantPath(tenant: TenantAddress): string {
  const { kind, id } =
    typeof tenant === 'string'
      ? { kind: tenant.slice(0, Math.max(tenant.indexOf(':'), 0)), id: tenant.slice(tenant.indexOf(':') + 1) }
      : tenant;
  if (kind !== 'hr' && kind !== 'academy') {
    throw new AtriumUsageError(`A tenant is "hr:<client_id>" or "academy:<acadId>"; got ${JSON.stringify(tenant)}.`);
  }
  return `/tenants/${kind}/${encodeURIComponent(String(id))}`;
}

/**
 * A client of the admin API.
 *
 * @example
 * ```ts
 * const admin = new AdminClient({ baseUrl, token: process.env.ATRIUM_ADMIN_TOKEN });
 * await admin.clock.advance('hr:' + clientId, { days: 31 });
 * ```
 */
export class AdminClient {
  /** The transport, the API root and the token (one private property, as in the other clients). */
  private readonly core: { http: HttpTransport; root: string; token: string };
  /** Every tenant of both APIs (`/tenants`). */
  readonly tenants: {
    list(options?: RequestOptions): Promise<AdminTenant[]>;
    retrieve(tenant: TenantAddress, options?: RequestOptions): Promise<AdminTenant>;
    /** Empties the tenant: every row but its own and its credentials; its snapshots stay. */
    reset(tenant: TenantAddress, options?: RequestOptions): Promise<AdminTenantReplaced>;
    /** A new HR client, with no application yet. */
    createHr(name: string, options?: RequestOptions): Promise<{ tenant: AdminTenant }>;
    /** A new academy, with its first API key. */
    createAcademy(name: string, options?: RequestOptions): Promise<AdminCreatedAcademy>;
    /** A new tenant of the same kind, a copy of this one, with fresh credentials (shown only in the answer). */
    clone(tenant: TenantAddress, name: string, options?: RequestOptions): Promise<AdminTenantCloned>;
    /** A new application of an HR client (`'hr:<client_id>'`), with its secret. */
    createApplication(
      tenant: TenantAddress,
      application: { name: string; read_only?: boolean },
      options?: RequestOptions,
    ): Promise<AdminCreatedApplication>;
    /** Revokes an application of an HR client, and its tokens. */
    revokeApplication(tenant: TenantAddress, applicationId: string, options?: RequestOptions): Promise<void>;
    /** A new API key of an academy (`'academy:<acadId>'`); its other keys keep working for the grace period. */
    rotateAcademyKey(tenant: TenantAddress, options?: RequestOptions): Promise<AdminRotatedAcademyKey>;
    /** A view pass: reads the tenant's own API for ten minutes, neither logged nor shaped by faults. */
    viewPass(tenant: TenantAddress, options?: RequestOptions): Promise<AdminViewPass>;
  };
  /** An HR client's audit events, as an operator (`/tenants/hr/{id}/events/…`). */
  readonly events: {
    /**
     * Fires an event of `type` about the resource `resourceId` (left out: the client's resource of that type
     * written last), delivered to the matching webhooks as a real one and marked `triggered` in the audit trail.
     */
    trigger(
      tenant: TenantAddress,
      type: string,
      resourceId?: string,
      options?: RequestOptions,
    ): Promise<AdminTriggeredEvent>;
  };
  /** An HR client's webhooks, as an operator (`/tenants/hr/{id}/webhooks/…`). */
  readonly webhooks: {
    /** Queues a delivery's event again (same body and `X-Event-Id`, signed anew), audited; resolves on 202. */
    redeliver(tenant: TenantAddress, webhookId: string, deliveryId: string, options?: RequestOptions): Promise<void>;
  };
  /**
   * A tenant's snapshots (`/tenants/{kind}/{id}/snapshots`): its whole state saved under a name, and restored.
   *
   * @example
   * ```ts
   * await admin.snapshots.create(tenant, 'baseline');
   * // … the test changes things …
   * await admin.snapshots.restore(tenant, 'baseline');
   * ```
   */
  readonly snapshots: {
    list(tenant: TenantAddress, options?: RequestOptions): Promise<AdminSnapshot[]>;
    create(tenant: TenantAddress, name: string, options?: RequestOptions): Promise<AdminSnapshot>;
    retrieve(tenant: TenantAddress, name: string, options?: RequestOptions): Promise<AdminSnapshot>;
    del(tenant: TenantAddress, name: string, options?: RequestOptions): Promise<void>;
    restore(
      tenant: TenantAddress,
      name: string,
      restore?: SnapshotRestoreOptions,
      options?: RequestOptions,
    ): Promise<AdminTenantReplaced>;
    /** The snapshot as one portable file (gzip), streamed. */
    export(tenant: TenantAddress, name: string, options?: RequestOptions): Promise<ReadableStream<Uint8Array>>;
    /** Replaces the tenant's rows with a portable file's, once the whole file is verified. */
    import(tenant: TenantAddress, file: SnapshotFile, options?: RequestOptions): Promise<AdminSnapshotImported>;
  };
  /** A tenant's clock (`/tenants/{kind}/{id}/clock`). */
  readonly clock: {
    retrieve(tenant: TenantAddress, options?: RequestOptions): Promise<AdminTenantClock>;
    set(tenant: TenantAddress, change: ClockChange, options?: RequestOptions): Promise<AdminTenantClock>;
    advance(tenant: TenantAddress, by: ClockAdvance, options?: RequestOptions): Promise<AdminTenantClock>;
    reset(tenant: TenantAddress, options?: RequestOptions): Promise<AdminTenantClock>;
  };
  /** A tenant's request log (`/tenants/{kind}/{id}/requests`). */
  readonly requests: {
    /** Every logged call that passes the filter, newest first, page after page. */
    list(tenant: TenantAddress, filter?: RequestLogFilter, options?: RequestOptions): AutoPager<LoggedCall>;
    retrieve(tenant: TenantAddress, seq: number, options?: RequestOptions): Promise<LoggedCall>;
    /**
     * The calls logged from now on (or after `after`), as they come, until `options.signal` aborts (the iteration
     * then ends quietly) or the server closes the stream.
     */
    tail(tenant: TenantAddress, options?: RequestOptions & { after?: number }): AsyncIterable<LoggedCall>;
    /**
     * Checks the tenant's logged calls against a matcher: resolves with the verification when the number of
     * matching calls is what `matcher.count` asks (default: at least one), else throws a
     * {@link RequestVerificationError} whose message shows the closest calls and how they differ.
     *
     * @example
     * ```ts
     * await admin.requests.clear(tenant);
     * // … the code under test calls the API …
     * await admin.requests.verify(tenant, { method: 'POST', path: '/api/v2/client/employees', status: 201, count: 1 });
     * ```
     */
    verify(tenant: TenantAddress, matcher: RequestMatcher, options?: RequestOptions): Promise<RequestVerification>;
    /** Empties the tenant's request log (and its usage of the log's caps): a test starts clean. */
    clear(tenant: TenantAddress, options?: RequestOptions): Promise<{ deleted: number }>;
  };
  /** A tenant's integration report (`/tenants/{kind}/{id}/report`). */
  readonly reports: {
    retrieve(
      tenant: TenantAddress,
      range?: { since?: string; until?: string },
      options?: RequestOptions,
    ): Promise<IntegrationReport>;
  };
  /** The validation proxy's departures, per operation (`/proxy/departures`; installation-wide). */
  readonly proxy: { departures(options?: RequestOptions): Promise<ProxyDepartures> };
  /**
   * An HR client's settings (`/tenants/hr/{id}/settings`), as `GET /client` and `GET /settings/…` answer them:
   * changed at once (`update`), or staged (`stageUpdate`) for the client's `POST /platform_updates`.
   */
  readonly settings: {
    retrieve(tenant: TenantAddress, options?: RequestOptions): Promise<AllSettings>;
    update(tenant: TenantAddress, changes: SettingsChanges, options?: RequestOptions): Promise<AllSettings>;
    stageUpdate(tenant: TenantAddress, changes: SettingsChanges, options?: RequestOptions): Promise<ConfigUpdate>;
    retrieveUpdate(tenant: TenantAddress, id: string, options?: RequestOptions): Promise<ConfigUpdate>;
  };
  /** A tenant's fault rules (`/tenants/{kind}/{id}/faults`). */
  readonly faults: {
    list(tenant: TenantAddress, options?: RequestOptions): Promise<FaultRule[]>;
    create(tenant: TenantAddress, rule: NewFaultRule, options?: RequestOptions): Promise<FaultRule>;
    retrieve(tenant: TenantAddress, id: string, options?: RequestOptions): Promise<FaultRule>;
    del(tenant: TenantAddress, id: string, options?: RequestOptions): Promise<void>;
    /** Deletes every rule of the tenant. */
    clear(tenant: TenantAddress, options?: RequestOptions): Promise<void>;
    /** The operationIds a rule's `match.operation_id` may name: those of the tenant's own API, sorted. */
    operations(tenant: TenantAddress, options?: RequestOptions): Promise<string[]>;
  };

  /** @throws {AtriumUsageError} without `baseUrl` or `token`. */
  constructor(options: AdminClientOptions) {
    if (typeof options?.baseUrl !== 'string' || options.baseUrl === '') {
      throw new AtriumUsageError('AdminClient needs the option "baseUrl".');
    }
    if (typeof options.token !== 'string' || options.token === '') {
      throw new AtriumUsageError('AdminClient needs the option "token".');
    }
    this.core = { http: new HttpTransport(options), root: apiRoot(options.baseUrl, '/admin/v1'), token: options.token };
    this.tenants = {
      list: async (opts) => (await this.request<{ tenants: AdminTenant[] }>('GET', '/tenants', {}, opts)).tenants,
      retrieve: (tenant, opts) => this.request('GET', tenantPath(tenant), {}, opts),
      reset: (tenant, opts) => this.request('POST', `${tenantPath(tenant)}/reset`, { idempotent: true }, opts),
      createHr: (name, opts) => this.request('POST', '/tenants/hr', { body: { name }, idempotent: false }, opts),
      createAcademy: (name, opts) =>
        this.request('POST', '/tenants/academy', { body: { name }, idempotent: false }, opts),
      clone: (tenant, name, opts) =>
        this.request('POST', `${tenantPath(tenant)}/clone`, { body: { name }, idempotent: false }, opts),
      createApplication: (tenant, application, opts) =>
        this.request('POST', `${tenantPath(tenant)}/applications`, { body: application, idempotent: false }, opts),
      revokeApplication: async (tenant, applicationId, opts) => {
        await this.request(
          'DELETE',
          `${tenantPath(tenant)}/applications/${encodeURIComponent(applicationId)}`,
          {},
          opts,
        );
      },
      rotateAcademyKey: (tenant, opts) =>
        this.request('POST', `${tenantPath(tenant)}/keys`, { idempotent: false }, opts),
      viewPass: (tenant, opts) => this.request('POST', `${tenantPath(tenant)}/view_pass`, { idempotent: true }, opts),
    };
    this.events = {
      trigger: (tenant, type, resourceId, opts) => {
        const body = { type, ...(resourceId !== undefined ? { resource_id: resourceId } : {}) };
        return this.request('POST', `${tenantPath(tenant)}/events/trigger`, { body, idempotent: false }, opts);
      },
    };
    this.webhooks = {
      redeliver: async (tenant, webhookId, deliveryId, opts) => {
        const path = `${tenantPath(tenant)}/webhooks/${encodeURIComponent(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`;
        await this.request('POST', path, { idempotent: false }, opts);
      },
    };
    const snapshot = (tenant: TenantAddress, name: string) =>
      `${tenantPath(tenant)}/snapshots/${encodeURIComponent(name)}`;
    this.snapshots = {
      list: async (tenant, opts) =>
        (await this.request<{ snapshots: AdminSnapshot[] }>('GET', `${tenantPath(tenant)}/snapshots`, {}, opts))
          .snapshots,
      create: (tenant, name, opts) =>
        this.request('POST', `${tenantPath(tenant)}/snapshots`, { body: { name }, idempotent: false }, opts),
      retrieve: (tenant, name, opts) => this.request('GET', snapshot(tenant, name), {}, opts),
      del: async (tenant, name, opts) => {
        await this.request('DELETE', snapshot(tenant, name), {}, opts);
      },
      restore: (tenant, name, restore, opts) =>
        this.request('POST', `${snapshot(tenant, name)}/restore`, { body: restore ?? {}, idempotent: true }, opts),
      export: async (tenant, name, opts) =>
        (await this.rawRequest('GET', `${snapshot(tenant, name)}/export`, {}, opts)).body as ReadableStream<Uint8Array>,
      import: async (tenant, file, opts) => {
        const path = `${tenantPath(tenant)}/snapshots/import`;
        const response = await this.rawRequest('POST', path, { body: file, idempotent: false }, opts);
        return JSON.parse(await response.text()) as AdminSnapshotImported;
      },
    };
    this.clock = {
      retrieve: (tenant, opts) => this.request('GET', `${tenantPath(tenant)}/clock`, {}, opts),
      set: (tenant, change, opts) => this.request('PUT', `${tenantPath(tenant)}/clock`, { body: change }, opts),
      advance: (tenant, by, opts) =>
        this.request('POST', `${tenantPath(tenant)}/clock/advance`, { body: by, idempotent: false }, opts),
      reset: (tenant, opts) => this.request('DELETE', `${tenantPath(tenant)}/clock`, {}, opts),
    };
    this.requests = requestLogResource(this, this.core);
    this.reports = {
      retrieve: (tenant, range = {}, opts) => {
        const params = new URLSearchParams();
        if (range.since !== undefined) params.set('since', range.since);
        if (range.until !== undefined) params.set('until', range.until);
        const query = params.toString();
        return this.request('GET', `${tenantPath(tenant)}/report${query ? `?${query}` : ''}`, {}, opts);
      },
    };
    this.proxy = { departures: (opts) => this.request('GET', '/proxy/departures', {}, opts) };
    const faults = (tenant: TenantAddress) => `${tenantPath(tenant)}/faults`;
    this.settings = {
      retrieve: (tenant, opts) => this.request('GET', `${tenantPath(tenant)}/settings`, {}, opts),
      update: (tenant, changes, opts) =>
        this.request('PATCH', `${tenantPath(tenant)}/settings`, { body: changes, idempotent: true }, opts),
      stageUpdate: (tenant, changes, opts) =>
        this.request('POST', `${tenantPath(tenant)}/config_updates`, { body: changes, idempotent: false }, opts),
      retrieveUpdate: (tenant, id, opts) =>
        this.request('GET', `${tenantPath(tenant)}/config_updates/${encodeURIComponent(id)}`, {}, opts),
    };
    this.faults = {
      list: async (tenant, opts) =>
        (await this.request<{ faults: FaultRule[] }>('GET', faults(tenant), {}, opts)).faults,
      create: (tenant, rule, opts) => this.request('POST', faults(tenant), { body: rule, idempotent: false }, opts),
      retrieve: (tenant, id, opts) => this.request('GET', `${faults(tenant)}/${encodeURIComponent(id)}`, {}, opts),
      del: (tenant, id, opts) => this.request('DELETE', `${faults(tenant)}/${encodeURIComponent(id)}`, {}, opts),
      clear: (tenant, opts) => this.request('DELETE', faults(tenant), {}, opts),
      operations: async (tenant, opts) =>
        (await this.request<{ operation_ids: string[] }>('GET', `${tenantPath(tenant)}/operations`, {}, opts))
          .operation_ids,
    };
  }

  /** The API root the client calls, `…/admin/v1`. */
  get apiRoot(): string {
    return this.core.root;
  }

  /** Any call of the admin API: `path` is relative to `/admin/v1`. Resolves with the parsed JSON body. */
  async request<T = unknown>(
    method: string,
    path: string,
    init: { body?: unknown; idempotent?: boolean } = {},
    options?: RequestOptions,
  ): Promise<T> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.core.token}`,
      accept: 'application/json',
    };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const request: HttpRequest = {
      method: method.toUpperCase(),
      url: `${this.core.root}${path.startsWith('/') ? path : `/${path}`}`,
      headers,
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      ...(init.idempotent !== undefined ? { idempotent: init.idempotent } : {}),
    };
    const { response, text = '' } = await this.core.http.send(request, options);
    if (!response.ok) {
      throw new AdminApiError(
        errorInitOf(request, response, text, (status) => (status === 401 ? 'invalid_token' : `http_${status}`)),
      );
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** A call whose body is bytes or whose answer is streamed: the response, its body unread; an error answer throws. */
  async rawRequest(
    method: string,
    path: string,
    init: { body?: SnapshotFile; idempotent?: boolean } = {},
    options?: RequestOptions,
  ): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.core.token}` };
    if (init.body !== undefined) headers['content-type'] = 'application/gzip';
    const request: HttpRequest = {
      method: method.toUpperCase(),
      url: `${this.core.root}${path.startsWith('/') ? path : `/${path}`}`,
      headers,
      ...(init.body !== undefined ? { body: init.body } : {}),
      ...(init.idempotent !== undefined ? { idempotent: init.idempotent } : {}),
    };
    const { response } = await this.core.http.send(request, options, true);
    if (!response.ok) {
      const text = await response.text();
      throw new AdminApiError(
        errorInitOf(request, response, text, (status) => (status === 401 ? 'invalid_token' : `http_${status}`)),
      );
    }
    return response;
  }
}

/** `AdminClient.requests`: a tenant's request log, read, followed, verified and emptied. */
function requestLogResource(
  client: AdminClient,
  core: { http: HttpTransport; root: string; token: string },
): AdminClient['requests'] {
  const requests = (tenant: TenantAddress) => `${tenantPath(tenant)}/requests`;
  return {
    list: (tenant, filter = {}, opts = {}) => {
      const query = (cursor: string | undefined) => {
        const params = new URLSearchParams();
        for (const [name, value] of Object.entries(filter)) if (value !== undefined) params.set(name, String(value));
        if (cursor !== undefined) params.set('cursor', cursor);
        const text = params.toString();
        return text ? `?${text}` : '';
      };
      return new AutoPager<LoggedCall>(async (cursor, o) => {
        const page = await client.request<{ requests: LoggedCall[]; next_cursor: string | null }>(
          'GET',
          `${requests(tenant)}${query(cursor)}`,
          {},
          o,
        );
        return { items: page.requests, ...(page.next_cursor ? { nextCursor: page.next_cursor } : {}) };
      }, opts);
    },
    retrieve: (tenant, seq, opts) =>
      client.request('GET', `${requests(tenant)}/${encodeURIComponent(String(seq))}`, {}, opts),
    tail: (tenant, opts = {}) => {
      const { after, ...options } = opts;
      return {
        async *[Symbol.asyncIterator]() {
          const request: HttpRequest = {
            method: 'GET',
            url: `${core.root}${requests(tenant)}/tail${after === undefined ? '' : `?after=${after}`}`,
            headers: { authorization: `Bearer ${core.token}`, accept: 'text/event-stream' },
          };
          let response: Response;
          try {
            ({ response } = await core.http.send(request, options, true));
          } catch (error) {
            if (options.signal?.aborted) return;
            throw error;
          }
          if (!response.ok || !response.body) {
            throw new AdminApiError(errorInitOf(request, response, await response.text(), (s) => `http_${s}`));
          }
          try {
            for await (const event of serverSentEvents(response.body)) {
              if (event.event === 'request') yield JSON.parse(event.data) as LoggedCall;
            }
          } catch (error) {
            if (options.signal?.aborted) return;
            throw error;
          }
        },
      };
    },
    verify: async (tenant, matcher, opts) => {
      const result = await client.request<RequestVerification>(
        'POST',
        `${requests(tenant)}/verify`,
        { body: matcher, idempotent: true },
        opts,
      );
      if (!result.ok) {
        throw new RequestVerificationError(
          typeof tenant === 'string' ? tenant : `${tenant.kind}:${tenant.id}`,
          matcher,
          result,
        );
      }
      return result;
    },
    clear: (tenant, opts) => client.request('DELETE', requests(tenant), {}, opts),
  };
}
