import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PACKAGE_ROOT } from '../build-info.js';
import { NotFoundError } from '../errors.js';
import { PARITY_JSON } from '../parity/page-files.js';
import type { ParityOperation, ParityReport } from '../parity/report.js';
import { lazyBody, type StaticBody, sendStatic } from './static-body.js';
import { escapeHtml, FAVICON, securePage } from './web-page.js';

/**
 * `GET /parity`: the parity page (docs/parity.md, docs/development.md "Parity") as HTML, beside `/docs`, made from
 * `docs/parity.json`, which `npm run parity` writes and the package ships; `GET /parity.json` is that file. One
 * answer with its style inline and no script, like the landing page; both made on the first request and kept.
 */

const STYLE = `
:root { color-scheme: light dark; --bg: #fbfbfd; --fg: #1c1e23; --muted: #555b68; --link: #2b4fc7; --rule: #d8dbe3; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #14161b; --fg: #e7e9ef; --muted: #a3a9b7; --link: #93b2ff; --rule: #2d313b; }
}
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 72rem; margin: 0 auto; padding: 2rem 1.25rem 3rem; }
a { color: var(--link); }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1.5rem; }
th, td { text-align: left; vertical-align: top; padding: 0.3rem 0.5rem; border-bottom: 1px solid var(--rule); }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
code { font: 0.9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.muted { color: var(--muted); }
`;

const CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
];

const e = escapeHtml;

function summary(report: ParityReport): string {
  const row = (name: string, c: { operations: number; served: number; tested: number; departures: number }) =>
    `<tr><td>${name}</td><td class="n">${c.operations}</td><td class="n">${c.served}</td><td class="n">${c.tested}</td><td class="n">${c.departures}</td></tr>`;
  const rows = report.apis.flatMap((api) => [
    row(`<strong>${e(api.title)}</strong> <code>${e(api.prefix)}</code>`, api),
    ...api.areas.map((a) => row(e(a.area), a)),
    `<tr><td>Served beyond the reference</td><td class="n">—</td><td class="n">${api.beyond.served}</td><td class="n">${api.beyond.tested}</td><td class="n">—</td></tr>`,
  ]);
  return `<table><thead><tr><th>API and area</th><th>Operations</th><th>Served</th><th>Tested</th><th>Departures</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function operationRow(op: ParityOperation): string {
  const tests =
    op.tests.length === 0 ? '<strong>none</strong>' : op.tests.map((t) => e(t.replace(/^test\//, ''))).join(', ');
  const departures =
    op.departures.map((d) => `${e(d.summary)} <span class="muted">(<code>${e(d.docs)}</code>)</span>`).join('<br>') ||
    '—';
  const served = op.served ? `yes <code>${e(op.operation_id ?? '')}</code>` : '<strong>no</strong>';
  return `<tr><td><code>${e(`${op.method} ${op.path}`)}</code></td><td>${served}</td><td>${op.served ? tests : '—'}</td><td>${departures}</td></tr>`;
}

export function parityHtml(report: ParityReport): string {
  const sections = report.apis.map((api) => {
    const ops = report.operations.filter((o) => o.api === api.api);
    const beyond = report.beyond_reference.filter((b) => b.api === api.api);
    const beyondRows = beyond.map(
      (b) =>
        `<tr><td><code>${e(`${b.method} ${b.path}`)}</code></td><td>yes <code>${e(b.operation_id)}</code>${b.extension ? ' (Atrium extension)' : ''}</td><td>${b.tests.map((t) => e(t.replace(/^test\//, ''))).join(', ') || '<strong>none</strong>'}</td><td>—</td></tr>`,
    );
    return `<h2>${e(api.title)} <code>${e(api.prefix)}</code></h2><p class="muted">Source: ${e(api.source)}.</p>
<table><thead><tr><th>Operation</th><th>Served</th><th>Tests</th><th>Departures</th></tr></thead><tbody>${ops.map(operationRow).join('')}${beyondRows.join('')}</tbody></table>`;
  });
  const { date, commit } = report.generated;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Atrium: parity with the real APIs</title>
<link rel="icon" type="image/svg+xml" href="${e(FAVICON)}">
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Parity with the real APIs</h1>
<p>Every operation of the real HR and Academy APIs, whether this Atrium serves it, the test files that call it, and
its known departures. Generated ${e(date)}${commit ? ` from commit <code>${e(commit.slice(0, 12))}</code>` : ''}; the data: <a href="parity.json">parity.json</a>; the API reference: <a href="docs">/docs</a>.</p>
<h2>Summary</h2>
${summary(report)}
${sections.join('\n')}
</main>
</body>
</html>
`;
}

export async function parityPage(app: FastifyInstance): Promise<void> {
  const file = path.join(PACKAGE_ROOT, PARITY_JSON);
  const missing = () => new NotFoundError('file', PARITY_JSON, `The parity page is not generated (${PARITY_JSON}).`);
  const json = lazyBody(() => readFile(file));
  const html = lazyBody(async () => parityHtml(JSON.parse(await readFile(file, 'utf8')) as ParityReport));
  const send = async (body: () => Promise<StaticBody>) => {
    try {
      return await body();
    } catch {
      throw missing();
    }
  };
  app.get('/parity', { schema: { hide: true } }, async (request, reply) =>
    sendStatic(request, securePage(request, reply, CSP), await send(html), 'text/html; charset=utf-8', 'no-cache'),
  );
  app.get('/parity.json', { schema: { hide: true } }, async (request, reply) =>
    sendStatic(request, reply, await send(json), 'application/json; charset=utf-8', 'no-cache'),
  );
}
