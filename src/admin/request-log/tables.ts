import type { Generated } from 'kysely';

/** One call of a tenant API (migration 0025; docs/admin.md, "Request log"). */
export interface RequestLogTable {
  seq: Generated<number>;
  /** `hr:<client_id>` or `academy:<acadId>`. */
  tenant: string;
  /** The HR application id, or the Academy key id. */
  credential_id: string | null;
  /** The installation's instant of the answer (epoch ms). */
  at: number;
  /** The same instant on the tenant's clock (migration 0060): `at` unless the clock was moved. */
  tenant_at: number | null;
  method: string;
  /** Path and query, secrets redacted. */
  path: string;
  operation_id: string | null;
  status: number;
  duration_ms: number;
  /** JSON object, secrets redacted. */
  request_headers: string;
  /** Capped, secrets redacted; null: no body. */
  request_body: string | null;
  response_headers: string;
  response_body: string | null;
  fault_id: string | null;
  /** JSON: `{extension, deprecated, ignored, request_truncated, response_truncated}`. */
  flags: string;
  /** The call's size: the UTF-8 bytes of its path, headers, bodies and flags (migration 0050). */
  bytes: number;
}

/** Each tenant's calls in the log and their bytes, kept by the writes (migration 0050; admin/request-log/bounds.ts). */
export interface RequestLogUsageTable {
  tenant: string;
  calls: number;
  bytes: number;
}

declare module '../../platform/db/schema.js' {
  interface Tables {
    request_log: RequestLogTable;
    request_log_usage: RequestLogUsageTable;
  }
}
