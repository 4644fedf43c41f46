/**
 * Every fenced code block of README.md and docs/*.md (found by listing docs/, so a new file is covered at once) is
 * run or checked, by its info string (the words after the opening fence):
 *
 * - `sh`, `bash` (and `console`, whose `$ ` lines run): the blocks of one Markdown file run in document order in ONE
 *   bash session (`set -euo pipefail`; variables carry over), in a fresh temporary directory, never in the clone.
 *   There `atrium` is the built CLI (dist/cli/main.js, which `npm test` builds), on the PATH and through `npx atrium`
 *   (a local bin: npm runs offline, and `npx atrium --help` is checked to work with no registry reachable);
 *   `ATRIUM_DATA_DIR` is the data directory of a server (SQLite file database, as `npm start`) started for that
 *   Markdown file on a free port; `http://127.0.0.1:8080`, `127.0.0.1:8080` and `localhost:8080` in a block
 *   are that server's address. The directory is an npm project with `@atrium/client`, `@types/node`, `tsx` and
 *   `tsc` installed (links into the checkout), as the SDK quick start's project.
 * - `ts`: type-checked with the pinned TypeScript (node_modules/typescript) and with `typescript@latest`, which this
 *   test installs into a temporary prefix (if that install fails, the half is skipped loudly; with CI set, it fails),
 *   under `strict`, `module`/`moduleResolution` NodeNext, `"types": ["node"]`, as ES modules; then run with tsx in
 *   the session, in its turn (its exported variables are in its environment).
 *   `ts fragment`: a piece of a program, type-checked after the nearest preceding whole `ts` block of the same
 *   file (whose declarations it may use), and not run.
 * - `js`, `mjs`: run with node in the session, in their turn (as ES modules).
 * - `json` must parse; `jsonc` must parse once `//` and `/* *\/` comments are removed (one value, or several one
 *   after the other); `xml`: tags balanced under one root; `csv`: parsed by csv-parse (`;` when the header has no
 *   `,`), rows of equal length; `http`: a request or status line, then header lines; `text`: not empty.
 * - Words after the language: `background` (sh, ts, js: started in the background, stopped with everything else at
 *   the end of the file); `file=NAME` (the block is written to NAME in the directory before anything runs, for
 *   example a `json file=package.json`); `not-run: <reason>` (neither run nor checked; the reason must match an
 *   accepted one, NOT_RUN_REASONS in test/support/doc-blocks.ts, and the list of such blocks is printed).
 * - A block of any other language, or without one, fails the test, naming the block.
 *
 * ATRIUM_DOCS_FILTER=<substring> narrows the files to those whose path contains it (`docs/`, `admin.md`).
 * Failures name the file, the line and the block's standard error.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { serve } from '../support/cli.js';
import {
  type Block,
  checkSample,
  extractBlocks,
  installLatestTypeScript,
  markdownFiles,
  NOT_RUN_REASONS,
  PROGRAM,
  SAMPLE,
  SHELL,
  where,
} from '../support/doc-blocks.js';
import { freshDatabase } from '../support/harness.js';
import { ROOT } from '../support/root.js';

const FILES = markdownFiles(ROOT).map((file) => ({
  file,
  blocks: extractBlocks(file, fs.readFileSync(path.join(ROOT, file), 'utf8')),
}));
const BLOCKS = FILES.flatMap((f) => f.blocks);
const runs = (b: Block) => b.notRun === undefined && (SHELL.has(b.lang) || (PROGRAM.has(b.lang) && !b.fragment));
const CLI = path.join(ROOT, 'dist/cli/main.js');
/** How long one Markdown file's blocks may take together. */
const FILE_TIMEOUT_MS = 180_000;

const temps: string[] = [];
const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
after(() => {
  for (const d of temps) fs.rmSync(d, { recursive: true, force: true });
});

