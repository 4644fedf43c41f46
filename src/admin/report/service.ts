import { InvalidRequestError } from '../../platform/errors.js';
import { DAY_MS, parseDateTime } from '../../platform/time.js';
import { NEAR_MISS_REASONS, type NearMissReason } from '../request-log/near-miss.js';
import type { RequestLogRepository } from '../request-log/repository.js';
import type { TenantRef } from '../tenant-ref.js';

/** `since` and `until` of a report: datetimes, defaulting to the last 24 hours; `since` before `until`. */
export function reportRange(
  query: { since?: string | undefined; until?: string | undefined },
  now: number,
): { since: number; until: number } {
  const parse = (text: string | undefined, field: string, fallback: number) => {
    if (text === undefined) return fallback;
    const at = parseDateTime(text);
    if (at === undefined) {
      throw new InvalidRequestError(
        `Invalid query parameter "${field}": must be a datetime, YYYY-MM-DDThh:mm:ss±hh:mm.`,
      );
    }
    return at;
  };
  const until = parse(query.until, 'until', now);
  const since = parse(query.since, 'since', until - DAY_MS);
  if (since >= until) throw new InvalidRequestError('"since" must be before "until".');
  return { since, until };
}

/** One operation's line of a report. */
export interface OperationLine {
  /** Null: calls no operation served (an unknown path). */
  operationId: string | null;
  method: string;
  /** The path of its first call in the range, without the query. */
  examplePath: string;
  calls: number;
  errors: number;
  /** Status → calls. */
  statuses: Record<string, number>;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  faulted: number;
  extension: boolean;
  deprecated: boolean;
  /** Parameter → calls that sent it. */
  ignored: Record<string, number>;
}

/** Calls and errors over time: one point per bucket from `since` to `until`, empty ones included. */
export interface Timeline {
  bucketMs: number;
  points: { at: number; calls: number; errors: number }[];
}

export interface IntegrationReport {
  tenant: TenantRef;
  since: number;
  until: number;
  calls: number;
  errors: number;
  operations: OperationLine[];
  timeline: Timeline;
  /** Calls that failed authentication or hit no route, by reason (every reason, zeros included). */
  nearMisses: Record<NearMissReason, number>;
}

/** Bucket widths a timeline may use, smallest first: a minute up to a week. */
const BUCKETS_MS = [1, 5, 15, 30, 60, 180, 360, 720, 1440, 10_080].map((minutes) => minutes * 60_000);
/** A timeline has at most this many points. */
const MAX_POINTS = 60;

/** The empty timeline of a range: the narrowest bucket that keeps it within 60 points, aligned on the bucket. */
function emptyTimeline(since: number, until: number): Timeline {
  const bucketMs =
    BUCKETS_MS.find((width) => Math.ceil(until / width) - Math.floor(since / width) <= MAX_POINTS) ??
    Math.ceil((until - since) / MAX_POINTS / 60_000) * 60_000;
  const points: Timeline['points'] = [];
  for (let at = Math.floor(since / bucketMs) * bucketMs; at < until; at += bucketMs)
    points.push({ at, calls: 0, errors: 0 });
  return { bucketMs, points };
}

/** The nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

/**
 * The integration report of a tenant over a time range (docs/admin.md, "Report"), from its request log: each
 * operation called, with counts, error rate and latency, and what would not work against the real service: Atrium
 * extensions, operations the real API deprecates, parameters it ignores. The markings come from the operations'
 * OpenAPI markings (`Atrium extensions` tag, `deprecated`), recorded with each call.
 */
export class ReportService {
  constructor(private readonly log: RequestLogRepository) {}

  async report(tenant: TenantRef, since: number, until: number): Promise<IntegrationReport> {
    const calls = await this.log.forReport(tenant.key, since, until);
    const lines = new Map<string, OperationLine & { durations: number[] }>();
    const timeline = emptyTimeline(since, until);
    const first = timeline.points[0]?.at ?? since;
    const nearMisses = Object.fromEntries(NEAR_MISS_REASONS.map((r) => [r, 0])) as Record<NearMissReason, number>;
    for (const call of calls) {
      const miss = call.flags.nearMiss;
      if (miss && miss.reason in nearMisses) nearMisses[miss.reason]++;
      const point = timeline.points[Math.floor((call.at - first) / timeline.bucketMs)];
      if (point) {
        point.calls++;
        if (call.status >= 400) point.errors++;
      }
      const key = `${call.method} ${call.operationId ?? '?'}`;
      let line = lines.get(key);
      if (!line) {
        line = {
          operationId: call.operationId,
          method: call.method,
          examplePath: call.path.split('?', 1)[0] as string,
          calls: 0,
          errors: 0,
          statuses: {},
          latencyMs: { p50: 0, p95: 0, p99: 0, max: 0 },
          faulted: 0,
          extension: false,
          deprecated: false,
          ignored: {},
          durations: [],
        };
        lines.set(key, line);
      }
      line.calls++;
      if (call.status >= 400) line.errors++;
      line.statuses[String(call.status)] = (line.statuses[String(call.status)] ?? 0) + 1;
      if (call.faultId !== null) line.faulted++;
      line.extension ||= call.flags.extension;
      line.deprecated ||= call.flags.deprecated;
      for (const name of call.flags.ignored) line.ignored[name] = (line.ignored[name] ?? 0) + 1;
      line.durations.push(call.durationMs);
    }
    const operations = [...lines.values()].map(({ durations, ...line }) => {
      const sorted = durations.sort((a, b) => a - b);
      return {
        ...line,
        latencyMs: {
          p50: percentile(sorted, 50),
          p95: percentile(sorted, 95),
          p99: percentile(sorted, 99),
          max: sorted.at(-1) ?? 0,
        },
      };
    });
    operations.sort((a, b) => b.calls - a.calls || (a.operationId ?? '').localeCompare(b.operationId ?? ''));
    return {
      tenant,
      since,
      until,
      calls: calls.length,
      errors: operations.reduce((n, line) => n + line.errors, 0),
      operations,
      timeline,
      nearMisses,
    };
  }
}
