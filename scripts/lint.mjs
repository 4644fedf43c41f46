#!/usr/bin/env node
/**
 * `npm run lint`: the lockfile check, Biome and the console's type check one after another, beside the checkout's
 * type check (`tsc -p tsconfig.json`, which also writes `.build/` for the tests and takes most of the time). Each
 * line's output is printed when it ends, whole; the lint fails if either line fails. On two cores this takes about
 * as long as the type check alone, instead of adding the rest to it.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = process.cwd();
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const npm = process.env.npm_execpath;

/** Runs the commands of a line one after another; resolves with the first failing one's code, or 0. */
async function line(commands) {
  let output = '';
  for (const [command, ...args] of commands) {
    const code = await new Promise((resolve) => {
      const child = spawn(command, args, { cwd: root, env: process.env });
      child.stdout.on('data', (d) => {
        output += d;
      });
      child.stderr.on('data', (d) => {
        output += d;
      });
      child.on('error', (error) => {
        output += `${command}: ${error.message}\n`;
        resolve(1);
      });
      child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
    });
    if (code !== 0) {
      process.stdout.write(output);
      console.error(`lint: ${[path.basename(command), ...args].join(' ')} failed (exit ${code})`);
      return code;
    }
  }
  process.stdout.write(output);
  return 0;
}

const lockfile = npm
  ? [process.execPath, npm, 'run', '--silent', 'lint:lockfile']
  : ['npm', 'run', '--silent', 'lint:lockfile'];
const codes = await Promise.all([
  line([lockfile, [bin('biome'), 'check', '.'], [bin('tsc'), '-p', 'console/tsconfig.json']]),
  line([[bin('tsc'), '-p', 'tsconfig.json']]),
]);
process.exit(codes.find((c) => c !== 0) ?? 0);
