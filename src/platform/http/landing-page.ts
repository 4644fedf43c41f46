import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { escapeHtml, FAVICON, ICON_SVG, securePage } from './web-page.js';

/**
 * `GET /`: a small page saying what this server is and linking to what a person can open in a browser: the API
 * reference, the OpenAPI document and the Postman collection, and the health endpoints. One HTML answer with its
 * style inline and no script: nothing else to fetch, so it works offline and behind any proxy. Its links are
 * relative, so it also works under a path prefix. Dark mode follows the system setting (`prefers-color-scheme`).
 * It links only to pages served on its port: the web console (`/console`), unless the admin API has a port of its
 * own (`ATRIUM_ADMIN_PORT`), where the console is served instead.
 */

const STYLE = `
:root { color-scheme: light dark; --bg: #fbfbfd; --fg: #1c1e23; --muted: #555b68; --link: #2b4fc7; --rule: #d8dbe3;
  --code: #eceef3; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #14161b; --fg: #e7e9ef; --muted: #a3a9b7; --link: #93b2ff; --rule: #2d313b; --code: #242730; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 46rem; margin: 0 auto; padding: 2.5rem 1.25rem 3rem; }
header { display: flex; align-items: center; gap: 0.75rem; }
header svg { width: 2.5rem; height: 2.5rem; flex: none; }
h1 { font-size: 2rem; margin: 0; line-height: 1.2; }
.version { color: var(--muted); font-size: 0.95rem; font-weight: 400; margin-left: 0.5rem; }
h2 { font-size: 1.1rem; margin: 2rem 0 0.5rem; padding-bottom: 0.3rem; border-bottom: 1px solid var(--rule); }
p { margin: 0.75rem 0; }
ul { list-style: none; margin: 0; padding: 0; }
li { padding: 0.45rem 0; }
li span { display: block; color: var(--muted); font-size: 0.95rem; }
a { color: var(--link); text-underline-offset: 0.15em; }
a:focus-visible { outline: 2px solid var(--link); outline-offset: 2px; border-radius: 2px; }
code { font: 0.92em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code);
  padding: 0.1em 0.35em; border-radius: 4px; }
`;

/** The policy: nothing but the inline style (by its hash) and the `data:` favicon; no script at all. */
const CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
];

const link = (href: string, text: string, what: string) => `<li><a href="${href}">${text}</a><span>${what}</span></li>`;

function html(version: string, console: boolean): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Atrium</title>
<link rel="icon" type="image/svg+xml" href="${escapeHtml(FAVICON)}">
<style>${STYLE}</style>
</head>
<body>
<main>
<header>${ICON_SVG.replace('<svg ', '<svg aria-hidden="true" ')}<h1>Atrium<span class="version">${escapeHtml(version)}</span></h1></header>
<p>A self-hostable server for the HR service delivery client API (<code>/api/v2/client</code>) and the Academy
events API (<code>/v1</code>), with an admin API (<code>/admin/v1</code>) for operators and sandbox controls.</p>
${
  console
    ? `<h2>Console</h2>
<ul>
${link('console/', 'Web console', 'Tenants and their credentials, each tenant&#39;s clock, fault rules and snapshots, its live request log and report. Sign in with an operator token.')}
</ul>
`
    : ''
}<h2>Reference</h2>
<ul>
${link('docs', 'API reference', 'Every operation of the three APIs, with their schemas; calls can be tried from the page.')}
${link('openapi.json', 'OpenAPI document', '<code>/openapi.json</code>: OpenAPI 3.1, for client generators and tools.')}
${link('parity', 'Parity with the real APIs', 'Every operation of the real HR and Academy APIs: served or not, the tests that call it, its known departures.')}
${link('docs/postman.json', 'Postman collection', '<code>/docs/postman.json</code>: every operation, with the HR token request scripted.')}
</ul>
<h2>Health</h2>
<ul>
${link('healthz', '<code>/healthz</code>', 'Alive: 200 while the process runs.')}
${link('readyz', '<code>/readyz</code>', 'Ready: 200 when the database answers, 503 otherwise.')}
${link('version', '<code>/version</code>', 'The version and commit running.')}
</ul>
</main>
</body>
</html>
`;
}

export async function landingPage(app: FastifyInstance, options: { version: string; console: boolean }): Promise<void> {
  const body = html(options.version, options.console);
  app.get('/', { schema: { hide: true } }, async (request, reply) =>
    securePage(request, reply, CSP).type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(body),
  );
}
