/**
 * The V8 flags the server runs with (docs/PERFORMANCE.md, "Memory"): the built CLI's shebang (what `npx atrium`
 * and an installed `atrium` run) and the `start` and `atrium` scripts name the same flags, the shell's `env -S`
 * passes them to node, and the workers of `serve --workers 2` run with them too. Needs `npm run build` first.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from '../support/root.js';

const CLI = path.join(ROOT, 'dist/cli/main.js');

function flagsOf(command: string, what: string): string[] {
  const match = /^(?:#!\/usr\/bin\/env -S )?node((?: --[a-z-]+=\S+)*) /.exec(command);
  assert.ok(match, `${what} runs node with flags: ${command}`);
  return (match[1] ?? '').trim().split(/\s+/).filter(Boolean);
}

function cmdline(pid: number): string[] {
  return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

describe('the V8 flags of the server', () => {
  const shebang = fs.readFileSync(CLI, 'utf8').split('\n')[0] as string;
  const flags = flagsOf(`${shebang} `, 'the CLI shebang');

  it('the shebang and the start and atrium scripts name the same flags, the two heap limits among them', () => {
    assert.ok(shebang.startsWith('#!/usr/bin/env -S node'), `the shebang passes flags through env -S: ${shebang}`);
    assert.ok(flags.includes('--max-semi-space-size=4'), `the young generation is capped: ${flags.join(' ')}`);
    assert.ok(
      flags.includes('--heap-growing-percent=40'),
      `the old generation is collected at 1.4 × what was live: ${flags.join(' ')}`,
    );
    const scripts = (
      JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    assert.deepEqual(flagsOf(scripts.start as string, 'npm start'), flags, 'npm start');
    assert.match(scripts.start as string, / dist\/cli\/main\.js serve$/, 'npm start serves');
    assert.deepEqual(flagsOf(scripts.atrium as string, 'npm run atrium'), flags, 'npm run atrium');
  });

  it('the shebang line, run as the shell runs it, gives node those flags', () => {
    const [envPath, ...rest] = shebang.slice(2).split(' ');
    const out = execFileSync(
      envPath as string,
      [rest.join(' '), '-e', 'console.log(process.execArgv.filter((a) => a.startsWith("--")).join(" "))'],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(out.trim(), flags.join(' '), 'node saw the flags');
  });

  it('serve --workers 2 runs its workers with the same flags', { skip: process.platform !== 'linux' }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-flags-'));
    const child = spawn(process.execPath, [...flags, CLI, 'serve', '--port', '0', '--workers', '2'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', ATRIUM_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    });
    try {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d) => {
          out += d;
          if (/listening on/i.test(out)) resolve();
        });
        child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
      });
      const children = fs
        .readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .map(Number);
      assert.equal(children.length, 2, `two workers: ${children.join(',')}`);
      for (const pid of children) {
        const args = cmdline(pid);
        for (const flag of flags) assert.ok(args.includes(flag), `worker ${pid} runs with ${flag}: ${args.join(' ')}`);
      }
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
