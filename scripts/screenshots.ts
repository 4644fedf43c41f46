/**
 * `npm run screenshots`: the console's main pages at 1280 and 390 px wide, in docs/screenshots/ (docs/console.md shows
 * them), taken from a seeded server in Debian's Chromium (test/support/browser.ts). CI runs it, so it keeps working;
 * the committed pictures are refreshed by running it again.
 *
 * It builds nothing: run `npm run build` first (npm install does). The server is `atrium serve` on a fresh data
 * directory filled by `atrium seed --size small`; calls made for the log and the report come from a separate client.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startProcess } from '../bench/lib.js';
import { launchBrowser, openPage } from '../test/support/browser.js';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'docs/screenshots');
const cli = path.join(root, 'dist/cli/main.js');
const data = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-screenshots-'));
const env: NodeJS.ProcessEnv = { ...process.env, ATRIUM_DATA_DIR: data, LOG_LEVEL: 'warn' };
delete env.DATABASE_URL;

const atrium = (...args: string[]) =>
  JSON.parse(execFileSync(process.execPath, [cli, ...args, '--json'], { env, encoding: 'utf8' })) as Record<
    string,
    unknown
  >;

fs.mkdirSync(out, { recursive: true });
const seeded = atrium('seed', '--size', 'small') as {
  hr: { client_id: string; application_id: string; application_secret: string };
  academy: { acadId: number; apikey: string };
};
const { token } = atrium('admin', 'create-token', '--name', 'screenshots') as { token: string };
const server = await startProcess(process.execPath, [cli, 'serve', '--port', '0'], env);
const browser = await launchBrowser();
try {
  const base = server.url;
  const hr = seeded.hr;
  // Calls of the seeded client, for its request log and report: a token, lists, one 404.
  const basic = `Basic ${Buffer.from(`${hr.application_id}:${hr.application_secret}`).toString('base64')}`;
  const issued = await fetch(`${base}/api/v2/client/tokens`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'client', client_id: hr.client_id }),
  });
  const { access_token: bearer } = (await issued.json()) as { access_token: string };
  for (const p of ['/employees?per_page=5', '/requests?per_page=20', '/organizations', '/employees/nobody']) {
    await fetch(`${base}/api/v2/client${p}`, { headers: { authorization: `Bearer ${bearer}` } });
  }
  await new Promise((resolve) => setTimeout(resolve, 1500)); // the log is written within a second
  // What the data pages show: a seeded document (a one-page PDF) and its employee, and the bundled workshop.
  const documents = (await (
    await fetch(`${base}/api/v2/client/employee_documents?per_page=1`, {
      headers: { authorization: `Bearer ${bearer}` },
    })
  ).json()) as { id: string; employee_id: string }[];
  const document = documents[0];
  const { acadId, apikey } = seeded.academy;
  const { events } = (await (
    await fetch(`${base}/v1/events/ilt?acadId=${acadId}&limit=100`, { headers: { 'x-api-key': apikey } })
  ).json()) as { events: { id: number; title: string }[] };
  const event = events.find((e) => e.title === 'Leadership workshop');
  if (!document || !event) throw new Error('the seed made no document or no workshop');

  const tenant = `/console/tenants/hr/${hr.client_id}`;
  const data = `${tenant}/data`;
  const pages: [string, string, string][] = [
    ['sign-in', '/console/', 'Operator token'],
    ['tenants', '/console/tenants', 'Tenants'],
    ['tenant', tenant, 'Clock'],
    ['request-log', `${tenant}/log`, 'Request log'],
    ['report', `${tenant}/report`, 'Integration report'],
    ['employees', `${data}/employees`, 'Employees'],
    ['employee', `${data}/employees/${document.employee_id}`, 'Documents'],
    ['document', `${data}/documents/${document.id}`, 'File'],
    ['event', `/console/tenants/academy/${acadId}/data/events-ilt/${event.id}`, 'Attendance'],
  ];
  for (const width of [1280, 390]) {
    const recorded = await openPage(browser, { viewport: { width, height: width > 800 ? 900 : 844 } });
    const { page } = recorded;
    for (const [name, url, ready] of pages) {
      await page.goto(`${base}${url}`);
      if (name === 'sign-in') await page.getByLabel(ready).waitFor();
      else await page.getByRole('heading', { name: ready, exact: true }).waitFor();
      // Each page's data, loaded after its heading.
      if (name === 'tenants') await page.getByRole('article').first().waitFor();
      if (name === 'tenant') await page.getByTestId('clock-now').waitFor();
      if (name === 'report') await page.getByTestId('report-summary').waitFor();
      // The data pages: every list loaded; the document's preview drawn by the browser's PDF viewer.
      if (['employees', 'employee', 'event'].includes(name)) {
        while ((await page.getByText('Loading').count()) > 0) await new Promise((r) => setTimeout(r, 50));
      }
      if (name === 'document') {
        await page.getByTestId('preview').locator('iframe').waitFor();
        await new Promise((resolve) => setTimeout(resolve, 1500));
      }
      if (name === 'request-log') {
        const row = page.getByRole('row').filter({ hasText: '/requests?per_page=20' });
        await row.getByRole('button').click();
      }
      await page.screenshot({
        path: path.join(out, `console-${name}-${width}.png`),
        fullPage: ['tenant', 'report', 'employee', 'event'].includes(name),
      });
      if (name === 'sign-in') {
        await page.getByLabel('Operator token').fill(token);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('button', { name: 'Sign out' }).waitFor();
      }
    }
    // But the page's own blob: URLs (the document's bytes) and the browser's built-in PDF viewer (chrome://).
    const outside = recorded
      .outside(base)
      .filter((r) => !r.url.startsWith(`blob:${base}/`) && !/^chrome(-extension)?:\/\//.test(r.url));
    if (outside.length > 0) throw new Error(`requests outside ${base}: ${outside.map((r) => r.url).join(', ')}`);
    await recorded.close();
  }
  console.log(`screenshots: ${pages.length * 2} pictures in ${path.relative(root, out)}/`);
} finally {
  await browser.close();
  await server.stop();
  fs.rmSync(data, { recursive: true, force: true });
}
