/** Running the built `atrium` command (dist/cli/main.js) from the CLI tests: `npm test` builds dist first. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
export const CLI = path.join(ROOT, 'dist/cli/main.js');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `atrium …args` with these settings added to the environment (no DATABASE_URL unless given). */
export function atrium(env: Record<string, string>, ...args: string[]): Promise<Run> {
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
