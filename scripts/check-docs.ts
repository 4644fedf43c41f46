/**
 * `npm run check:docs`: proves that /docs renders in headless Chromium with
 * no network access beyond this machine's loopback. Not part of `npm test`,
 * so machines without Chromium still pass the suite. Needs Debian's
 * `chromium` package (or CHROME_BIN pointing at a Chromium binary).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/platform/config.js';

const run = promisify(execFile);
const chromium = process.env.CHROME_BIN ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  console.error(`check:docs: no Chromium at ${chromium}; install Debian's chromium package or set CHROME_BIN.`);
  process.exit(2);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-docs-'));
const app = await buildApp(loadConfig({ ATRIUM_DATA_DIR: dataDir, LOG_LEVEL: 'warn' }));
const base = await app.server.listen({ port: 0, host: '127.0.0.1' });
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-chromium-'));
const screenshot = path.join(process.cwd(), 'docs-screenshot.png');
const flags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--user-data-dir=${profile}`,
  // Every host but loopback resolves to nothing: the page must not need the network.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
  '--virtual-time-budget=15000',
  '--window-size=1280,1600',
];
let failed = false;
try {
  const { stdout: dom } = await run(chromium, [...flags, '--dump-dom', `${base}/docs`], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const checks: [string, RegExp][] = [
    ['the Swagger UI application mounted', /class="swagger-ui/],
    ['the document title from /openapi.json', /Atrium/],
    ['an operation of the HR API', /\/api\/v2\/client\/organizations/],
    ['the token endpoint', /\/api\/v2\/client\/tokens/],
  ];
  for (const [what, re] of checks) {
    const ok = re.test(dom);
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
    if (!ok) failed = true;
  }
  await run(chromium, [...flags, `--screenshot=${screenshot}`, `${base}/docs`]);
  console.log(`screenshot: ${screenshot}`);
} finally {
  await app.close();
  fs.rmSync(profile, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
}
if (failed) {
  console.error('check:docs: /docs did not render');
  process.exit(1);
}
console.log('check:docs: /docs renders offline in headless Chromium');
