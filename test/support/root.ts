/**
 * The checkout's root, for tests that read its files (docs, sources, package.json) or run its commands. The tests
 * run from their compiled copy in `.build/` (docs/development.md, "Tests"), so the root is found as the nearest
 * folder above with a `package.json`, not at a fixed depth.
 */
import fs from 'node:fs';
import path from 'node:path';

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const ROOT = findRoot(import.meta.dirname);
