/**
 * The validation proxy's report in words: the text `atrium proxy report` prints and the proxy's own page
 * (`GET /__atrium/proxy`). Both list the operations seen, those with departures first, and each departure with
 * its direction, kind, field, what Atrium's schema expects and what came, its count and an example call.
 */
import type { DepartureRow, ProxyReport } from './store.js';

function line(d: DepartureRow): string {
  const field = d.field ? ` ${d.field}` : '';
  return `  ${d.direction} ${d.kind}${field}: expected ${d.expected}, got ${d.actual} (${d.count}×, e.g. ${d.example.method} ${d.example.path} → ${d.example.status})`;
}

export function reportText(report: ProxyReport): string {
  if (report.operations.length === 0) return 'no call has gone through the proxy yet\n';
  const out: string[] = [];
  const departing = report.operations.filter((o) => o.departures.length > 0);
  out.push(
    `${report.calls} calls, ${report.operations.length} operations, ${departing.length} with departures (${report.departures} in all)`,
  );
  for (const o of report.operations) {
    const api = o.api ? ` [${o.api}]` : '';
    out.push(`${o.operation}${api}: ${o.calls} calls, ${o.departing} departing`);
    for (const d of o.departures) out.push(line(d));
  }
  return `${out.join('\n')}\n`;
}

const html = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function reportHtml(report: ProxyReport, target: string): string {
  const rows = report.operations
    .map((o) => {
      const departures = o.departures
        .map(
          (d) =>
            `<tr><td>${html(d.direction)}</td><td>${html(d.kind)}</td><td><code>${html(d.field)}</code></td><td>${html(d.expected)}</td><td>${html(d.actual)}</td><td>${d.count}</td><td><code>${html(`${d.example.method} ${d.example.path} → ${d.example.status}`)}</code></td></tr>`,
        )
        .join('');
      const table = departures
        ? `<table><thead><tr><th>direction</th><th>kind</th><th>field</th><th>expected</th><th>actual</th><th>count</th><th>example</th></tr></thead><tbody>${departures}</tbody></table>`
        : '<p>No departure.</p>';
      return `<section><h2><code>${html(o.operation)}</code></h2><p>${o.calls} calls, ${o.departing} departing${o.api ? ` (${o.api})` : ''}</p>${table}</section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Atrium proxy: departures</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#1a1a1a}table{border-collapse:collapse}td,th{border:1px solid #999;padding:.25rem .5rem;text-align:left}</style>
</head><body><main>
<h1>Departures from Atrium's schemas</h1>
<p>Target: <code>${html(target)}</code>. ${report.calls} calls, ${report.departures} departures. JSON: <a href="/__atrium/proxy.json">/__atrium/proxy.json</a>.</p>
${rows || '<p>No call has gone through the proxy yet.</p>'}
</main></body></html>
`;
}
