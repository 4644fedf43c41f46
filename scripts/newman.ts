/**
 * `npm run test:postman`: runs the Postman collection (dist/openapi/postman.json, written by `npm run build`) with
 * newman against a freshly seeded server, one newman run per product area (the collection's top-level folders), and
 * fails when any test of any request fails (docs/openapi-and-postman.md, "Running the collection with newman").
 *
 * It builds nothing: it uses dist/ as `npm run build` left it. In a temporary data directory it runs `atrium seed
 * --json` (the HR and Academy credentials) and `atrium admin create-token --json` (the Admin API's), starts
 * `atrium serve` on a free port, runs the areas in the collection's order (the variables that one area's requests
 * set are passed on to the next), prints a line per area and a total, stops the server and removes the directory.
 *
 * `ATRIUM_NEWMAN_FOLDERS="Academy API,Admin API"` runs only those areas; `ATRIUM_NEWMAN_VERBOSE=1` adds newman's own
 * report of each request.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { PostmanCollection } from './postman.js';

interface Failure {
  error: { name: string; test?: string; message: string };
  source?: { name?: string };
}
interface Summary {
  run: {
    stats: { requests: { total: number; failed: number }; assertions: { total: number; failed: number } };
    failures: Failure[];
  };
}
type Newman = {
  run(
    options: Record<string, unknown>,
    callback: (error: Error | null, summary: Summary) => void,
  ): { on(event: string, listener: (...args: unknown[]) => void): unknown };
};

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * newman is not a dependency of Atrium: two of the packages it brings are under licences outside the project's list
 * (tweetnacl, Unlicense; stream-length, WTFPL), so `npm install` never installs it. This script installs the pinned
 * version into node_modules/.cache/newman the first time it runs (the npm registry is reachable wherever the project
 * runs) and loads it from there.
 */
const NEWMAN_VERSION = '6.2.2';
async function loadNewman(): Promise<Newman> {
  const dir = path.join(root, 'node_modules', '.cache', 'newman');
  const installed = path.join(dir, 'node_modules', 'newman', 'package.json');
  const version = existsSync(installed) ? JSON.parse(readFileSync(installed, 'utf8')).version : undefined;
  if (version !== NEWMAN_VERSION) {
    console.log(`newman: installing newman@${NEWMAN_VERSION} into ${path.relative(root, dir)}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), '{"private": true}\n');
    await run('npm', [
      'install',
      '--prefix',
      dir,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `newman@${NEWMAN_VERSION}`,
    ]);
  }
  return createRequire(path.join(dir, 'package.json'))('newman') as Newman;
}
const newman = await loadNewman();
const cli = path.join(root, 'dist/cli/main.js');
const collectionFile = path.join(root, 'dist/openapi/postman.json');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitReady(url: string, server: { exitCode: number | null }): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error(`atrium serve exited (${server.exitCode})`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`atrium serve did not answer ${url}/readyz within 60 s`);
}

function runFolder(
  collection: PostmanCollection,
  folder: string,
  environment: Record<string, string>,
  verbose: boolean,
  variables: Map<string, string>,
): Promise<Summary> {
  return new Promise((resolve, reject) => {
    const emitter = newman.run(
      {
        collection,
        folder,
        envVar: Object.entries(environment).map(([key, value]) => ({ key, value })),
        reporters: verbose ? ['cli'] : [],
        timeoutRequest: 60_000,
      },
      (error, summary) => (error ? reject(error) : resolve(summary)),
    );
    // newman's summary has the collection as it was given: the variables the scripts set are read from each run of a
    // script instead.
    emitter.on('script', (_error, args) => {
      const scope = (args as { execution?: { collectionVariables?: { toObject(): Record<string, unknown> } } })
        ?.execution?.collectionVariables;
      for (const [key, value] of Object.entries(scope?.toObject() ?? {})) variables.set(key, String(value ?? ''));
    });
  });
}

async function main(): Promise<number> {
  for (const file of [cli, collectionFile]) {
    if (!existsSync(file)) {
      console.error(`test:postman: ${path.relative(root, file)} is missing: run \`npm run build\` first.`);
      return 2;
    }
  }
  let collection = JSON.parse(readFileSync(collectionFile, 'utf8')) as PostmanCollection;
  const only = process.env.ATRIUM_NEWMAN_FOLDERS?.split(',').map((f) => f.trim());
  const folders = collection.item.map((f) => f.name).filter((name) => !only || only.includes(name));
  const verbose = process.env.ATRIUM_NEWMAN_VERBOSE === '1';
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-newman-'));
  // SQLite in the temporary directory, whatever the shell's DATABASE_URL.
  const { DATABASE_URL: _unused, ...inherited } = process.env;
  const env = { ...inherited, ATRIUM_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  const started = Date.now();
  let server: ReturnType<typeof spawn> | undefined;
  try {
    const seeded = JSON.parse((await run(process.execPath, [cli, 'seed', '--json'], { env })).stdout) as {
      hr: { client_id: string; application_id: string; application_secret: string };
      academy: { acadId: number; apikey: string };
    };
    const admin = JSON.parse(
      (await run(process.execPath, [cli, 'admin', 'create-token', '--name', 'newman', '--json'], { env })).stdout,
    ) as { token: string };
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [cli, 'serve'], { env: { ...env, PORT: String(port) }, stdio: 'ignore' });
    await waitReady(url, server);
    console.log(`test:postman: seeded and serving ${url} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    // The environment overrides the collection's variables of the same name.
    const environment = {
      baseUrl: url,
      clientId: seeded.hr.client_id,
      applicationId: seeded.hr.application_id,
      applicationSecret: seeded.hr.application_secret,
      acadId: String(seeded.academy.acadId),
      apiKey: seeded.academy.apikey,
      adminToken: admin.token,
      // Skips the one endless request (the request log's live tail).
      runner: 'newman',
    };
    let requests = 0;
    let assertions = 0;
    let failed = 0;
    for (const folder of folders) {
      const folderStarted = Date.now();
      const variables = new Map<string, string>();
      const summary = await runFolder(collection, folder, environment, verbose, variables);
      // The variables its requests set (ids) go on to the next area.
      collection = {
        ...collection,
        variable: (collection.variable ?? []).map((v) =>
          variables.has(v.key) ? { ...v, value: variables.get(v.key) } : v,
        ),
      };
      const { stats, failures } = summary.run;
      requests += stats.requests.total;
      assertions += stats.assertions.total;
      failed += failures.length;
      console.log(
        `${failures.length === 0 ? 'ok  ' : 'FAIL'} ${folder}: ${stats.requests.total} requests, ${stats.assertions.total} tests, ${failures.length} failed (${((Date.now() - folderStarted) / 1000).toFixed(1)} s)`,
      );
      for (const failure of failures) {
        console.log(
          `     ✖ ${failure.source?.name ?? '?'}: ${failure.error.test ?? failure.error.name}: ${failure.error.message}`,
        );
      }
    }
    const passed = assertions - failed;
    console.log(
      `test:postman: ${folders.length} folders, ${requests} requests in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    console.log(`newman: ${passed} passed, ${failed} failed`);
    return failed === 0 && requests > 0 ? 0 : 1;
  } finally {
    server?.kill('SIGTERM');
    if (server && server.exitCode === null) await new Promise((resolve) => server?.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
