/** Running the built `atrium` command (dist/cli/main.js) from the CLI tests: `npm test` builds dist first. */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../../src/cli/run.js';
import { ROOT } from './root.js';

export { ROOT };
export const CLI = path.join(ROOT, 'dist/cli/main.js');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `atrium …args` in this process (src/cli/run.ts, `runCli`), with these settings added to the environment (no
 * DATABASE_URL unless given): what it prints and its exit code, as the process would give them, without starting
 * one (each start costs a second or more of CPU). `atriumProcess` starts the real command, for what only a process
 * shows: the bin, the exit itself, a terminal, signals.
 */
export async function atrium(env: Record<string, string>, ...args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: {
      write: (text: string) => {
        stdout += text;
      },
    },
    stderr: {
      write: (text: string) => {
        stderr += text;
      },
    },
    env: { ...process.env, ...env, DATABASE_URL: env.DATABASE_URL ?? '' },
  });
  // On SQLite, the test's own connection shares one read transaction per turn of the event loop
  // (platform/db/database.ts, ReadBatch), and a command on SQLite may run within one turn: let one pass, so that
  // the test's next read sees what the command wrote, as after a process.
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout, stderr };
}

/** Runs the built `atrium …args` as a process, with these settings added to the environment. */
export function atriumProcess(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, DATABASE_URL: env.DATABASE_URL ?? '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** The JSON document of a successful `--json` run: standard output holds it alone, on one line. */
export function json<T>(run: Run): T {
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trim().split('\n');
  assert.equal(lines.length, 1, `stdout must hold only the JSON document: ${run.stdout}`);
  return JSON.parse(lines[0] as string) as T;
}

/** A server started from the built command: its address, its process, its banner and everything it printed. */
export interface Served {
  url: string;
  child: ChildProcess;
  /** The banner, `Atrium listening on …`. */
  firstLine: string;
  /** Standard output and error so far. */
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Starts `atrium serve --port 0 …args` with these settings added to the environment (`LOG_LEVEL` `warn` unless
 * given; no DATABASE_URL unless given) and waits for its banner.
 */
/**
 * The V8 flags of the built CLI's shebang (`#!/usr/bin/env -S node …`): what `atrium serve` and `npm start` run
 * with. Node.js 24's default young generation is far larger than those flags allow, so a server started without
 * them measures memory unlike any installed one.
 */
export function cliNodeFlags(): string[] {
  const shebang = fs.readFileSync(CLI, 'utf8').split('\n')[0] ?? '';
  return shebang
    .replace(/^#!\/usr\/bin\/env -S node\s*/, '')
    .split(/\s+/)
    .filter(Boolean);
}

export async function serve(env: Record<string, string>, ...args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [...cliNodeFlags(), CLI, 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, DATABASE_URL: env.DATABASE_URL ?? '' },
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let out = '';
  child.stderr.on('data', (d) => {
    out += d;
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /Atrium listening on .*\n/.exec(out);
      if (m) resolve(m[0]);
    });
    child.on('exit', () => reject(new Error(`server exited early: ${out}`)));
  });
  const url = /on (http:\/\/[^ ]+) /.exec(line)?.[1] as string;
  return { url, child, firstLine: line.trim(), output: () => out, exited };
}
