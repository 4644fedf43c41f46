/**
 * The browser tests' Chromium: Debian's `chromium` package (browser builds cannot be downloaded here), driven by
 * playwright-core. Find it, launch it, open a page that records every request it makes and every error it shows,
 * close it. test/run.ts uses `findChromium` to say, in one line, that the browser tests are skipped; each browser
 * test file passes `skipWithoutBrowser()` to its `describe`.
 *
 * `ATRIUM_REQUIRE_BROWSER=1` (CI sets it) makes a missing browser a failure rather than a skip.
 *
 * Code run in a page: the tests' TypeScript has no DOM types, so prefer locators and `$$eval` callbacks over
 * `document`; `page.evaluate` takes a string expression where DOM globals are needed, but `waitForFunction` with a
 * string is an `eval` that the pages' policy refuses. Under tsx, a callback sent to the page must not declare a named
 * function inside it (esbuild adds a `__name` helper the page does not have).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';

/** Names of the Chromium binary looked for on the PATH, when `CHROME_BIN` is not set. */
const NAMES = ['chromium', 'chromium-browser'];

export const BROWSER_REQUIRED = process.env.ATRIUM_REQUIRE_BROWSER === '1';

/** How to install the browser, for the messages. */
export const INSTALL_HINT = "install Debian's chromium package (apt-get install chromium) or set CHROME_BIN";

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The Chromium to drive: `CHROME_BIN` when set (and nothing else then), else `chromium` or `chromium-browser`. */
export function findChromium(): { path: string } | { missing: string } {
  const given = process.env.CHROME_BIN;
  if (given) return executable(given) ? { path: given } : { missing: `CHROME_BIN=${given} is not an executable file` };
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of NAMES) {
      const file = path.join(dir, name);
      if (executable(file)) return { path: file };
    }
  }
  return { missing: `no ${NAMES.join(' or ')} on the PATH` };
}

/**
 * For `describe(name, { skip: skipWithoutBrowser() }, …)`: the reason to skip when there is no Chromium, unless one
 * is required, in which case the tests run and fail at `launchBrowser`.
 */
export function skipWithoutBrowser(): string | false {
  const found = findChromium();
  if ('path' in found || BROWSER_REQUIRED) return false;
  return `browser tests skipped: ${found.missing}; ${INSTALL_HINT}`;
}

/** The flags Chromium runs with here (playwright adds `--headless` and a fresh `--user-data-dir` of its own). */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launches Chromium. `hosts` maps host names to addresses (`{'atrium.test': '127.0.0.1'}`), so that a page is
 * reached under a name that is not loopback, as from another machine; every other name and address resolves to
 * nothing but 127.0.0.1 and localhost, so a page that needs the network fails.
 */
export async function launchBrowser(options: { hosts?: Record<string, string> } = {}): Promise<Browser> {
  const found = findChromium();
  if (!('path' in found)) {
    throw new Error(`no Chromium for the browser tests (ATRIUM_REQUIRE_BROWSER=1): ${found.missing}; ${INSTALL_HINT}`);
  }
  const rules = [
    ...Object.entries(options.hosts ?? {}).map(([name, to]) => `MAP ${name} ${to}`),
    'MAP * ~NOTFOUND',
    'EXCLUDE 127.0.0.1',
    'EXCLUDE localhost',
  ];
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: found.path,
    headless: true,
    args: [...CHROMIUM_FLAGS, `--host-resolver-rules=${rules.join(', ')}`],
  });
}

export interface RecordedRequest {
  method: string;
  url: string;
  /** Playwright's resource type: document, script, stylesheet, fetch, image… */
  type: string;
}

export interface RecordedPage {
  page: Page;
  context: BrowserContext;
  /** Every request the page made, in order, each hop of a redirect included. */
  requests: RecordedRequest[];
  /** Requests that got no answer: `<url>: <error>`. */
  failed: string[];
  /** The URLs of the requests whose answer was read to its end. */
  finished: string[];
  /** Console errors (a blocked asset, a CSP violation) and uncaught exceptions of the page. */
  errors: string[];
  /** The requests whose URL is not under `origin` (`http://atrium.test:8080`); `data:` URLs are not requests. */
  outside(origin: string): RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A page in a context of its own (no cookie or cache shared with another page), recording what it does. Its waits
 * time out after a minute: generous, for a loaded machine (no test asserts how long anything took).
 */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<RecordedPage> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  const requests: RecordedRequest[] = [];
  const failed: string[] = [];
  const finished: string[] = [];
  const errors: string[] = [];
  page.on('requestfinished', (r) => finished.push(r.url()));
  page.on('request', (r) => requests.push({ method: r.method(), url: r.url(), type: r.resourceType() }));
  page.on('requestfailed', (r) => failed.push(`${r.url()}: ${r.failure()?.errorText ?? 'failed'}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
  return {
    page,
    context,
    requests,
    failed,
    finished,
    errors,
    outside: (origin) => requests.filter((r) => !r.url.startsWith(`${origin}/`)),
    close: () => context.close(),
  };
}

/** How a test looks at a page: its width (1280 by default), dark mode, and whether axe-core will be injected. */
export interface PageLook {
  width?: number;
  dark?: boolean;
  axe?: boolean;
}

/**
 * A context's options for a look: the width and colour scheme, and `bypassCSP` for axe-core, which is injected as a
 * script that the pages' own policies (rightly) refuse.
 */
export function lookOf(look: PageLook = {}): BrowserContextOptions {
  return {
    viewport: { width: look.width ?? 1280, height: 900 },
    colorScheme: look.dark ? 'dark' : 'light',
    bypassCSP: look.axe === true,
  };
}
