/**
 * `npm test`: runs every test file in parallel, against SQLite and, when it
 * can, PostgreSQL. PostgreSQL comes from DATABASE_URL (an admin URL on which
 * each test file creates its own database) or from a throwaway cluster
 * started from /usr/lib/postgresql/15/bin. Without either, the PostgreSQL
 * half is skipped loudly; with CI set, that is a failure instead.
 * The browser tests (test/browser/) run in a Chromium found by
 * test/support/browser.ts; without one they are skipped, said in one line;
 * with ATRIUM_REQUIRE_BROWSER=1, that is a failure instead.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BROWSER_REQUIRED, findChromium, INSTALL_HINT } from './support/browser.js';
import { type Cluster, postgresAvailable, startCluster } from './support/postgres.js';
import { prepareTemplates } from './support/templates.js';

function findTests(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findTests(full));
    else if (entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out.sort();
}

const root = path.dirname(new URL(import.meta.url).pathname);
const checkout = path.dirname(root);
/**
 * The tests run compiled, from `.build/` (tsconfig.json's outDir), with plain Node: loading the app's modules
 * through tsx's loader cost each test process about 1.5 s more CPU on Node 20 (docs/development.md, "Tests").
 * `tsc` is incremental. Under `npm test` it is not run here: the script's `npm run lint` has just run the same
 * command, which emits the same files.
 */