function run(
  file: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { ...options, encoding: 'utf8', maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/**
 * Makes `dir` an npm project as a reader's: ES modules, with `atrium` (the built CLI), `@atrium/client`,
 * `@types/node`, `tsx` and `tsc` installed, as links into the checkout.
 */
function makeProject(dir: string): void {
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'atrium-docs-blocks', private: true, type: 'module' }),
  );
  const nm = path.join(dir, 'node_modules');
  fs.mkdirSync(path.join(nm, '@atrium'), { recursive: true });
  fs.mkdirSync(path.join(nm, '@types'));
  fs.mkdirSync(path.join(nm, '.bin'));
  fs.symlinkSync(path.join(ROOT, 'packages/client'), path.join(nm, '@atrium/client'), 'dir');
  fs.symlinkSync(path.join(ROOT, 'node_modules/@types/node'), path.join(nm, '@types/node'), 'dir');
  for (const bin of ['tsx', 'tsc']) {
    fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules/.bin', bin)), path.join(nm, '.bin', bin));
  }
  fs.writeFileSync(path.join(nm, '.bin/atrium'), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`, {
    mode: 0o755,
  });
}

/** The block with the documentation's address replaced by the server's. */
function addressed(code: string, url: string): string {
  const host = new URL(url).host;
  return code
    .replaceAll('http://127.0.0.1:8080', url)
    .replaceAll('127.0.0.1:8080', host)
    .replaceAll('localhost:8080', host);
}

describe('the code blocks of the README and docs/', { concurrency: 3 }, () => {
  it('each has a known language and known words, and a block not run an accepted reason', (t) => {
    const problems: string[] = [];
    const notRun: string[] = [];
    for (const b of BLOCKS) {
      if (!SHELL.has(b.lang) && !PROGRAM.has(b.lang) && !SAMPLE.has(b.lang)) {
        problems.push(`${where(b)}: the language "${b.lang}" is not checked by this test (info string "${b.info}")`);
      }
      if (b.unknown.length > 0) problems.push(`${where(b)}: unknown words in the info string: ${b.unknown.join(' ')}`);
      if (b.fragment && b.lang !== 'ts') problems.push(`${where(b)}: only a ts block can be a fragment`);
      if (b.background && !(SHELL.has(b.lang) || PROGRAM.has(b.lang))) {
        problems.push(`${where(b)}: only sh, ts and js blocks run in the background`);
      }
      if (b.notRun !== undefined) {
        if (b.notRun === '') problems.push(`${where(b)}: not-run without a reason`);
        else if (!NOT_RUN_REASONS.some((r) => r.pattern.test(b.notRun as string))) {
          problems.push(`${where(b)}: not-run for a reason not accepted by NOT_RUN_REASONS: "${b.notRun}"`);
        }
        notRun.push(`${where(b)} (${b.lang}): ${b.notRun}`);
      }
    }
    t.diagnostic(`blocks: ${BLOCKS.length} in ${FILES.length} files; not run: ${notRun.length}`);
    for (const n of notRun) t.diagnostic(`not run: ${n}`);
    assert.deepEqual(problems, []);
  });

  it('the samples (json, jsonc, xml, csv, http, text) are well-formed', () => {
    const problems: string[] = [];
    for (const b of BLOCKS.filter((x) => SAMPLE.has(x.lang) && x.notRun === undefined)) {
      try {
        checkSample(b);
      } catch (e) {
        problems.push(`${where(b)} (${b.lang}): ${(e as Error).message}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  // One program for every ts block: each block a module of its own; a fragment follows its whole block.
  const tsBlocks = BLOCKS.filter((b) => b.lang === 'ts' && b.notRun === undefined);
  let checkDir: string | undefined;
  /** File name in the check project → how its lines map back to the Markdown. */
  const sources = new Map<string, { line: (n: number) => string }>();
  function checkProject(): string {
    if (checkDir) return checkDir;
    checkDir = tempDir('atrium-docs-tsc-');
    makeProject(checkDir);
    const problems: string[] = [];
    FILES.forEach(({ blocks }) => {
      let whole: Block | undefined;
      for (const b of blocks.filter((x) => x.lang === 'ts' && x.notRun === undefined)) {
        const name = `${b.file.replace(/[^\w]+/g, '_')}_L${b.line}.ts`;
        if (!b.fragment) {
          whole = b;
          fs.writeFileSync(path.join(checkDir as string, name), b.code);
          sources.set(name, { line: (n) => `${b.file}:${b.line + n}` });
          continue;
        }
        if (!whole) {
          problems.push(`${where(b)}: a ts fragment with no whole ts block before it in its file`);
          continue;
        }
        const context = whole;
        const contextLines = context.code.split('\n').length - 1;
        fs.writeFileSync(path.join(checkDir as string, name), context.code + b.code);
        sources.set(name, {
          line: (n) =>
            n > contextLines ? `${b.file}:${b.line + n - contextLines}` : `${context.file}:${context.line + n}`,
        });
      }
    });
    assert.deepEqual(problems, []);
    fs.writeFileSync(
      path.join(checkDir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          types: ['node'],
          skipLibCheck: true,
          noEmit: true,
        },
        include: ['*.ts'],
      }),
    );
    return checkDir;
  }
  /** tsc's errors, each with the Markdown file and line it comes from. */
  async function typeCheck(tsc: string): Promise<string> {
    const dir = checkProject();
    const r = await run(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: dir });
    if (r.code === 0) return '';
    return `${r.stdout}${r.stderr}`.replace(/^(\S+\.ts)\((\d+),(\d+)\)/gm, (all, name: string, line: string, col) => {
      const source = sources.get(name);
      return source ? `${source.line(Number(line))}:${col}` : all;
    });
  }

  it('the ts blocks type-check with the pinned TypeScript', { skip: tsBlocks.length === 0 }, async () => {
    const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/typescript/package.json'), 'utf8'));
    const errors = await typeCheck(path.join(ROOT, 'node_modules/typescript/bin/tsc'));
    assert.equal(errors, '', `tsc ${version.version}:\n${errors}`);
  });

  it('the ts blocks type-check with typescript@latest', { skip: tsBlocks.length === 0 }, async (t) => {
    const latest = await installLatestTypeScript(tempDir('atrium-docs-ts-latest-'));
    if ('failed' in latest) {
      const message = `${latest.failed}\nthe latest-TypeScript half is SKIPPED`;
      console.error(`!!! ${message}`);
      assert.ok(!process.env.CI, `CI is set: failing instead of skipping. ${message}`);
      t.skip(message);
      return;
    }
    t.diagnostic(`typescript@latest is ${latest.version}`);
    const errors = await typeCheck(latest.tsc);
    assert.equal(errors, '', `tsc ${latest.version}:\n${errors}`);
  });

  for (const { file, blocks } of FILES.filter((f) => f.blocks.some(runs))) {
    it(`${file}: its blocks run in order`, { timeout: FILE_TIMEOUT_MS + 30_000 }, async () => {
      await runFile(file, blocks);
    });
  }
});

