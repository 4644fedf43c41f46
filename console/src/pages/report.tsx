import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { type Report, reports } from '../api';
import { Alert, useAction } from '../components';

const RANGES = [
  { label: 'Last hour', ms: 3_600_000 },
  { label: 'Last 24 hours', ms: 86_400_000 },
  { label: 'Last 7 days', ms: 7 * 86_400_000 },
] as const;

/** The integration report of a tenant (docs/admin.md, "Report"), with its calls and errors over time as a chart. */
export function ReportPage(props: { params: Record<string, string> }) {
  const kind = props.params.kind ?? '';
  const id = props.params.id ?? '';
  const [range, setRange] = useState<number>(RANGES[1].ms);
  const [report, setReport] = useState<Report | undefined>();
  const { error, run } = useAction();
  useEffect(() => {
    void run(async () => {
      // The installation's time: the report's range is in it, whatever the tenant's clock says.
      setReport(await reports.retrieve(kind, id, new Date(Date.now() - range).toISOString()));
    });
  }, [kind, id, range]);

  return (
    <section aria-labelledby="report-title">
      <p>
        <a href={`/console/tenants/${kind}/${encodeURIComponent(id)}`}>← The tenant</a>
      </p>
      <h1 id="report-title">Integration report</h1>
      {error && <Alert>{error}</Alert>}
      <label>
        Range{' '}
        <select value={String(range)} onChange={(e) => setRange(Number((e.target as HTMLSelectElement).value))}>
          {RANGES.map((r) => (
            <option key={r.ms} value={String(r.ms)}>
              {r.label}
            </option>
          ))}
        </select>
      </label>
      {report && (
        <>
          <p data-testid="report-summary">
            {report.calls} calls, {report.errors} errors ({(report.error_rate * 100).toFixed(1)} %), from {report.since}{' '}
            to {report.until}.
          </p>
          <NearMisses counts={report.near_misses} />
          <Chart report={report} />
          <table>
            <caption class="visually-hidden">Operations called, most called first</caption>
            <thead>
              <tr>
                <th scope="col">Operation</th>
                <th scope="col">Calls</th>
                <th scope="col">Errors</th>
                <th scope="col">p50 / p99 ms</th>
                <th scope="col">Before going live</th>
              </tr>
            </thead>
            <tbody>
              {report.operations.map((line) => (
                <tr key={`${line.method} ${line.operation_id}`}>
                  <td data-label="Operation">
                    <code>{line.operation_id ?? `${line.method} ${line.example_path}`}</code>
                  </td>
                  <td data-label="Calls">{line.calls}</td>
                  <td data-label="Errors">{line.errors}</td>
                  <td data-label="p50 / p99 ms">
                    {line.latency_ms.p50} / {line.latency_ms.p99}
                  </td>
                  <td data-label="Before going live">{notes(line).join('; ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

/** Calls that failed authentication or hit no route, by reason: shown only when there are some. */
function NearMisses(props: { counts: Report['near_misses'] }) {
  const found = Object.entries(props.counts ?? {}).filter(([, n]) => n > 0);
  if (found.length === 0) return null;
  const total = found.reduce((sum, [, n]) => sum + n, 0);
  return (
    <p data-testid="near-misses">
      Before going live: {total} near misses (calls that failed authentication or hit no route; the request log marks
      each): {found.map(([reason, n]) => `${reason.replace('_', ' ')}: ${n}`).join(', ')}.
    </p>
  );
}

function notes(line: Report['operations'][number]): string[] {
  const out: string[] = [];
  if (line.extension) out.push('an Atrium extension: the real service has no such operation');
  if (line.deprecated) out.push('deprecated by the real API');
  const ignored = Object.keys(line.ignored_parameters);
  if (ignored.length > 0) out.push(`parameters it ignores: ${ignored.join(', ')}`);
  if (line.faulted > 0) out.push(`${line.faulted} shaped by a fault rule`);
  return out;
}

/** Calls and errors per point of the timeline, drawn by uPlot (bundled: nothing is loaded from elsewhere). */
function Chart(props: { report: Report }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const points = props.report.timeline.points;
    const styles = getComputedStyle(document.documentElement);
    const color = (name: string) => styles.getPropertyValue(name).trim() || 'currentColor';
    const plot = new uPlot(
      {
        width: Math.max(280, el.clientWidth),
        height: 220,
        series: [
          {},
          { label: 'Calls', stroke: color('--accent'), width: 2 },
          { label: 'Errors', stroke: color('--danger'), width: 2 },
        ],
        axes: [
          { stroke: color('--muted'), grid: { stroke: color('--line') } },
          { stroke: color('--muted'), grid: { stroke: color('--line') } },
        ],
      },
      [points.map((p) => Date.parse(p.at) / 1000), points.map((p) => p.calls), points.map((p) => p.errors)],
      el,
    );
    const resize = () => plot.setSize({ width: Math.max(280, el.clientWidth), height: 220 });
    addEventListener('resize', resize);
    return () => {
      removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [props.report]);
  const total = props.report.timeline.points.reduce((n, p) => n + p.calls, 0);
  return (
    <figure class="chart">
      <div ref={box} role="img" aria-label={`Calls and errors over time: ${total} calls`} />
      <figcaption class="muted">Calls and errors per {props.report.timeline.bucket_seconds / 60} minutes.</figcaption>
    </figure>
  );
}
