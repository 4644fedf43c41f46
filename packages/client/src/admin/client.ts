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
  type RequestLogFilter,
  type RequestMatcher,
  type RequestVerification,
  RequestVerificationError,
} from './request-log.js';
import { serverSentEvents } from './sse.js';

export type { LoggedCall, NearMiss, NearMissReason, RequestLogFilter } from './request-log.js';

import {
  type AdminCreatedAcademy,
  type AdminCreatedApplication,
  type AdminRotatedAcademyKey,
  type AdminSnapshot,
  type AdminTenant,
  type AdminTenantClock,
  type AdminTenantReplaced,
  type AdminTriggeredEvent,
  type AdminViewPass,
  type ClockAdvance,
  type ClockChange,
  type FaultRule,
  type IntegrationReport,
  type NewFaultRule,
  type SnapshotRestoreOptions,
  type TenantAddress,
  tenantPath,
} from './types.js';

export {
  type AdminCreatedAcademy,
  type AdminCreatedApplication,
  type AdminRotatedAcademyKey,
  type AdminSnapshot,
  type AdminTenant,
  type AdminTenantClock,
  type AdminTenantReplaced,
  type AdminTriggeredEvent,
  type AdminViewPass,
  type ClockAdvance,
  type ClockChange,
  type FaultEffect,
  type FaultLatency,
  type FaultMalformedForm,
  type FaultRule,
  type IntegrationReport,
  type NewFaultRule,
  type SnapshotRestoreOptions,
  type TenantAddress,
  tenantPath,
} from './types.js';

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
