import { formatDateTime } from '../../platform/time.js';
import type { Report } from './schemas.js';
import type { IntegrationReport } from './service.js';

const rate = (errors: number, calls: number) => (calls === 0 ? 0 : Math.round((errors / calls) * 10_000) / 10_000);
const ms = (value: number) => Math.round(value * 10) / 10;

export function presentReport(report: IntegrationReport): Report {
  return {
    tenant: report.tenant.key,
    since: formatDateTime(report.since),
    until: formatDateTime(report.until),
    calls: report.calls,
    errors: report.errors,
    error_rate: rate(report.errors, report.calls),
    operations: report.operations.map((line) => ({
      operation_id: line.operationId,
      method: line.method,
      example_path: line.examplePath,
      calls: line.calls,
      errors: line.errors,
      error_rate: rate(line.errors, line.calls),
      statuses: line.statuses,
      latency_ms: {
        p50: ms(line.latencyMs.p50),
        p95: ms(line.latencyMs.p95),
        p99: ms(line.latencyMs.p99),
        max: ms(line.latencyMs.max),
      },
      faulted: line.faulted,
      extension: line.extension,
      deprecated: line.deprecated,
      ignored_parameters: line.ignored,
    })),
    timeline: {
      bucket_seconds: report.timeline.bucketMs / 1000,
      points: report.timeline.points.map((p) => ({ at: formatDateTime(p.at), calls: p.calls, errors: p.errors })),
    },
    near_misses: report.nearMisses,
  };
}

/** The report as markdown (`atrium report`): a summary, the operations table, then what to fix before going live. */
export function reportMarkdown(report: Report): string {
  const out: string[] = [];
  out.push(`# Integration report: ${report.tenant}`, '');
  out.push(
    `From ${report.since} to ${report.until}: ${report.calls} calls, ${report.errors} errors (${(report.error_rate * 100).toFixed(1)} %).`,
    '',
  );
  if (report.operations.length === 0) {
    out.push('No calls in this range.');
    return `${out.join('\n')}\n`;
  }
  out.push('| Operation | Calls | Errors | Error rate | p50 ms | p95 ms | p99 ms | Notes |');
  out.push('|---|---:|---:|---:|---:|---:|---:|---|');
  for (const line of report.operations) {
    const notes = [
      line.extension ? 'Atrium extension' : '',
      line.deprecated ? 'deprecated' : '',
      Object.keys(line.ignored_parameters).length > 0
        ? `ignored: ${Object.keys(line.ignored_parameters).join(', ')}`
        : '',
      line.faulted > 0 ? `${line.faulted} faulted` : '',
    ]
      .filter(Boolean)
      .join('; ');
    const name = line.operation_id ?? `${line.method} ${line.example_path} (no operation)`;
    out.push(
      `| \`${name}\` | ${line.calls} | ${line.errors} | ${(line.error_rate * 100).toFixed(1)} % | ${line.latency_ms.p50} | ${line.latency_ms.p95} | ${line.latency_ms.p99} | ${notes} |`,
    );
  }
  const extensions = report.operations.filter((l) => l.extension);
  const deprecated = report.operations.filter((l) => l.deprecated);
  const ignored = report.operations.filter((l) => Object.keys(l.ignored_parameters).length > 0);
  const misses = Object.entries(report.near_misses).filter(([, n]) => n > 0);
  out.push('', '## Before going live', '');
  if (extensions.length + deprecated.length + ignored.length + misses.length === 0) {
    out.push('Nothing: every call used an operation of the real API, none deprecated, with parameters it takes.');
  }
  for (const line of extensions) {
    out.push(
      `- \`${line.operation_id}\` is an Atrium extension: the real service has no such operation (${line.calls} calls).`,
    );
  }
  for (const line of deprecated) {
    out.push(`- \`${line.operation_id}\` is deprecated in the real API (${line.calls} calls).`);
  }
  for (const line of ignored) {
    const operation = line.operation_id ?? line.example_path;
    for (const [name, calls] of Object.entries(line.ignored_parameters)) {
      const [param, max] = name.split('>');
      out.push(
        max === undefined
          ? `- \`${operation}\` was sent \`${param}\`, which it does not take: the real API ignores or refuses it (${calls} calls).`
          : `- \`${operation}\` was sent \`${param}\` above its maximum, ${max}: Atrium served ${max} (${calls} calls).`,
      );
    }
  }
  if (misses.length > 0) {
    const total = misses.reduce((sum, [, n]) => sum + n, 0);
    const counts = misses.map(([reason, n]) => `${reason.replace('_', ' ')}: ${n}`).join(', ');
    out.push(
      `- ${total} near misses (calls that failed authentication or hit no route; the request log shows each): ${counts}.`,
    );
  }
  return `${out.join('\n')}\n`;
}
