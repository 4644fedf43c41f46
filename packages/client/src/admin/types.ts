/** The admin API's wire types (the server's docs/admin.md), and how a tenant address becomes its path. */
import { AtriumUsageError } from '../errors.js';
import type { NearMissReason } from './request-log.js';

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
