/**
 * `npm run test:package` (issue 17, items 2 and 3): a production install of the packed package, made with the
 * Dockerfile's own steps. `npm pack` builds the whole package again and the install fetches every runtime
 * dependency (better-sqlite3's binary ships inside its package: nothing compiles), so `.ci/run` runs it after
 * `npm test` rather than in it.
 *
 * 1. The Dockerfile's `package-test: pack` step, run as written in this checkout: `npm pack` (its prepare step
 *    builds dist/).
 * 2. Its `package-test: install` step, run as written: `npm install --global --omit=dev` of the tarball into a
 *    temporary prefix.
 * 3. No devDependency is installed; `atrium serve` from the prefix's bin starts in a directory of its own, answers
 *    /healthz, /readyz and /version, and serves the Academy API to an academy the installed CLI created; the HR API
 *    answers through the SDK loaded as `atrium/client` from the installed package (the @atrium/client it bundles);
 *    SIGTERM stops it with exit 0.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { markedStep, ROOT } from '../support/dockerfile.js';

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  devDependencies: Record<string, string>;
};

/** The environment of every command: nothing of the test runner (tsx hooks, a DATABASE_URL) leaks in. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.NODE_OPTIONS;
  delete env.DATABASE_URL;
  for (const key of Object.keys(env)) if (key.startsWith('npm_') || key.startsWith('ATRIUM_TEST_')) delete env[key];
  return env;
}

function run(
  file: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code, signal) => resolve({ status: code ?? (signal ? 128 : 1), stdout, stderr }));
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('production install of the packed package (the Dockerfile steps)', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-package-'));
  const packDir = path.join(tmp, 'pkg');
  const prefix = path.join(tmp, 'prefix');
  const home = path.join(tmp, 'home');
  const dataDir = path.join(home, 'data');
  const installed = path.join(prefix, 'lib', 'node_modules', 'atrium');
  const steps = { PACK_DIR: packDir, ATRIUM_PREFIX: prefix };
  let server: ChildProcess | undefined;
  let exited: Promise<number | null> | undefined;
  let base = '';
  let serverLog = '';

  before(() => fs.mkdirSync(home, { recursive: true }));
  after(() => {
    server?.kill('SIGKILL');
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('packs the checkout with the Dockerfile step "package-test: pack"', async () => {
    const r = await run('sh', ['-c', markedStep('pack')], { cwd: ROOT, env: cleanEnv(steps) });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(fs.readdirSync(packDir), [`atrium-${pkg.version}.tgz`]);
  });

  it('installs the tarball without devDependencies with the step "package-test: install"', async () => {
    const r = await run('sh', ['-c', markedStep('install')], { cwd: tmp, env: cleanEnv(steps) });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.ok(fs.existsSync(path.join(prefix, 'bin', 'atrium')), 'the atrium command is on the prefix bin');
    assert.ok(fs.existsSync(path.join(installed, 'dist', 'cli', 'main.js')), 'dist/ is shipped');
    const modules = path.join(installed, 'node_modules');
    const present = Object.keys(pkg.devDependencies).filter((name) => fs.existsSync(path.join(modules, name)));
    assert.deepEqual(present, [], 'no devDependency is installed');
    assert.ok(fs.existsSync(path.join(modules, 'better-sqlite3')), 'the runtime dependencies are');
    assert.equal(fs.existsSync(path.join(installed, 'src')), false, 'no TypeScript sources');
  });

  it('starts atrium serve from the prefix; /healthz, /readyz and /version answer', async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env = cleanEnv({
      PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
      HOST: '127.0.0.1',
      PORT: String(port),
      ATRIUM_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    });
    // The command the image runs (CMD ["atrium", "serve"]), from a directory outside the checkout.
    const child = spawn('atrium', ['serve'], { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'] });
    server = child;
    child.stdout?.on('data', (d) => {
      serverLog += d;
    });
    child.stderr?.on('data', (d) => {
      serverLog += d;
    });
    exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    let health: Response | undefined;
    for (let i = 0; i < 600 && !health; i++) {
      health = await fetch(`${base}/healthz`).catch(() => undefined);
      if (!health) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(health, `the server answers within a minute:\n${serverLog}`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: 'ok' });
    const ready = await fetch(`${base}/readyz`);
    assert.equal(ready.status, 200);
    const version = await fetch(`${base}/version`);
    assert.equal(version.status, 200);
    const body = (await version.json()) as { version: string; commit: string | null; node: string };
    assert.equal(body.version, pkg.version);
    assert.equal(body.commit, null, 'an installed package without .git or ATRIUM_COMMIT has no commit');
    assert.ok(fs.existsSync(path.join(dataDir, 'atrium.sqlite')), 'the database is in ATRIUM_DATA_DIR');
  });

  it('serves the Academy API to an academy the installed CLI creates', async () => {
    const env = cleanEnv({ ATRIUM_DATA_DIR: dataDir });
    const r = await run(path.join(prefix, 'bin', 'atrium'), ['academy', 'create', '--name', 'Packaged', '--json'], {
      cwd: home,
      env,
    });
    assert.equal(r.status, 0, r.stderr);
    const { acadId, apikey } = JSON.parse(r.stdout) as { acadId: number; apikey: string };
    const res = await fetch(`${base}/v1/events/vc?acadId=${acadId}&limit=5`, { headers: { 'X-API-Key': apikey } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(await res.json(), { all: 0, events: [] });
  });

  it('answers the HR API through the SDK, loaded as atrium/client from the installed package (bundled @atrium/client)', async () => {
    const bin = path.join(prefix, 'bin', 'atrium');
    const env = cleanEnv({ ATRIUM_DATA_DIR: dataDir });
    const client = await run(bin, ['hr', 'create-client', '--name', 'Packaged', '--json'], { cwd: home, env });
    assert.equal(client.status, 0, client.stderr);
    const { client_id } = JSON.parse(client.stdout) as { client_id: string };
    const app = await run(bin, ['hr', 'create-application', '--client-id', client_id, '--name', 'SDK', '--json'], {
      cwd: home,
      env,
    });
    assert.equal(app.status, 0, app.stderr);
    const { application_id, application_secret } = JSON.parse(app.stdout) as Record<string, string>;
    assert.ok(
      fs.existsSync(path.join(installed, 'node_modules', '@atrium', 'client', 'dist', 'esm', 'index.js')),
      'the SDK package is bundled',
    );
    const script = `
      const { HrClient } = await import('atrium/client');
      const hr = new HrClient(${JSON.stringify({ baseUrl: base, applicationId: application_id, applicationSecret: application_secret, clientId: client_id })});
      await hr.organizations.upsert('acme', { name: 'Acme' });
      console.log(JSON.stringify((await hr.organizations.list().toArray()).map((o) => o.id)));
    `;
    // From inside the installed package: its own exports map resolves atrium/client.
    const r = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: installed, env: cleanEnv({}) });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), '["acme"]');
  });

  it('stops on SIGTERM with exit code 0', async () => {
    server?.kill('SIGTERM');
    assert.equal(await exited, 0, serverLog);
    server = undefined;
  });
});
