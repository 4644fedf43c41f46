/**
 * The request log's types (`/tenants/{kind}/{id}/requests`), and verification: the calls a tenant made, checked
 * against a matcher, with an assertion error that any test runner reports (the server's docs/admin.md).
 */
import { AtriumError } from '../errors.js';

/** One call of a tenant API, as the request log keeps it (secrets redacted, bodies capped). */
export interface LoggedCall {
  seq: number;
  /** When it was answered, in the installation's time. */
  at: string;
  /** The same instant on the tenant's clock: `at` unless the clock was moved. */
  tenant_at: string;
  credential_id: string | null;
  method: string;
  path: string;
  operation_id: string | null;
  status: number;
  duration_ms: number;
  request: { headers: Record<string, string>; body: string | null; body_truncated: boolean };
  response: { headers: Record<string, string>; body: string | null; body_truncated: boolean };
  fault_id: string | null;
  extension: boolean;
  deprecated: boolean;
  ignored_parameters: string[];
  /** The call failed authentication or hit no route, and named this tenant; null: not a near miss. */
  near_miss: NearMiss | null;
}

/** Why a call missed (the server's docs/admin.md, "Near misses"). */
export type NearMissReason =
  | 'unknown_path'
  | 'wrong_method'
  | 'bad_token'
  | 'expired_token'
  | 'wrong_scope'
  | 'bad_key';

/** A call that failed authentication or hit no route. */
export interface NearMiss {
  reason: NearMissReason;
  /** For `unknown_path` and `wrong_method`: the closest served operations, closest first. */
  suggestions: { method: string; path: string; operation_id: string }[];
  /** This operation exists in the real API but Atrium does not serve it yet. */
  unserved_reference_operation?: { method: string; path: string };
}

/** Which logged calls `requests.list` reads (`limit` is the page size). */
export interface RequestLogFilter {
  method?: string;
  /** A status (`503`) or a class (`'5xx'`). */
  status?: number | string;
  operation_id?: string;
  /** Calls whose path starts with this. */
  path?: string;
  since?: string;
  until?: string;
  faulted?: boolean;
  limit?: number;
}

/** JSON, as a matcher compares it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** `requests.verify`: which calls, and how many of them; every member optional (none matches every call). */
export interface RequestMatcher {
  operation_id?: string;
  method?: string;
  /** The whole path as logged, without its query: `*` or `{name}` one segment, `**` any number of them. */
  path?: string;
  /** A status (`201`) or a class (`'2xx'`). */
  status?: number | `${1 | 2 | 3 | 4 | 5}xx`;
  /** Parameters the query holds: a string is one of its values, an array all of them in order. */
  query?: Record<string, string | string[]>;
  /** A JSON subset of the request body (a form body reads as an object of strings). */
  body?: JsonValue;
  /** One field of the request body (`$.employees[0].email`), equal to a value. */
  body_field?: { path: string; equals: JsonValue };
  /** Answered at or after, on the tenant's clock (datetime). */
  since?: string;
  /** Answered before, on the tenant's clock (datetime). */
  until?: string;
  /** How many calls must match: exactly `n`, or `{min, max}`. Default: at least one. */
  count?: number | { min?: number; max?: number };
}

/** One criterion a call failed; `actual` is left out when the call has no such field. */
export interface RequestDifference {
  field: string;
  expected: unknown;
  actual?: unknown;
}

/** What `POST …/requests/verify` answers. */
export interface RequestVerification {
  ok: boolean;
  matched: number;
  /** What `count` asks, in words: `at least 1`, `exactly 2`. */
  expected: string;
  scanned: number;
  /** Whether every call of the log was scanned. */
  complete: boolean;
  /** The first 20 matching calls, oldest first. */
  calls: LoggedCall[];
  /** When too few matched: at most 5 other calls, fewest differences first. */
  closest: { call: LoggedCall; differences: RequestDifference[] }[];
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function callLine(call: LoggedCall): string {
  return `#${call.seq} ${call.method} ${call.path} → ${call.status} at ${call.tenant_at}`;
}

/** The assertion's message: what was asked, what was found, and how the closest calls differ. */
export function verificationMessage(tenant: string, matcher: RequestMatcher, result: RequestVerification): string {
  const { count: _count, ...criteria } = matcher;
  const lines = [
    `Expected ${result.expected} call(s) of ${tenant} matching ${show(criteria)}, found ${result.matched}` +
      ` (${result.scanned} call(s) scanned${result.complete ? '' : ', older ones not'}).`,
  ];
  if (result.matched > 0) {
    lines.push('Matching calls:');
    for (const call of result.calls) lines.push(`  ${callLine(call)}`);
    if (result.matched > result.calls.length) lines.push(`  … and ${result.matched - result.calls.length} more`);
  }
  if (result.closest.length > 0) {
    lines.push('Closest calls:');
    for (const { call, differences } of result.closest) {
      lines.push(`  ${callLine(call)}`);
      for (const d of differences) {
        lines.push(`    ${d.field}: expected ${show(d.expected)}, got ${'actual' in d ? show(d.actual) : 'nothing'}`);
      }
    }
  } else if (result.scanned === 0) lines.push(`The log of ${tenant} holds no call.`);
  return lines.join('\n');
}

/**
 * A verification that failed (`requests.verify`): its message says what was asked, what was found and how the
 * closest calls differ. `code` is `ERR_ASSERTION`, as `node:assert`'s errors, so that test runners report it as a
 * failed assertion.
 */
export class RequestVerificationError extends AtriumError {
  override name = 'RequestVerificationError';
  readonly code = 'ERR_ASSERTION';

  constructor(
    readonly tenant: string,
    readonly matcher: RequestMatcher,
    readonly verification: RequestVerification,
  ) {
    super(verificationMessage(tenant, matcher, verification));
  }
}
