/**
 * The README's SDK quick start runs as printed (issue 17, item 19): its package.json, tsconfig.json and demo.ts are
 * taken from the README, type-checked with the project's TypeScript and run with tsx against a server, in a
 * directory of their own whose node_modules holds only `@atrium/client` (a link to packages/client, built by npm run
 * build) and `@types/node`, with the credentials the README's walkthroughs export in its environment.
 * The one change: the port of `baseUrl`, which is the test server's.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { installLatestTypeScript } from '../support/doc-blocks.js';
import { createCredentials, dialects, startServer, type TestServer } from '../support/harness.js';
import { ROOT } from '../support/root.js';

/** Runs a command without blocking this process (the test server answers in it). */
function run(
  file: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, encoding: 'utf8', env }, (error, stdout, stderr) => {
      const status = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ status, stdout, stderr });
    });
  });
}

/** The fenced blocks of the README's SDK quick start, in order, with their language. */
function sdkBlocks(): { lang: string; code: string }[] {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## SDK quick start');
  assert.ok(start >= 0, 'the README has an "SDK quick start" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end);
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1] as string, code: m[2] as string }));
}

describe('the README SDK quick start', () => {
  let server: TestServer;
  let dir: string;
  before(async () => {
    server = await startServer(dialects()[0] ?? 'sqlite');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-readme-'));
  });
  after(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(`${dir}-ts`, { recursive: true, force: true });
    await server.close();
  });

  it('type-checks and runs as printed', async () => {
    const blocks = sdkBlocks();
    const [pkg, tsconfig] = blocks.filter((b) => b.lang === 'json');
    const demo = blocks.find((b) => b.lang === 'ts');
    assert.ok(pkg && tsconfig && demo, 'the section shows package.json, tsconfig.json and demo.ts');
    assert.match(demo.code, /baseUrl = 'http:\/\/127\.0\.0\.1:8080'/);
    fs.writeFileSync(path.join(dir, 'package.json'), pkg.code);
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), tsconfig.code);
    fs.writeFileSync(path.join(dir, 'demo.ts'), demo.code.replace('http://127.0.0.1:8080', server.url));
    // `npm install` of the SDK package: a link to the workspace, built by npm run build.
    fs.mkdirSync(path.join(dir, 'node_modules', '@atrium'), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'packages/client'), path.join(dir, 'node_modules', '@atrium', 'client'), 'dir');
    // and of @types/node (the demo reads files with node:fs).
    fs.mkdirSync(path.join(dir, 'node_modules', '@types'));
    fs.symlinkSync(
      path.join(ROOT, 'node_modules/@types/node'),
      path.join(dir, 'node_modules', '@types', 'node'),
      'dir',
    );

    // What the walkthroughs export: the HR application's credentials and the academy's key.
    const creds = await createCredentials(server);
    const academy = await server.app.services.academies.create('Readme academy');
    const env = {
      ...process.env,
      CLIENT_ID: creds.client_id,
      APP_ID: creds.application_id,
      APP_SECRET: creds.application_secret,
      ACAD: String(academy.acadId),
      KEY: academy.apikey,
    };

    const tsc = await run(
      process.execPath,
      [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
      dir,
    );
    assert.equal(tsc.status, 0, `tsc:\n${tsc.stdout}${tsc.stderr}`);
    // And with the newest TypeScript, as a reader who runs `npm install typescript` today gets it.
    const latest = await installLatestTypeScript(path.join(dir, '..', `${path.basename(dir)}-ts`));
    if ('failed' in latest) {
      console.error(`!!! ${latest.failed}\nthe README's SDK example is NOT type-checked with typescript@latest`);
      assert.ok(!process.env.CI, `CI is set: failing instead of skipping. ${latest.failed}`);
    } else {
      const tscLatest = await run(process.execPath, [latest.tsc, '-p', 'tsconfig.json'], dir);
      assert.equal(tscLatest.status, 0, `tsc ${latest.version}:\n${tscLatest.stdout}${tscLatest.stderr}`);
    }
    assert.match(
      tsconfig.code,
      /"types": \["node"\]/,
      'the tsconfig names @types/node (TypeScript 7 needs it: TS2591 without)',
    );
    const demoRun = await run(path.join(ROOT, 'node_modules/.bin/tsx'), ['demo.ts'], dir, env);
    assert.equal(demoRun.status, 0, `tsx demo.ts:\n${demoRun.stdout}${demoRun.stderr}`);
    const lines = demoRun.stdout.trim().split('\n');
    assert.ok(lines.includes('1'), `a page of one organization: ${demoRun.stdout}`);
    assert.match(demoRun.stdout, /422 validation_error/);
    assert.equal(lines.at(-1), '0 events');
    const stored = await server.app.database.db
      .selectFrom('hr_organizations')
      .select('id')
      .where('client_id', '=', creds.client_id)
      .execute();
    assert.deepEqual(
      stored.map((o) => o.id),
      ['acme'],
    );
  });
});
