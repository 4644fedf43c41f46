/**
 * The console's one way to the server: the admin API (`/admin/v1`), with the session cookie the browser keeps and
 * the session's CSRF token on every change. The console has no other back door.
 */

import type {
  AdminCreatedApplication,
  AdminSnapshot,
  AdminTenant,
  AdminTenantClock,
  AdminTenantReplaced,
  IntegrationReport,
  ProxyDepartures,
  RequestMatcher,
  RequestVerification,
  FaultRule as SdkFaultRule,
  LoggedCall as SdkLoggedCall,
} from '@atrium/client';

/** The admin API's shapes, as the SDK types them (types only: nothing of the SDK is bundled). */
export type Tenant = AdminTenant;
export type Application = NonNullable<AdminTenant['applications']>[number];
export type CreatedApplication = AdminCreatedApplication;
export type Clock = AdminTenantClock;
export type FaultRule = SdkFaultRule;
export type Snapshot = AdminSnapshot;
export type Replaced = AdminTenantReplaced;
export type LoggedCall = SdkLoggedCall;
export type Report = IntegrationReport;
export type Matcher = RequestMatcher;
export type Verification = RequestVerification;
export type Departures = ProxyDepartures;

/** An error answer of the admin API: `{code, message}`, with the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface Session {
  token: { token_id: string; name: string };
  created_at: string;
  expires_at: string;
  csrf_token: string;
}

const ROOT = '/admin/v1';
const SAFE = new Set(['GET', 'HEAD']);
let csrf: string | undefined;
/** Called when a call finds the session ended (401): the page goes back to signing in. */
let onSignedOut: () => void = () => {};

export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (!SAFE.has(method) && csrf) headers['x-csrf-token'] = csrf;
  const res = await fetch(`${ROOT}${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  if (!res.ok) {
    const failure = (parsed ?? {}) as { code?: string; message?: string };
    if (res.status === 401 && path !== '/session') {
      csrf = undefined;
      onSignedOut();
    }
    throw new ApiError(res.status, failure.code ?? `http_${res.status}`, failure.message ?? res.statusText);
  }
  return parsed as T;
}

/** The current session, or undefined when signed out (it also learns the CSRF token again after a reload). */
export async function currentSession(): Promise<Session | undefined> {
  try {
    const session = await call<Session>('GET', '/session');
    csrf = session.csrf_token;
    return session;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return undefined;
    throw error;
  }
}

export async function signIn(token: string): Promise<Session> {
  const session = await call<Session>('POST', '/session', { token });
  csrf = session.csrf_token;
  return session;
}

export async function signOut(): Promise<void> {
  try {
    await call<void>('DELETE', '/session');
  } finally {
    csrf = undefined;
  }
}

export const tenants = {
  list: async () => (await call<{ tenants: Tenant[] }>('GET', '/tenants')).tenants,
  createHr: (name: string) => call<{ tenant: Tenant }>('POST', '/tenants/hr', { name }),
  createAcademy: (name: string) =>
    call<{ tenant: Tenant; apikey: string; super_admin_id: number }>('POST', '/tenants/academy', { name }),
  createApplication: (clientId: string, name: string, readOnly: boolean) =>
    call<CreatedApplication>('POST', `/tenants/hr/${encodeURIComponent(clientId)}/applications`, {
      name,
      read_only: readOnly,
    }),
  revokeApplication: (clientId: string, applicationId: string) =>
    call<void>(
      'DELETE',
      `/tenants/hr/${encodeURIComponent(clientId)}/applications/${encodeURIComponent(applicationId)}`,
    ),
  rotateKey: (acadId: string) =>
    call<{ apikey: string; previous_keys_expire_at: string }>(
      'POST',
      `/tenants/academy/${encodeURIComponent(acadId)}/keys`,
    ),
};

/** `/tenants/{kind}/{id}` of a tenant. */
const at = (kind: string, id: string) => `/tenants/${encodeURIComponent(kind)}/${encodeURIComponent(id)}`;

export const controls = {
  tenant: (kind: string, id: string) => call<Tenant>('GET', at(kind, id)),
  clock: (kind: string, id: string) => call<Clock>('GET', `${at(kind, id)}/clock`),
  setClock: (kind: string, id: string, change: { now?: string; frozen?: boolean }) =>
    call<Clock>('PUT', `${at(kind, id)}/clock`, change),
  advance: (kind: string, id: string, by: { days?: number; hours?: number }) =>
    call<Clock>('POST', `${at(kind, id)}/clock/advance`, by),
  resetClock: (kind: string, id: string) => call<Clock>('DELETE', `${at(kind, id)}/clock`),
  faults: async (kind: string, id: string) =>
    (await call<{ faults: FaultRule[] }>('GET', `${at(kind, id)}/faults`)).faults,
  addFault: (kind: string, id: string, rule: unknown) => call<FaultRule>('POST', `${at(kind, id)}/faults`, rule),
  /** The operationIds a fault rule of the tenant may match (its own API's), sorted. */
  operations: async (kind: string, id: string) =>
    (await call<{ operation_ids: string[] }>('GET', `${at(kind, id)}/operations`)).operation_ids,
  deleteFault: (kind: string, id: string, faultId: string) =>
    call<void>('DELETE', `${at(kind, id)}/faults/${encodeURIComponent(faultId)}`),
  snapshots: async (kind: string, id: string) =>
    (await call<{ snapshots: Snapshot[] }>('GET', `${at(kind, id)}/snapshots`)).snapshots,
  saveSnapshot: (kind: string, id: string, name: string) =>
    call<Snapshot>('POST', `${at(kind, id)}/snapshots`, { name }),
  restoreSnapshot: (kind: string, id: string, name: string, credentials: 'keep' | 'restore') =>
    call<Replaced>('POST', `${at(kind, id)}/snapshots/${encodeURIComponent(name)}/restore`, { credentials }),
  deleteSnapshot: (kind: string, id: string, name: string) =>
    call<void>('DELETE', `${at(kind, id)}/snapshots/${encodeURIComponent(name)}`),
  reset: (kind: string, id: string) => call<Replaced>('POST', `${at(kind, id)}/reset`),
};

export const requestLog = {
  list: async (kind: string, id: string, filter: { status?: string; operation_id?: string }) => {
    const query = new URLSearchParams({ limit: '50' });
    if (filter.status) query.set('status', filter.status);
    if (filter.operation_id) query.set('operation_id', filter.operation_id);
    return (await call<{ requests: LoggedCall[] }>('GET', `${at(kind, id)}/requests?${query}`)).requests;
  },
  /** The tenant's calls counted against a matcher, with the closest others when too few match. */
  verify: (kind: string, id: string, matcher: RequestMatcher) =>
    call<RequestVerification>('POST', `${at(kind, id)}/requests/verify`, matcher),
  /** Empties the tenant's log. */
  clear: (kind: string, id: string) => call<{ deleted: number }>('DELETE', `${at(kind, id)}/requests`),
  /** The calls logged after `after`, as they come: the browser sends the session cookie with it. */
  tail: (kind: string, id: string, after: number) =>
    new EventSource(`${ROOT}${at(kind, id)}/requests/tail?after=${after}`),
};

export const reports = {
  retrieve: (kind: string, id: string, since: string) =>
    call<Report>('GET', `${at(kind, id)}/report?since=${encodeURIComponent(since)}`),
};

/** The validation proxy's departures, per operation (installation-wide; empty when it has no journal yet). */
export const proxy = {
  departures: () => call<Departures>('GET', '/proxy/departures'),
};
