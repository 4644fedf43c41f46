/**
 * What is running: the package's version and, when it can be told, the commit it was built from (`GET /version`).
 * The commit comes from `ATRIUM_COMMIT` (set it when building an image), else from the checkout's `.git` when
 * Atrium runs from a clone (read as files: no `git` process); an installed package without either answers null.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface BuildInfo {
  version: string;
  commit: string | null;
  node: string;
}

/**
 * The package root: the nearest folder above this file that holds a `package.json`. That is two levels up in
 * `src/platform` and `dist/platform`, and three in the tests' compiled copy (`.build/src/platform`, docs/development.md).
 */
export const PACKAGE_ROOT = packageRoot(path.dirname(fileURLToPath(import.meta.url)));

function packageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '../..');
  }
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

const SHA = /^[0-9a-f]{40}$/;

/**
 * The commit `HEAD` names in a `.git` directory: detached, a loose ref, or a packed one. `.git` may also be a file
 * (`gitdir: <dir>`, in a `git worktree` checkout): its `HEAD` is read there, and the refs also in the repository's
 * common directory (the `commondir` file), where branches live.
 */
export function commitOf(gitDir: string): string | null {
  const pointer = /^gitdir: (.+)$/.exec(readText(gitDir) ?? '')?.[1];
  if (pointer) gitDir = path.resolve(path.dirname(gitDir), pointer);
  const common = path.resolve(gitDir, readText(path.join(gitDir, 'commondir')) ?? '.');
  const head = readText(path.join(gitDir, 'HEAD'));
  if (!head) return null;
  if (SHA.test(head)) return head;
  const ref = /^ref: (\S+)$/.exec(head)?.[1];
  if (!ref || ref.includes('..')) return null;
  for (const dir of new Set([gitDir, common])) {
    const loose = readText(path.join(dir, ref));
    if (loose && SHA.test(loose)) return loose;
  }
  for (const line of (readText(path.join(common, 'packed-refs')) ?? '').split('\n')) {
    const [sha, name] = line.split(' ');
    if (name === ref && sha && SHA.test(sha)) return sha;
  }
  return null;
}

let cached: BuildInfo | undefined;

export function buildInfo(env: NodeJS.ProcessEnv = process.env): BuildInfo {
  if (cached) return cached;
  const pkg = JSON.parse(readText(path.join(PACKAGE_ROOT, 'package.json')) ?? '{}') as { version?: string };
  const given = env.ATRIUM_COMMIT?.trim().toLowerCase();
  cached = {
    version: pkg.version ?? '0.0.0',
    commit: given && /^[0-9a-f]{7,40}$/.test(given) ? given : commitOf(path.join(PACKAGE_ROOT, '.git')),
    node: process.version,
  };
  return cached;
}
