import { formatDateTime } from '../../platform/time.js';
import type { LoggedCallRecord } from './repository.js';
import type { LoggedCall } from './schemas.js';

export function presentCall(call: LoggedCallRecord): LoggedCall {
  return {
    seq: call.seq,
    at: formatDateTime(call.at),
    tenant_at: formatDateTime(call.tenantAt),
    credential_id: call.credentialId,
    method: call.method,
    path: call.path,
    operation_id: call.operationId,
    status: call.status,
    duration_ms: call.durationMs,
    request: { headers: call.requestHeaders, body: call.requestBody, body_truncated: call.flags.requestTruncated },
    response: { headers: call.responseHeaders, body: call.responseBody, body_truncated: call.flags.responseTruncated },
    fault_id: call.faultId,
    extension: call.flags.extension,
    deprecated: call.flags.deprecated,
    ignored_parameters: call.flags.ignored,
    near_miss: call.flags.nearMiss ?? null,
  };
}

/** A page's cursor: the `seq` its next page goes below. */
export function cursorOf(seq: number): string {
  return Buffer.from(`seq:${seq}`).toString('base64url');
}

/** The `seq` of a cursor; undefined when it is not one of ours. */
export function seqOfCursor(cursor: string): number | undefined {
  const m = /^seq:([0-9]{1,16})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : undefined;
}
