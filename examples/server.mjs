/**
 * Starts a throwaway Atrium server for the examples: `atrium serve` on a free port with a temporary SQLite data
 * directory, and the `atrium` CLI against the same directory. Needs `npm run build` (it runs dist/cli/main.js).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

/** @returns {Promise<{ baseUrl: string, atrium: (...args: string[]) => any, stop: () => Promise<void> }>} */
export async function startAtrium() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-example-'));
  const env = { ...process.env, ATRIUM_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' };
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const baseUrl = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /Atrium listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`atrium serve exited (${code}): ${out}`)));
  });
  return {
    baseUrl,
    /** Runs an `atrium` CLI command with `--json` and answers its JSON. */
    atrium: (...args) => JSON.parse(execFileSync(process.execPath, [CLI, ...args, '--json'], { env }).toString()),
    async stop() {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
