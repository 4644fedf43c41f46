/**
 * The `prepare` step of a clone (scripts/prepare.mjs, issue 17 item 2): it builds when TypeScript is installed,
 * keeps an already-built dist/ when it is not (`npm ci --omit=dev`, `npm prune --omit=dev`), and otherwise fails
 * with the commands that work instead of "tsc: not found". Each case runs the script in a directory of its own.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ROOT } from '../support/root.js';

describe('scripts/prepare.mjs', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-prepare-'));
    fs.mkdirSync(path.join(dir, 'scripts'));
    fs.copyFileSync(path.join(ROOT, 'scripts/prepare.mjs'), path.join(dir, 'scripts/prepare.mjs'));
    // `npm run build` here only leaves a mark.
    const build = `node -e "require('fs').writeFileSync('built', 'yes')"`;
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'p', scripts: { build } }));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const prepare = () => {
    const env = { ...process.env, NODE_OPTIONS: '' };
    const r = spawnSync(process.execPath, ['scripts/prepare.mjs'], { cwd: dir, encoding: 'utf8', env });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  };

  it('builds with npm run build when TypeScript is installed', () => {
    fs.mkdirSync(path.join(dir, 'node_modules/typescript'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'node_modules/typescript/package.json'), '{"name": "typescript"}');
    const r = prepare();
    assert.equal(r.status, 0, r.out);
    assert.equal(fs.readFileSync(path.join(dir, 'built'), 'utf8'), 'yes');
  });

  it('keeps the dist/ already built when TypeScript is not installed (a production install)', () => {
    for (const file of ['dist/cli/main.js', 'packages/client/dist/esm/index.js']) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), '');
    }
    const r = prepare();
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /TypeScript is not installed \(a production install\); using the dist\/ already built/);
    assert.equal(fs.existsSync(path.join(dir, 'built')), false, 'nothing was built');
  });

  it('fails with the working commands when there is neither TypeScript nor dist/', () => {
    const r = prepare();
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /dist\/ is not built, and TypeScript \(a devDependency\) is not installed/);
    assert.match(r.out, /npm ci\n\s+npm prune --omit=dev/);
    assert.match(r.out, /npm install -g --omit=dev \.\/atrium-<version>\.tgz/);
  });

  it('is the prepare script of package.json', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    assert.equal(pkg.scripts.prepare, 'node scripts/prepare.mjs');
  });
});