/** Runs one Markdown file's sh, ts and js blocks in one bash session against a server of its own. */
async function runFile(file: string, blocks: Block[]): Promise<void> {
  const database = await freshDatabase('sqlite', { migrated: true });
  const dataDir = database.env.ATRIUM_DATA_DIR as string;
  const server = await serve({ ATRIUM_DATA_DIR: dataDir });
  const work = tempDir('atrium-docs-run-');
  const state = tempDir('atrium-docs-state-');
  try {
    makeProject(work);
    fs.mkdirSync(path.join(work, '.doc-blocks'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${path.join(work, 'node_modules/.bin')}:${path.dirname(process.execPath)}:${process.env.PATH}`,
      ATRIUM_DATA_DIR: dataDir,
      npm_config_offline: 'true',
      // A block's `npm install --global` lands in the temporary directory, not on the machine.
      npm_config_prefix: path.join(work, '.npm-global'),
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
    };
    delete env.DATABASE_URL;
    delete env.NODE_OPTIONS;

    // `npx atrium` is the local bin, with no registry: an unreachable one, and offline.
    const npx = await run('npx', ['--no-install', 'atrium', '--help'], {
      cwd: work,
      env: { ...env, npm_config_registry: 'http://127.0.0.1:9/' },
    });
    assert.equal(npx.code, 0, `npx atrium --help, offline:\n${npx.stderr}`);
    assert.match(npx.stdout, /Usage: atrium/);

    for (const b of blocks) {
      if (b.fileName && b.notRun === undefined) fs.writeFileSync(path.join(work, b.fileName), b.code);
    }
    const script = ['set -euo pipefail', `cd '${work}'`];
    script.push(`trap '__rc=$?; printf "%s %s %s\\n" "$LINENO" "$__rc" "$BASH_COMMAND" > '"'${state}/failed'" ERR`);
    const order = blocks.filter(runs);
    order.forEach((b, i) => {
      const code = addressed(b.code, server.url);
      let command: string;
      if (SHELL.has(b.lang)) {
        const body =
          b.lang === 'console'
            ? code
                .split('\n')
                .filter((l) => l.startsWith('$ '))
                .map((l) => l.slice(2))
                .join('\n')
            : code;
        fs.writeFileSync(path.join(state, `${i}.sh`), body);
        command = b.background ? `( source '${state}/${i}.sh' )` : `source '${state}/${i}.sh'`;
      } else {
        const ext = b.lang === 'ts' ? 'ts' : 'mjs';
        const target = b.fileName ? path.join(work, b.fileName) : path.join(work, '.doc-blocks', `L${b.line}.${ext}`);
        fs.writeFileSync(target, code);
        command = `${b.lang === 'ts' ? 'tsx' : 'node'} '${target}'`;
      }
      script.push(`echo ${i} > '${state}/current'`);
      if (b.background) script.push(`${command} > '${state}/${i}.out' 2> '${state}/${i}.err' &`);
      else script.push(`exec > '${state}/${i}.out' 2> '${state}/${i}.err'`, command);
    });
    script.push(`echo done > '${state}/current'`);
    fs.writeFileSync(path.join(state, 'session.sh'), `${script.join('\n')}\n`);

    const log = fs.openSync(path.join(state, 'session.log'), 'w');
    const bash = spawn('bash', [path.join(state, 'session.sh')], {
      cwd: work,
      env,
      detached: true,
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup(bash.pid as number, 'SIGKILL');
    }, FILE_TIMEOUT_MS);
    const code = await new Promise<number>((resolve) => bash.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
    clearTimeout(timer);
    // Everything the blocks left running (background blocks, servers they started) is stopped.
    stopGroup(bash.pid as number, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    stopGroup(bash.pid as number, 'SIGKILL');

    const read = (name: string) =>
      fs.existsSync(path.join(state, name)) ? fs.readFileSync(path.join(state, name), 'utf8') : '';
    const current = read('current').trim();
    if (code === 0 && current === 'done' && !timedOut) return;
    const index = current === '' ? -1 : Number(current);
    const b = order[index];
    if (!b) assert.fail(`${file}: the session failed before its first block (exit ${code}):\n${read('session.log')}`);
    const failed = /^(\d+) (\d+) (.*)$/s.exec(read('failed').trim());
    const line = failed && SHELL.has(b.lang) ? `${b.file}:${b.line + Number(failed[1])}` : where(b);
    assert.fail(
      [
        `${line}: the ${b.lang} block at ${where(b)} ${timedOut ? `did not finish within ${FILE_TIMEOUT_MS / 1000} s` : `failed (exit ${failed?.[2] ?? code})`}${failed && SHELL.has(b.lang) ? `: ${failed[3]}` : ''}`,
        `--- stderr\n${read(`${index}.err`).slice(-4000)}`,
        `--- stdout\n${read(`${index}.out`).slice(-2000)}`,
      ].join('\n'),
    );
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    await database.drop();
  }
}

function stopGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group has ended already.
  }
}
