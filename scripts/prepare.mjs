#!/usr/bin/env node
/**
 * `npm install`'s `prepare` step in a clone (issue 17, item 2). Plain JavaScript, so that it runs without the
 * devDependencies.
 *
 * - TypeScript is installed (a development install, `npm install` / `npm ci`): build dist/ (`npm run build`).
 * - TypeScript is not installed (`npm install --omit=dev`, `npm ci --omit=dev`, `npm prune --omit=dev`) and dist/
 *   is already built: nothing to do, say so.
 * - Neither: fail with the commands that work, instead of tsc's "command not found".
 *
 * An installed package (`npm install -g atrium-0.1.0.tgz`) never runs it: npm runs `prepare` only in a project
 * directory and for git dependencies, and the packed package ships dist/ built.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = process.cwd();
const require = createRequire(path.join(root, 'package.json'));

let typescript = true;
try {
  require.resolve('typescript/package.json');
} catch {
  typescript = false;
}

if (typescript) {
  const npm = process.env.npm_execpath;
  const r = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  process.exit(r.status ?? 1);
}

// The server's build, and the SDK workspace's (the server loads its wire contract and re-exports it).
const built = ['dist/cli/main.js', 'packages/client/dist/esm/index.js'].every((f) => fs.existsSync(path.join(root, f)));
if (built) {
  console.log('prepare: TypeScript is not installed (a production install); using the dist/ already built.');
  process.exit(0);
}
console.error(`prepare: dist/ is not built, and TypeScript (a devDependency) is not installed, so it cannot be built.
A production install from a clone builds first, then drops the devDependencies:

  npm ci
  npm prune --omit=dev

or installs the packed package: npm pack, then npm install -g --omit=dev ./atrium-<version>.tgz
(docs/production.md).`);
process.exit(1);