const BUILD = path.join(checkout, '.build');
if (process.env.npm_lifecycle_event !== 'test') {
  const tsc = spawnSync(
    process.execPath,
    [path.join(checkout, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
    {
      cwd: checkout,
      stdio: 'inherit',
    },
  );
  if (tsc.status !== 0) {
    console.error('test: tsc -p tsconfig.json failed: the tests are not run.');
    process.exit(1);
  }
}
const compiled = (file: string) => path.join(BUILD, path.relative(checkout, file)).replace(/\.ts$/, '.js');
/**
 * `--heavy` runs only `test/heavy/`: the benchmark harness, the soaks (SIGKILL under load, killed bulk calls,
 * imports, deliveries, jobs and distributions), the fuzzer and the big export, minutes of load (`npm run
 * test:heavy`, which CI runs after `npm test`). Without it they are left out, so that `npm test` stays within its
 * ten minutes. Files run in the order below (FIRST, then alphabetically; test/support/run-files.ts).
 */
const heavy = process.argv.includes('--heavy');
const filters = process.argv.slice(2).filter((a) => a !== '--heavy');
/**
 * The files that start first, longest first; the rest follow alphabetically (a file missing here only costs time).
 * In `npm test`, only the tenant isolation matrix: about 100 s on its own, it ran alone at the end when it started
 * in its turn. Starting every long file first (the browser files, the snapshots, the CLI) made the suite slower in
 * CI, not faster: five Chromium-driving files at once contend for two cores. In `--heavy`, the three longest.
 */
const FIRST = (
  heavy ? ['heavy/import-kill', 'heavy/bench-smoke', 'heavy/distributions'] : ['reliability/isolation']
).map((name) => name.split('/').join(path.sep));
const rank = (file: string) => {
  const at = FIRST.findIndex((name) => path.relative(root, file).startsWith(name));
  return at === -1 ? FIRST.length : at;
};
const isHeavy = (f: string) => f.includes(`${path.sep}heavy${path.sep}`);
const files = findTests(root)
  .filter((f) => isHeavy(f) === heavy)
  // Matched against the path under test/, so that a word in the checkout's own path selects nothing by itself.
  .filter((f) => filters.length === 0 || filters.some((x) => path.relative(root, f).includes(x)))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

const browserTests = files.filter((f) => path.relative(root, f).startsWith(`browser${path.sep}`)).length;
let browserSkipped = false;
if (browserTests > 0) {
  const chromium = findChromium();
  if ('path' in chromium) {
    console.log(`test: browser tests (${browserTests} file(s)) run in ${chromium.path}`);
  } else {
    browserSkipped = true;
    console.error(`test: browser tests SKIPPED (${browserTests} file(s)): ${chromium.missing}; ${INSTALL_HINT}.`);
    if (BROWSER_REQUIRED) {
      console.error('ATRIUM_REQUIRE_BROWSER=1 is set: failing instead of skipping the browser tests.');
      process.exit(1);
    }
  }
}

let cluster: Cluster | undefined;
const env: NodeJS.ProcessEnv = { ...process.env };
if (process.env.ATRIUM_TEST_PG_URL) {
  // Already given (for example by an outer runner).
} else if (process.env.DATABASE_URL) {
  env.ATRIUM_TEST_PG_URL = process.env.DATABASE_URL;
} else if (process.env.ATRIUM_TEST_SQLITE_ONLY === '1') {
  console.log('test: ATRIUM_TEST_SQLITE_ONLY=1: SQLite only, as asked (PostgreSQL is not started)');
} else if (postgresAvailable()) {
  cluster = await startCluster();
  env.ATRIUM_TEST_PG_URL = cluster.url;
  console.log(`test: PostgreSQL cluster started at ${cluster.url}`);
} else {
  const banner = '!'.repeat(78);
  console.error(
    `${banner}\n!! PostgreSQL is not available (no DATABASE_URL, no /usr/lib/postgresql/15/bin):\n!! the PostgreSQL half of the suite is SKIPPED. Only SQLite is tested.\n${banner}`,
  );
  if (process.env.CI) {
    console.error('CI is set: failing instead of skipping PostgreSQL.');
    process.exit(1);
  }
}
// The server code under test must not pick up the runner's DATABASE_URL by accident.
delete env.DATABASE_URL;
/**
 * A whole run (no filter, not --heavy) records which test file calls which operation (test/support/parity-hits.ts)
 * in .build/parity-hits/, then checks the parity page against it (scripts/parity.ts --check; docs/development.md,
 * "Parity"). A filtered run records nothing unless ATRIUM_PARITY_HITS is given, and checks nothing.
 */
const wholeRun = !heavy && filters.length === 0;
const parityHits = path.join(BUILD, 'parity-hits');
if (wholeRun) {
  fs.rmSync(parityHits, { recursive: true, force: true });
  fs.mkdirSync(parityHits, { recursive: true });
  env.ATRIUM_PARITY_HITS = parityHits;
}
// Migrated once here; each server a test starts copies them (test/support/templates.ts).
const templates = await prepareTemplates(env.ATRIUM_TEST_PG_URL);
Object.assign(env, templates.env);

// Twice the cores plus one: many files wait on servers, child processes and timers (docs/development.md, "Tests").
// The heavy files load the machine by themselves (a benchmark, SIGKILL soaks, a 100k-event export): one per core.
const cores = os.availableParallelism();
const concurrency = Number(
  process.env.ATRIUM_TEST_CONCURRENCY ?? (heavy ? Math.max(2, cores) : Math.max(2, cores * 2 + 1)),
);
env.ATRIUM_TEST_CONCURRENCY = String(concurrency);
// test/support/run-files.ts runs the files in this order (`node --test <files>` would sort them by name).
const child = spawn(
  process.execPath,
  ['--enable-source-maps', compiled(path.join(root, 'support', 'run-files.ts')), ...files.map(compiled)],
  {
    stdio: 'inherit',
    env,
  },
);
let code: number = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
await templates.drop().catch(() => {});
cluster?.stop();
if (wholeRun && code === 0) {
  if (browserSkipped) {
    console.error('test: the parity check is SKIPPED: the browser tests did not run, so their calls are missing.');
  } else {
    const check = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(checkout, 'scripts/parity.ts'), '--check'],
      {
        cwd: checkout,
        stdio: 'inherit',
      },
    );
    code = check.status ?? 1;
  }
}
process.exit(code);
